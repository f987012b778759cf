package dev.herald.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Checks a JSON value against a schema of an OpenAPI 3.1 document: the part of JSON Schema the document uses
 * ({@code $ref}, {@code type}, {@code const}, {@code enum}, {@code oneOf}, {@code properties}, {@code required},
 * {@code additionalProperties}, {@code items}, {@code maxItems}, {@code minimum}, {@code minLength},
 * {@code maxLength}, {@code pattern}). A keyword it does not know fails the check, so the document cannot drift
 * into what nothing checks.
 */
public final class JsonSchemaCheck {

    private static final List<String> KNOWN = List.of("$ref", "type", "const", "enum", "oneOf", "properties",
            "required", "additionalProperties", "items", "maxItems", "minimum", "minLength", "maxLength", "pattern",
            "format", "description");

    private final JsonObject document;

    public JsonSchemaCheck(JsonObject document) {
        this.document = document;
    }

    /** What is wrong with the value, by JSON pointer; empty when it matches. */
    public List<String> problems(JsonValue value, JsonObject schema) {
        List<String> problems = new ArrayList<>();
        check(value, schema, "", problems);
        return problems;
    }

    private void check(JsonValue value, JsonObject schema, String at, List<String> problems) {
        for (String keyword : schema.keySet()) {
            if (!KNOWN.contains(keyword)) {
                problems.add(at + ": the check does not know the keyword " + keyword);
            }
        }
        if (schema.containsKey("$ref")) {
            check(value, resolve(schema.getString("$ref")), at, problems);
            return;
        }
        if (schema.containsKey("oneOf")) {
            long matching = schema.getJsonArray("oneOf").stream()
                    .filter(option -> problems(value, option.asJsonObject()).isEmpty())
                    .count();
            if (matching != 1) {
                problems.add(at + ": matches " + matching + " of the oneOf options, not exactly one: " + value);
            }
        }
        if (schema.containsKey("type") && !typeMatches(value, schema.get("type"))) {
            problems.add(at + ": " + value.getValueType() + " is not of type " + schema.get("type"));
            return;
        }
        if (schema.containsKey("const") && !schema.get("const").equals(value)) {
            problems.add(at + ": " + value + " is not " + schema.get("const"));
        }
        if (schema.containsKey("enum") && !schema.getJsonArray("enum").contains(value)) {
            problems.add(at + ": " + value + " is not one of " + schema.get("enum"));
        }
        switch (value.getValueType()) {
            case OBJECT -> checkObject(value.asJsonObject(), schema, at, problems);
            case ARRAY -> checkArray((JsonArray) value, schema, at, problems);
            case STRING -> checkString(((JsonString) value).getString(), schema, at, problems);
            case NUMBER -> {
                if (schema.containsKey("minimum")
                        && ((JsonNumber) value).doubleValue() < schema.getJsonNumber("minimum").doubleValue()) {
                    problems.add(at + ": " + value + " is below " + schema.get("minimum"));
                }
            }
            default -> {
            }
        }
    }

    private void checkObject(JsonObject object, JsonObject schema, String at, List<String> problems) {
        JsonObject properties = schema.containsKey("properties") ? schema.getJsonObject("properties") : JsonValue.EMPTY_JSON_OBJECT;
        if (schema.containsKey("required")) {
            schema.getJsonArray("required").getValuesAs(JsonString.class).forEach(required -> {
                if (!object.containsKey(required.getString())) {
                    problems.add(at + ": " + required.getString() + " is missing");
                }
            });
        }
        for (Map.Entry<String, JsonValue> field : object.entrySet()) {
            String path = at + "/" + field.getKey();
            if (properties.containsKey(field.getKey())) {
                check(field.getValue(), properties.getJsonObject(field.getKey()), path, problems);
            } else if (schema.get("additionalProperties") == JsonValue.FALSE) {
                problems.add(path + ": not described");
            } else if (schema.get("additionalProperties") instanceof JsonObject additional) {
                check(field.getValue(), additional, path, problems);
            }
        }
    }

    private void checkArray(JsonArray array, JsonObject schema, String at, List<String> problems) {
        if (schema.containsKey("maxItems") && array.size() > schema.getInt("maxItems")) {
            problems.add(at + ": more than " + schema.getInt("maxItems") + " items");
        }
        if (schema.containsKey("items")) {
            for (int i = 0; i < array.size(); i++) {
                check(array.get(i), schema.getJsonObject("items"), at + "/" + i, problems);
            }
        }
    }

    private static void checkString(String text, JsonObject schema, String at, List<String> problems) {
        if (schema.containsKey("minLength") && text.codePointCount(0, text.length()) < schema.getInt("minLength")) {
            problems.add(at + ": shorter than " + schema.getInt("minLength"));
        }
        if (schema.containsKey("maxLength") && text.codePointCount(0, text.length()) > schema.getInt("maxLength")) {
            problems.add(at + ": longer than " + schema.getInt("maxLength"));
        }
        // JSON Schema patterns are searched for, not matched whole: anchors in the pattern say where.
        if (schema.containsKey("pattern") && !Pattern.compile(schema.getString("pattern")).matcher(text).find()) {
            problems.add(at + ": " + text + " does not match " + schema.getString("pattern"));
        }
    }

    private static boolean typeMatches(JsonValue value, JsonValue type) {
        if (type instanceof JsonArray types) {
            return types.stream().anyMatch(one -> typeMatches(value, one));
        }
        String name = ((JsonString) type).getString();
        return switch (value.getValueType()) {
            case OBJECT -> name.equals("object");
            case ARRAY -> name.equals("array");
            case STRING -> name.equals("string");
            case NUMBER -> name.equals("number") || name.equals("integer") && ((JsonNumber) value).isIntegral();
            case TRUE, FALSE -> name.equals("boolean");
            case NULL -> name.equals("null");
        };
    }

    private JsonObject resolve(String reference) {
        if (!reference.startsWith("#/")) {
            throw new IllegalArgumentException("Only local references: " + reference);
        }
        JsonValue target = document;
        for (String part : reference.substring(2).split("/")) {
            target = target.asJsonObject().get(part);
            if (target == null) {
                throw new IllegalArgumentException("Unresolved reference " + reference);
            }
        }
        return target.asJsonObject();
    }
}
