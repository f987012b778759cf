package dev.herald.api;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Answers for requests no route serves: a known path with another method (405 with {@code Allow}) and an
 * unknown path (JSON 404).
 */
public final class RouteFallbacks {

    private RouteFallbacks() {
    }

    /** Registered after a path's real routes, for every other method. */
    public static Handler methodNotAllowed(String allowedMethods) {
        Header allow = ResponseHeaders.fixed(HeaderNames.ALLOW, allowedMethods);
        return (request, response) -> {
            response.header(allow);
            throw ApiException.of(Status.METHOD_NOT_ALLOWED_405, ApiPaths.errorField(request),
                                  "METHOD_NOT_ALLOWED", "Method not allowed");
        };
    }

    /** Registered last: every request that reached no route. */
    public static void notFound(ServerRequest request, ServerResponse response) {
        throw ApiException.error(Status.NOT_FOUND_404, "NOT_FOUND", "Not found");
    }
}
