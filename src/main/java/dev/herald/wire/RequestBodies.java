package dev.herald.wire;

import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;
import java.util.function.Supplier;

import dev.herald.api.ApiException;
import dev.herald.api.UnreadBodies;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;

/**
 * Reads a request body into memory, at most a bound, and turns every way a client can break the reading into a
 * 400 of the caller's choosing instead of a 500 with a stack trace in the log.
 */
public final class RequestBodies {

    /** The most the management API reads of a body: rich-text messages can be long. */
    public static final int MAX_ADMIN_BYTES = 1024 * 1024;
    /**
     * The most a sign-in reads: a name and a token. It is the one management body sent before its sender is known, so
     * it reserves little of the body budget: eight unauthenticated sign-ins of a megabyte whose answers were never
     * read held the whole budget, and every body of every client was answered 503.
     */
    public static final int MAX_SIGN_IN_BYTES = 4 * 1024;
    /** The most a public route (tracking) reads: 64 KiB received, announced or chunked (docs/api.md). */
    public static final int MAX_PUBLIC_BYTES = 64 * 1024;

    private RequestBodies() {
    }

    /**
     * The body: exactly the announced length when there is one (the caller has refused lengths over its bound), or
     * up to {@code max + 1} bytes of a chunked body, so that the caller sees it was too large.
     *
     * @param unreadable the answer when the body cannot be read: a malformed chunk (Helidon 4.1.7 throws a
     *                   {@code NumberFormatException} for a chunk size such as {@code 0x10} or {@code 10;a=b}, and
     *                   its reader's own exceptions for a bare LF), or a client that stopped sending (half-closed)
     *                   before all it announced. The rest of the body is never read: {@code ConnectionCloseFilter}
     *                   closes the connection after the answer. A client whose connection is gone gets nothing.
     */
    public static byte[] read(ServerRequest request, int max, Supplier<ApiException> unreadable) {
        OptionalLong announced = request.headers().contentLength();
        byte[] body;
        try {
            InputStream in = request.content().inputStream();
            // With a length announced, exactly that many: readNBytes(n) alone would take a 16 KB buffer per request
            // for a body of some 20 bytes (measured: byte[] was over half of the tracking path's allocation).
            body = announced.isPresent() ? in.readNBytes((int) announced.getAsLong()) : in.readNBytes(max + 1);
            if (body.length <= max) {
                // All of it is read; closing reads the end of a chunked body.
                in.close();
            } else {
                // Left as it is: closing would wait for the next piece, which a client may never send, before the
                // caller could answer 413. The answer closes the connection instead (ErrorResponses).
                UnreadBodies.markLeftUnread(request);
            }
        } catch (IOException | RuntimeException e) {
            // Nothing here is ours: the bytes come from the client, and so does every failure to read them.
            if (connectionLost(e)) {
                // No one is left to read an answer: close quietly (an error answer would fail to be written and
                // Helidon would log that failure with a stack trace).
                throw new CloseConnectionException("The client closed the connection inside the body", e);
            }
            throw unreadable.get();
        }
        if (announced.isPresent() && body.length < announced.getAsLong()) {
            throw unreadable.get();
        }
        return body;
    }

    private static boolean connectionLost(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                return true;
            }
        }
        return false;
    }
}
