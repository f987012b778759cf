package dev.herald.audit;

import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What an update changed, as the audit log keeps it: each member whose value differs, from and to; for a text a
 * reader reads (a message), the words removed and added too ({@link WordDiff}), which say what changed where two
 * excerpts of a long text cannot. No member differs: no change, and no line ({@link AuditLog#recordChange}).
 */
public final class AuditDetails {

    private AuditDetails() {
    }

    /** The members of {@code after} that differ from {@code before}, but those {@code ignored}. */
    public static JsonObject changes(JsonObject before, JsonObject after, Set<String> ignored) {
        return changes(before, after, ignored, Map.of());
    }

    /**
     * The same, and for each member of {@code wordsOf} that changed, {@code "diff"}: the words removed and added, of
     * the text as {@code wordsOf} reads it (a message's words, not its markup); {@code "diffCut": true} when runs were
     * left out for the bound.
     */
    public static JsonObject changes(JsonObject before, JsonObject after, Set<String> ignored,
                                     Map<String, UnaryOperator<String>> wordsOf) {
        JsonObjectBuilder changes = Json.builders().createObjectBuilder();
        for (String member : after.keySet()) {
            JsonValue from = before.getOrDefault(member, JsonValue.NULL);
            JsonValue to = after.get(member);
            if (ignored.contains(member) || from.equals(to)) {
                continue;
            }
            JsonObjectBuilder change = Json.builders().createObjectBuilder().add("from", from).add("to", to);
            UnaryOperator<String> words = wordsOf.get(member);
            if (words != null) {
                WordDiff.Kept diff = WordDiff.kept(words.apply(text(from)), words.apply(text(to)));
                change.add("diff", diff.runs());
                if (diff.cut()) {
                    change.add("diffCut", true);
                }
            }
            changes.add(member, change);
        }
        return changes.build();
    }

    private static String text(JsonValue value) {
        return value instanceof JsonString text ? text.getString() : "";
    }
}
