package dev.herald.admin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import dev.herald.api.JsonAnswers;
import dev.herald.api.ResponseHeaders;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonStructure;

/**
 * Successful management API answers: JSON with the right status, written by Helidon's JSON-P media support
 * ({@link JsonAnswers}).
 */
public final class AdminResponses {

    /**
     * The most bytes a list's answer holds. Pages used to be bounded by the characters they read, not the bytes they
     * wrote: a message of 32,000 control characters is 192 KB once escaped, and four pages of forty of them at
     * once ended the process at its 80 MB heap.
     */
    public static final int MAX_ANSWER_BYTES = 1 << 20;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private AdminResponses() {
    }

    public static void ok(ServerRequest request, ServerResponse response, JsonStructure body) {
        send(request, response, Status.OK_200, body);
    }

    public static void created(ServerRequest request, ServerResponse response, String location, JsonStructure body) {
        response.header(ResponseHeaders.of(HeaderNames.LOCATION, location));
        send(request, response, Status.CREATED_201, body);
    }

    /** Made, but not a resource of the API that a Location could name (a backup: a file on the server). */
    public static void created(ServerRequest request, ServerResponse response, JsonStructure body) {
        send(request, response, Status.CREATED_201, body);
    }

    /** Begun, and going on after the answer (a long backup): the body says what to look for. */
    public static void accepted(ServerRequest request, ServerResponse response, JsonStructure body) {
        send(request, response, Status.ACCEPTED_202, body);
    }

    public static void noContent(ServerResponse response) {
        response.status(Status.NO_CONTENT_204).send();
    }

    /**
     * A page of a list: its items as the JSON array the list always was, and the next page, if any, in a
     * {@code Link: <…>; rel="next"} header (RFC 8288): this request's path and query, with the next cursor. The
     * answer holds at most {@link #MAX_ANSWER_BYTES}: past them the page ends early, and its link says where the
     * rest starts (the limit is a most, never a promise). Whatever a list holds, no answer is larger, however many
     * are written at once.
     */
    public static <T> void page(ServerRequest request, ServerResponse response, Page<T> page,
                                Function<T, ? extends JsonStructure> toJson) {
        JsonAnswers.BoundedArray array = JsonAnswers.array(request, response, page.entries(),
                                                           entry -> toJson.apply(entry.value()), MAX_ANSWER_BYTES);
        page.first(array.items()).next().ifPresent(cursor -> linkNextPage(request, response, cursor));
        response.status(Status.OK_200);
        JsonAnswers.send(request, response, array);
    }

    /** {@code Link: <…>; rel="next"}: this request's path and query, with {@code cursor}. */
    public static void linkNextPage(ServerRequest request, ServerResponse response, PageRequest.Cursor cursor) {
        response.header(ResponseHeaders.of(HeaderNames.LINK, "<" + nextPage(request, cursor) + ">; rel=\"next\""));
    }

    private static String nextPage(ServerRequest request, PageRequest.Cursor cursor) {
        StringBuilder uri = pathOnly(request.path().absolute().path()).append('?');
        for (String name : request.query().names()) {
            if (!name.equals("cursor")) {
                for (String value : request.query().all(name)) {
                    uri.append(encoded(name)).append('=').append(encoded(value)).append('&');
                }
            }
        }
        return uri.append("cursor=").append(cursor.encode()).toString();
    }

    /**
     * The decoded path, each character outside {@code [A-Za-z0-9/._~-]} percent-encoded: never the request target
     * as sent, which may be in absolute form ({@code http://user:pw@elsewhere/…}) and would send a paging client,
     * with its token, elsewhere (found by an outside test; {@code NextPageLinkTest}).
     */
    private static StringBuilder pathOnly(String path) {
        StringBuilder uri = new StringBuilder(path.length() + 64);
        for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "/._~-".indexOf(c) >= 0) {
                uri.append(c);
            } else {
                uri.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
        }
        return uri;
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static void send(ServerRequest request, ServerResponse response, Status status, JsonStructure body) {
        response.status(status);
        JsonAnswers.send(request, response, body);
    }
}
