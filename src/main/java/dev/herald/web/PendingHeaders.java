package dev.herald.web;

import java.util.Arrays;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Headers a filter or handler adds to every response of a request (CORS, rate limit, {@code Allow}).
 * Helidon clears response headers before an error handler runs, so they are remembered and {@link ErrorResponses}
 * sets them again on error bodies.
 *
 * <p>They are remembered on the thread, not in the request's context: this runs on every public request, and the
 * first use of a request's context builds a {@code Context} with its own locks and id. Helidon runs a request's
 * filters, handler and error handler on the one thread that serves its connection. The request they belong to is
 * kept with them, so a later request on the thread never gets them; it also keeps that request reachable until
 * the next request on the connection, or until the connection closes.
 */
public final class PendingHeaders {

    private static final ThreadLocal<PendingHeaders> OF_THREAD = ThreadLocal.withInitial(PendingHeaders::new);

    private ServerRequest request;
    private Header[] headers = new Header[8];
    private int count;

    private PendingHeaders() {
    }

    /**
     * Sets the header on the response now and on any error response that replaces it. Headers that do not change
     * from request to request are best built once, with {@link HeaderValues#createCached(HeaderName, String)}:
     * Helidon then writes their bytes as they are.
     */
    public static void set(ServerRequest request, ServerResponse response, Header header) {
        response.header(header);
        OF_THREAD.get().add(request, header);
    }

    /** Sets the header on the response now and on any error response that replaces it. */
    public static void set(ServerRequest request, ServerResponse response, HeaderName name, String value) {
        set(request, response, HeaderValues.createCached(name, value));
    }

    static void applyTo(ServerRequest request, ServerResponse response) {
        PendingHeaders pending = OF_THREAD.get();
        if (pending.request != request) {
            return;
        }
        for (int i = 0; i < pending.count; i++) {
            response.header(pending.headers[i]);
        }
    }

    private void add(ServerRequest owner, Header header) {
        if (request != owner) {
            request = owner;
            count = 0;
        }
        if (count == headers.length) {
            headers = Arrays.copyOf(headers, count * 2);
        }
        headers[count++] = header;
    }
}
