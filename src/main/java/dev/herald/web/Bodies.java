package dev.herald.web;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Sends an answer's content, or for HEAD only what its headers say of it. Helidon 4.1.7 writes the content of a
 * HEAD answer too, and a client reusing the connection would read it as the start of the next answer
 * (RFC 9110 §9.3.2: a HEAD answer has no content).
 */
public final class Bodies {

    private Bodies() {
    }

    public static void send(ServerRequest request, ServerResponse response, byte[] content) {
        if (request.prologue().method().equals(Method.HEAD)) {
            response.header(HeaderNames.CONTENT_LENGTH, String.valueOf(content.length));
            response.send();
        } else {
            response.send(content);
        }
    }
}
