package dev.herald.api;


import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Headers that protect what Herald sends, on every answer:
 * <ul>
 * <li>{@code X-Content-Type-Options: nosniff}: a browser must take a JSON body (which carries text that admins
 *     wrote) for JSON, never sniff it into HTML or script;</li>
 * <li>{@code Cache-Control: no-store} on the management API: its answers hold projects, keys and stats, which no
 *     browser or proxy cache should keep.</li>
 * </ul>
 * Set first, so answers that filters give themselves (preflights) carry them; {@link ErrorResponses} sets them again
 * on error answers, after dropping what the failed answer had set, and {@code wire.JsonDirectHandler} on answers made
 * before routing.
 * Both values are built once: this runs on every request, the public hot paths included.
 */
public final class SecurityHeadersFilter implements Filter {

    private static final Header NOSNIFF = ResponseHeaders.fixed(HeaderNames.create("X-Content-Type-Options"),
                                                                    "nosniff");
    private static final Header NO_STORE = ResponseHeaders.fixed(HeaderNames.CACHE_CONTROL, "no-store");

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        applyTo(request, response);
        chain.proceed();
    }

    static void applyTo(ServerRequest request, ServerResponse response) {
        response.header(NOSNIFF);
        if (ApiPaths.isAdmin(request)) {
            response.header(NO_STORE);
        }
    }

    /** Before routing nothing says which surface a request is for, and nothing refused there is worth keeping. */
    public static void applyBeforeRouting(ServerResponseHeaders headers) {
        headers.set(NOSNIFF);
        headers.set(NO_STORE);
    }
}
