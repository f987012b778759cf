package dev.herald.support;

import java.io.StringReader;

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

    public static JsonArray array(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readArray();
        }
    }
}
