package dev.herald.web;

import java.util.Arrays;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Closes the connection after the answer where Helidon 4.1.7 would keep it open:
 * <ul>
 * <li>the client sent {@code Connection: close}: RFC 9112 §9.6 says the server MUST then close, Helidon waits
 *     for the client to;</li>
 * <li>the request body was left (partly) unread, e.g. answered before it was read (a bad id, the rate limit) or
 *     refused for its size: Helidon would either read all of it, however large, or, when the answer says
 *     {@code Connection: close}, parse it as the next request, which would let a body smuggle a request past a
 *     proxy.</li>
 * </ul>
 */
public final class ConnectionCloseFilter implements Filter {

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        chain.proceed();
        if (clientAskedToClose(request) || bodyLeftUnread(request)) {
            throw new CloseConnectionException("Connection closed after the answer");
        }
    }

    static boolean bodyLeftUnread(RoutingRequest request) {
        return request.content().hasEntity() && !request.content().consumed();
    }

    private static boolean clientAskedToClose(RoutingRequest request) {
        return request.headers().first(HeaderNames.CONNECTION)
                .map(value -> Arrays.stream(value.split(",")).anyMatch(token -> token.strip().equalsIgnoreCase("close")))
                .orElse(false);
    }
}
