package dev.herald.cors;

import java.util.Optional;

import dev.herald.web.ApiPaths;
import dev.herald.web.PendingHeaders;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * CORS for the public routes, whose key is meant for client-side code (decisions §1, browsers and caches).
 * Preflights are answered here and never reach the rate limit. The management API gets no CORS headers.
 */
public final class CorsFilter implements Filter {

    static final String ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
    static final String ALLOWED_HEADERS = "Content-Type, Authorization";
    static final String EXPOSED_HEADERS = "ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
    /** Two hours: the most Chromium honours. */
    static final String MAX_AGE_SECONDS = "7200";

    private final CorsSettings settings;

    public CorsFilter(CorsSettings settings) {
        this.settings = settings;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isPublic(request)) {
            chain.proceed();
            return;
        }
        allowOrigin(request, response, request.headers().first(HeaderNames.ORIGIN));
        if (request.prologue().method().equals(Method.OPTIONS)) {
            response.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
            response.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
            response.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
            response.header(HeaderNames.ALLOW, ALLOWED_METHODS);
            response.status(Status.NO_CONTENT_204).send();
            return;
        }
        PendingHeaders.set(request, response, HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
        chain.proceed();
    }

    private void allowOrigin(RoutingRequest request, RoutingResponse response, Optional<String> origin) {
        if (settings.allowsAnyOrigin()) {
            PendingHeaders.set(request, response, HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*");
            return;
        }
        // The answer depends on Origin: shared caches must keep one copy per origin.
        PendingHeaders.set(request, response, HeaderNames.VARY, "Origin");
        origin.filter(settings.allowedOrigins()::contains)
                .ifPresent(allowed -> PendingHeaders.set(request, response,
                                                         HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, allowed));
    }
}
