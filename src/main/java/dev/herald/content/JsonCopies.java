package dev.herald.content;

import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * A JSON value with some of its members changed, copied only where one changed: a served document that needs no
 * change is the stored one itself, which is how the feed tells a row in form from one that is not.
 */
final class JsonCopies {

    private JsonCopies() {
    }

    /**
     * @param kept each member's value as kept, the same instance when unchanged, or null to leave the member out
     * @return {@code object} itself when every member is kept as it was
     */
    static JsonObject members(JsonObject object, BiFunction<String, JsonValue, JsonValue> kept) {
        JsonObjectBuilder copy = null;
        for (Map.Entry<String, JsonValue> member : object.entrySet()) {
            JsonValue value = kept.apply(member.getKey(), member.getValue());
            if (value != member.getValue() && copy == null) {
                copy = Json.builders().createObjectBuilder();
                for (Map.Entry<String, JsonValue> before : object.entrySet()) {
                    if (before.getKey().equals(member.getKey())) {
                        break;
                    }
                    copy.add(before.getKey(), before.getValue());
                }
            }
            if (copy != null && value != null) {
                copy.add(member.getKey(), value);
            }
        }
        return copy == null ? object : copy.build();
    }

    /** @return {@code array} itself when every element is kept as it was */
    static JsonArray elements(JsonArray array, UnaryOperator<JsonValue> kept) {
        JsonArrayBuilder copy = null;
        for (int i = 0; i < array.size(); i++) {
            JsonValue value = kept.apply(array.get(i));
            if (value != array.get(i) && copy == null) {
                copy = Json.builders().createArrayBuilder();
                for (int j = 0; j < i; j++) {
                    copy.add(array.get(j));
                }
            }
            if (copy != null) {
                copy.add(value);
            }
        }
        return copy == null ? array : copy.build();
    }
}
