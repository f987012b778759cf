package dev.herald.admin;

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

    private static void send(ServerRequest request, ServerResponse response, Status status, JsonStructure body) {
        response.status(status);
        JsonAnswers.send(request, response, body);
    }
}
