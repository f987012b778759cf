package dev.herald.wire;


import java.util.Set;
import java.util.function.BooleanSupplier;

import dev.herald.api.UnreadBodies;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Closes the connection after the answer where Helidon (4.1.7, and 4.5.0 still: without this filter the tests of
 * tracking, of strict framing and of hostile clients find connections left open) would keep it open:
 * <ul>
 * <li>the client sent {@code Connection: close}: RFC 9112 §9.6 says the server MUST then close, Helidon waits
 *     for the client to;</li>
 * <li>the request body was left (partly) unread, e.g. answered before it was read (a bad id, the rate limit),
 *     refused for its size, or sent with a method whose routes read none (a GET with a body): Helidon would
 *     either read all of it, however large, or, when the answer says {@code Connection: close}, parse it as the
 *     next request, which would let a body smuggle a request past a proxy.</li>
 * <li>the answer says {@code Connection: close} (ambiguous framing, see {@link FramingFilter}): Helidon sends the
 *     header and keeps reading;</li>
 * <li>the instance is stopping and draining ({@code observe.drain-period}): a proxy that keeps connections to it
 *     opens its next ones to another instance, rather than send a request on one the stop then closes.</li>
 * </ul>
 */
public final class ConnectionCloseFilter implements Filter {

    private static final String CLOSE = "close";
    /** The methods of the routes that read a body; a body sent with any other is never read. */
    private static final Set<Method> BODY_METHODS = Set.of(Method.POST, Method.PATCH, Method.PUT);
    private static final Header CLOSING = HeaderValues.CONNECTION_CLOSE;

    private final BooleanSupplier draining;

    /** @param draining whether the instance is stopping and draining */
    public ConnectionCloseFilter(BooleanSupplier draining) {
        this.draining = draining;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (clientAskedToClose(request) || bodyNoRouteReads(request) || draining.getAsBoolean()) {
            // Known before the answer: it says so, as every answer after which the connection closes does. (An
            // error answer to a body left unread says so in ErrorResponses.)
            response.header(CLOSING);
        }
        chain.proceed();
        // A body read only to its bound always ends in an error answer, which says Connection: close
        // (ErrorResponses): the cheap check is enough on this path, which every request takes.
        if (UnreadBodies.neverRead(request) || response.headers().contains(CLOSING)) {
            throw new CloseConnectionException("Connection closed after the answer");
        }
    }

    private static boolean bodyNoRouteReads(RoutingRequest request) {
        return request.content().hasEntity() && !BODY_METHODS.contains(request.prologue().method());
    }

    /** Browsers send {@code Connection: keep-alive} on every request, so its value is read in place. */
    private static boolean clientAskedToClose(RoutingRequest request) {
        if (!request.headers().contains(HeaderNames.CONNECTION)) {
            return false;
        }
        Header connection = request.headers().get(HeaderNames.CONNECTION);
        if (connection.valueCount() == 1) {
            return hasToken(connection.get(), CLOSE);
        }
        return connection.allValues().stream().anyMatch(value -> hasToken(value, CLOSE));
    }

    /** Whether a comma-separated list of tokens (RFC 9110 §5.6.1) holds {@code token}, in any case. */
    static boolean hasToken(String list, String token) {
        int from = 0;
        while (from <= list.length()) {
            int end = list.indexOf(',', from);
            if (end < 0) {
                end = list.length();
            }
            int start = from;
            while (start < end && Character.isWhitespace(list.charAt(start))) {
                start++;
            }
            int stop = end;
            while (stop > start && Character.isWhitespace(list.charAt(stop - 1))) {
                stop--;
            }
            if (stop - start == token.length() && list.regionMatches(true, start, token, 0, token.length())) {
                return true;
            }
            from = end + 1;
        }
        return false;
    }
}
