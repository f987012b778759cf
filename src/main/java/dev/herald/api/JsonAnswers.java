package dev.herald.api;

import java.io.ByteArrayOutputStream;

import io.helidon.common.GenericType;
import io.helidon.http.media.EntityWriter;
import io.helidon.http.media.jsonp.JsonpSupport;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonStructure;

/**
 * Successful JSON answers that a handler builds as a tree (the management API, health): written by Helidon's JSON-P
 * media support ({@code helidon-http-media-jsonp}), which serializes them and sets their {@code Content-Type}
 * ({@code application/json}, no charset: its default in Helidon 4.5), then sent with Herald's framing
 * ({@link Bodies#send}: {@code Content-Length}, no content for HEAD).
 *
 * <p>Only the media support's writer is used, not {@code response.send(JsonStructure)} through the server's media
 * context, which changed the answers (measured on Helidon 4.5.0, docs/modules.md):
 * <ul>
 * <li>it negotiates with {@code Accept}: a client that does not list JSON ({@code Accept: text/html}) got 415
 *     {@code {"error":"Unsupported Media Type","code":"BAD_REQUEST"}} after the handler had done its work (a
 *     project created, then reported as refused, so a client would create it again);</li>
 * <li>it streams: an answer over 16 KiB (a list of notifications) went chunked, without {@code Content-Length};</li>
 * <li>with {@code TE: trailers} in the request, a streamed answer that fitted one buffer was sent with a
 *     {@code Content-Length} and then a trailer section after its content ({@code stream-result:}), bytes a
 *     client keeping the connection reads as the start of the next answer.</li>
 * </ul>
 * Error bodies are not written here: {@link ErrorResponses} and {@code wire.JsonDirectHandler} share one serializer
 * ({@link Json}), also on the public hot paths.
 */
public final class JsonAnswers {

    private static final GenericType<JsonStructure> TYPE = GenericType.create(JsonStructure.class);
    private static final EntityWriter<JsonStructure> WRITER = JsonpSupport.serverResponseWriter();

    private JsonAnswers() {
    }

    /** Sends {@code body} with the status and headers already set on {@code response}. */
    public static void send(ServerRequest request, ServerResponse response, JsonStructure body) {
        ByteArrayOutputStream content = new ByteArrayOutputStream(256);
        WRITER.write(TYPE, body, content, request.headers(), response.headers());
        Bodies.send(request, response, content.toByteArray());
    }
}
