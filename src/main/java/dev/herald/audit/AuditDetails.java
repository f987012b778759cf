package dev.herald.audit;

import java.util.Set;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * What an update changed, as the audit log keeps it: each member whose value differs, from and to.
 */
public final class AuditDetails {

    private AuditDetails() {
    }

    /** The members of {@code after} that differ from {@code before}, but those {@code ignored}. */
    public static JsonObject changes(JsonObject before, JsonObject after, Set<String> ignored) {
        JsonObjectBuilder changes = Json.builders().createObjectBuilder();
        for (String member : after.keySet()) {
            JsonValue from = before.getOrDefault(member, JsonValue.NULL);
            JsonValue to = after.get(member);
            if (!ignored.contains(member) && !from.equals(to)) {
                changes.add(member, Json.builders().createObjectBuilder().add("from", from).add("to", to));
            }
        }
        return changes.build();
    }
}
