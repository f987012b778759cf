package dev.herald.api;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Sends an answer's content, or for HEAD only what its headers say of it. Helidon (4.1.7, and 4.5.0 still:
 * {@code PublicFeedContract.headAnswersLikeGetWithoutTheContent} fails without this) writes the content of a HEAD
 * answer too, and a client reusing the connection would read it as the start of the next answer (RFC 9110 §9.3.2: a
 * HEAD answer has no content).
 */
public final class Bodies {

    private Bodies() {
    }

    public static void send(ServerRequest request, ServerResponse response, byte[] content) {
        if (request.prologue().method().equals(Method.HEAD)) {
            response.header(ResponseHeaders.of(HeaderNames.CONTENT_LENGTH, content.length));
            response.send();
        } else {
            response.send(content);
        }
    }

    /**
     * Sends content that many answers share (a cached feed) without copying it. {@code send(byte[])} copies every
     * answer into a fresh buffer with its headers: on the feed that copy was 88 % of all allocation, and each answer
     * a slow reader has not taken yet keeps its copy alive, so a few clients that stop reading could hold the heap.
     * Through the output stream, with its length announced, an empty first write sends the headers alone and the
     * content goes to the socket as the array itself. This needs the listener's {@code write-buffer-size} at 0
     * (see {@code Main.server}): with a buffer in between, the first write Helidon sees is the whole content, which
     * it copies to join it to the headers (still correct, only not free). The content is written whole: Helidon 4.1.7
     * mis-wrote an array slice that did not start at 0 ({@code FixedBufferData.writeTo}, fixed by 4.5.0).
     */
    public static void sendShared(ServerRequest request, ServerResponse response, byte[] content) {
        if (request.prologue().method().equals(Method.HEAD)) {
            send(request, response, content);
            return;
        }
        response.header(ResponseHeaders.of(HeaderNames.CONTENT_LENGTH, content.length));
        try (OutputStream out = response.outputStream()) {
            out.write(content, 0, 0);
            out.write(content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
