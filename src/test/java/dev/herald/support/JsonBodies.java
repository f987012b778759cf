package dev.herald.support;

import java.io.StringReader;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

/**
 * Reads response bodies in tests.
 */
public final class JsonBodies {

    private JsonBodies() {
    }

    public static JsonObject object(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** The management API's 400: {@code details} names the field and, where there is a fixed set, its values. */
    public static JsonObject validationError(String message, String field, List<String> allowed) {
        var details = Json.createObjectBuilder().add("field", field);
        if (!allowed.isEmpty()) {
            details.add("allowed", Json.createArrayBuilder(allowed));
        }
        return Json.createObjectBuilder().add("error", message).add("code", "VALIDATION_ERROR").add("details", details)
                .build();
    }

    public static JsonArray array(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readArray();
        }
    }
}
