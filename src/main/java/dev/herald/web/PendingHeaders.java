package dev.herald.web;

import java.util.ArrayList;
import java.util.List;

import io.helidon.http.HeaderName;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Headers a filter adds to every response of a request (CORS, rate limit).
 * Helidon clears response headers before an error handler runs, so they are remembered in the request
 * context and {@link ErrorResponses} sets them again on error bodies.
 */
public final class PendingHeaders {

    private final List<Header> headers = new ArrayList<>();

    private PendingHeaders() {
    }

    /** Sets the header on the response now and on any error response that replaces it. */
    public static void set(ServerRequest request, ServerResponse response, HeaderName name, String value) {
        of(request).headers.add(new Header(name, value));
        response.header(name, value);
    }

    static void applyTo(ServerRequest request, ServerResponse response) {
        request.context()
                .get(PendingHeaders.class)
                .ifPresent(pending -> pending.headers.forEach(header -> response.header(header.name(), header.value())));
    }

    private static PendingHeaders of(ServerRequest request) {
        var context = request.context();
        return context.get(PendingHeaders.class).orElseGet(() -> {
            PendingHeaders created = new PendingHeaders();
            context.register(created);
            return created;
        });
    }

    private record Header(HeaderName name, String value) {
    }
}
