package dev.herald.api;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import io.helidon.common.GenericType;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.media.EntityWriter;
import io.helidon.http.media.jsonp.JsonpSupport;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonGenerator;

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
    private static final Header JSON = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, "application/json");

    private JsonAnswers() {
    }

    /** Sends {@code body} with the status and headers already set on {@code response}. */
    public static void send(ServerRequest request, ServerResponse response, JsonStructure body) {
        ByteArrayOutputStream content = new ByteArrayOutputStream(256);
        WRITER.write(TYPE, body, content, request.headers(), response.headers());
        Bodies.send(request, response, content.toByteArray());
    }

    /**
     * {@code items} as a JSON array of at most {@code maxBytes} bytes: as many of them, from the first, as fit (the
     * first always, a single item being bounded by the limits it was stored under). Each item's tree is built and
     * written one at a time, so neither the trees nor more than one item past the bound are ever in memory. The
     * content type is set on {@code response}; send the array with {@link #send(ServerRequest, ServerResponse,
     * BoundedArray)} once the other headers are set.
     */
    public static <T> BoundedArray array(ServerRequest request, ServerResponse response, List<T> items,
                                         Function<T, ? extends JsonStructure> toJson, int maxBytes) {
        if (items.isEmpty()) {
            ByteArrayOutputStream content = new ByteArrayOutputStream(2);
            WRITER.write(TYPE, JsonValue.EMPTY_JSON_ARRAY, content, request.headers(), response.headers());
            return new BoundedArray(content.toByteArray(), 0);
        }
        ArrayContent content = new ArrayContent();
        int written = 0;
        for (T item : items) {
            int before = content.size();
            content.write(written == 0 ? '[' : ',');
            WRITER.write(TYPE, toJson.apply(item), content, request.headers(), response.headers());
            if (content.size() + 1 > maxBytes && written > 0) {
                content.cut(before);
                break;
            }
            written++;
        }
        content.write(']');
        return new BoundedArray(content.toByteArray(), written);
    }

    /** @param items how many of the items given fitted */
    public record BoundedArray(byte[] content, int items) {
    }

    /**
     * An answer too large to hold as a tree (a tree of Parsson's takes some ten times the bytes it writes): {@code
     * write} writes it member by member through a generator into its bytes, sent without another copy when
     * {@code expectedBytes} was exact, with the status and other headers already set on {@code response} (or set by
     * {@code write}, which may end a list early once the answer holds enough bytes).
     */
    public static void sendWritten(ServerRequest request, ServerResponse response, int expectedBytes,
                                   Consumer<WrittenJson> write) {
        Written content = new Written(expectedBytes);
        try (JsonGenerator json = Json.generator(content)) {
            write.accept(new WrittenJson(json, content));
        }
        response.header(JSON);
        Bodies.sendShared(request, response, content.bytes());
    }

    /** An answer being written: its generator, and how many bytes it holds so far. */
    public static final class WrittenJson {

        private final JsonGenerator json;
        private final ByteArrayOutputStream content;

        private WrittenJson(JsonGenerator json, ByteArrayOutputStream content) {
            this.json = json;
            this.content = content;
        }

        public JsonGenerator json() {
            return json;
        }

        /** The bytes written so far, those the generator still buffered included. */
        public int bytes() {
            json.flush();
            return content.size();
        }
    }

    /** Sends the array, with the status and headers already set on {@code response}, without copying it again. */
    public static void send(ServerRequest request, ServerResponse response, BoundedArray array) {
        Bodies.sendShared(request, response, array.content());
    }

    /** An answer's bytes, handed on as they are when they filled the buffer exactly. */
    private static final class Written extends ByteArrayOutputStream {

        Written(int expectedBytes) {
            super(expectedBytes);
        }

        byte[] bytes() {
            return count == buf.length ? buf : toByteArray();
        }
    }

    /** An output that can take back what it took last: the item that did not fit. */
    private static final class ArrayContent extends ByteArrayOutputStream {

        ArrayContent() {
            super(1024);
        }

        void cut(int size) {
            count = size;
        }
    }
}
