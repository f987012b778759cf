package dev.herald.api;

import io.helidon.webserver.http.ServerRequest;

/**
 * Whether a request's body is still, in whole or in part, on the connection: an error answer then says
 * {@code Connection: close} ({@link ErrorResponses}), so the client does not send its next request after bytes the
 * server would read as one. The framing layer ({@code dev.herald.wire}) reads bodies and leaves its mark here, so
 * that the API's conventions need nothing of it.
 */
public final class UnreadBodies {

    private static final String LEFT_UNREAD = UnreadBodies.class.getName() + ".leftUnread";

    private UnreadBodies() {
    }

    /** The body was read only up to a bound, which always ends in an error answer. */
    public static void markLeftUnread(ServerRequest request) {
        request.context().register(LEFT_UNREAD, Boolean.TRUE);
    }

    /** Whether the request has a body that nothing asked for (answered before it was read). */
    public static boolean neverRead(ServerRequest request) {
        return request.content().hasEntity() && !request.content().consumed();
    }

    /**
     * Never asked for, or marked {@link #markLeftUnread}. Helidon's {@code consumed()} says only that the body was
     * asked for.
     */
    public static boolean leftUnread(ServerRequest request) {
        return neverRead(request)
                || request.content().hasEntity() && request.context().get(LEFT_UNREAD, Boolean.class).orElse(false);
    }
}
