package dev.herald.cors;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.herald.api.ApiPaths;
import dev.herald.api.ResponseHeaders;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * CORS for the public routes, whose key is meant for client-side code (docs/api.md#cors).
 * Preflights are answered here and never reach the rate limit. The management API gets no CORS headers.
 *
 * <p>Every header here is built once: Helidon writes a cached header's bytes as they are, where a header given as
 * a string is copied and encoded again for each answer.
 */
public final class CorsFilter implements Filter {

    static final String ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
    /** If-None-Match: a client that keeps the feed's ETag itself revalidates with it, and must be let. */
    static final String ALLOWED_HEADERS = "Content-Type, Authorization, If-None-Match";
    static final String EXPOSED_HEADERS = "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
    /** Two hours: the most Chromium honours. */
    static final String MAX_AGE_SECONDS = "7200";

    private static final Header ANY_ORIGIN = ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
    /** The answer depends on Origin: shared caches must keep one copy per origin. */
    private static final Header VARY_ORIGIN = ResponseHeaders.fixed(HeaderNames.VARY, "Origin");
    private static final Header EXPOSE = ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS,
                                                                   EXPOSED_HEADERS);
    private static final Header[] PREFLIGHT = {
            ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS),
            ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS),
            ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS),
            ResponseHeaders.fixed(HeaderNames.ALLOW, ALLOWED_METHODS)};

    /**
     * @param allowedOrigins each allowed origin's own {@code Access-Control-Allow-Origin}
     */
    private record Origins(boolean anyOrigin, Map<String, Header> allowedOrigins) {

        static Origins of(CorsSettings settings) {
            return new Origins(settings.allowsAnyOrigin(), settings.allowedOrigins().stream().distinct().collect(
                    Collectors.toUnmodifiableMap(Function.identity(),
                                                 origin -> ResponseHeaders.fixed(
                                                         HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin))));
        }
    }

    /** Replaced whole by a reload, read once per request. */
    private volatile Origins origins;

    public CorsFilter(CorsSettings settings) {
        this.origins = Origins.of(settings);
    }

    /** The origins of a configuration reloaded while Herald runs, for requests from now on. */
    public void reconfigure(CorsSettings settings) {
        origins = Origins.of(settings);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isPublic(request)) {
            chain.proceed();
            return;
        }
        allowOrigin(request, response);
        if (request.prologue().method().equals(Method.OPTIONS)) {
            for (Header header : PREFLIGHT) {
                response.header(header);
            }
            response.status(Status.NO_CONTENT_204).send();
            return;
        }
        response.header(EXPOSE);
        chain.proceed();
    }

    private void allowOrigin(RoutingRequest request, RoutingResponse response) {
        Origins origins = this.origins;
        if (origins.anyOrigin()) {
            response.header(ANY_ORIGIN);
            return;
        }
        response.header(VARY_ORIGIN);
        request.headers().first(HeaderNames.ORIGIN)
                .map(origins.allowedOrigins()::get)
                .ifPresent(allowed -> response.header(allowed));
    }
}
