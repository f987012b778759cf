package dev.herald.admin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import dev.herald.api.Json;
import dev.herald.api.JsonAnswers;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonStructure;

/**
 * Successful management API answers: JSON with the right status, written by Helidon's JSON-P media support
 * ({@link JsonAnswers}).
 */
public final class AdminResponses {

    private AdminResponses() {
    }

    public static void ok(ServerRequest request, ServerResponse response, JsonStructure body) {
        send(request, response, Status.OK_200, body);
    }

    public static void created(ServerRequest request, ServerResponse response, String location, JsonStructure body) {
        response.header(HeaderNames.LOCATION, location);
        send(request, response, Status.CREATED_201, body);
    }

    public static void noContent(ServerResponse response) {
        response.status(Status.NO_CONTENT_204).send();
    }

    public static <T> JsonStructure array(List<T> items, Function<T, ? extends JsonStructure> toJson) {
        JsonArrayBuilder array = Json.builders().createArrayBuilder();
        items.forEach(item -> array.add(toJson.apply(item)));
        return array.build();
    }

    /**
     * A page of a list: its items as the JSON array the list always was, and the next page, if any, in a
     * {@code Link: <…>; rel="next"} header (RFC 8288): this request's path and query, with the next cursor.
     */
    public static <T> void page(ServerRequest request, ServerResponse response, Page<T> page,
                                Function<T, ? extends JsonStructure> toJson) {
        page.next().ifPresent(cursor -> response.header(HeaderNames.LINK, "<" + nextPage(request, cursor) + ">; rel=\"next\""));
        ok(request, response, array(page.items(), toJson));
    }

    private static String nextPage(ServerRequest request, PageRequest.Cursor cursor) {
        StringBuilder uri = new StringBuilder(request.path().absolute().rawPath()).append('?');
        for (String name : request.query().names()) {
            if (!name.equals("cursor")) {
                for (String value : request.query().all(name)) {
                    uri.append(encoded(name)).append('=').append(encoded(value)).append('&');
                }
            }
        }
        return uri.append("cursor=").append(cursor.encode()).toString();
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static void send(ServerRequest request, ServerResponse response, Status status, JsonStructure body) {
        response.status(status);
        JsonAnswers.send(request, response, body);
    }
}
