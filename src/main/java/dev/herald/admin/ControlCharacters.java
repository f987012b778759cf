package dev.herald.admin;

import java.util.Locale;
import java.util.Map;

import dev.herald.api.ApiException;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Control characters in what the management API is sent (docs/api.md#bad-input): refused, in every string of a
 * body, at any depth (a name, a message, a rich-text document's text, a URL), but a tab, a line feed, and a carriage
 * return before a line feed (a Windows line break: what a pasted text and an HTML form send).
 *
 * <p>They are no text anyone writes, and they cost: each is six bytes once JSON-escaped (a message of 32,000 U+0001
 * was 192 KB in every answer and audit line that held it), lenient parsers skip them before a document hidden behind
 * them, and a lone carriage return rewrites a terminal's line. Rows stored before are still read and served.
 */
final class ControlCharacters {

    private static final String ALLOWED = "tab, line feed, and carriage return before a line feed are the only ones"
            + " allowed";

    private ControlCharacters() {
    }

    /** @throws ApiException 400 naming the first string, by its path in the body, that holds one */
    static void refuseIn(JsonObject body) {
        refuseIn(body, "");
    }

    /**
     * The same for a body that is the object at {@code path} of a notional whole (a translation's route body is
     * {@code translations.fr} of the notification's): errors name its strings by their whole path.
     */
    static void refuseIn(JsonObject body, String path) {
        refuseIn((JsonValue) body, path);
    }

    /** Where the first refused control character is, or -1. */
    static int firstRefused(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.getType(c) == Character.CONTROL && c != '\t' && c != '\n'
                    && !(c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n')) {
                return i;
            }
        }
        return -1;
    }

    private static void refuseIn(JsonValue value, String path) {
        switch (value) {
            case JsonString text -> refuseIn(text.getString(), path);
            case JsonObject object -> {
                for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                    if (firstRefused(member.getKey()) >= 0) {
                        // The name itself is not echoed: it is what is refused.
                        throw ApiException.validation(path.isEmpty() ? "body" : path, (path.isEmpty() ? "the body"
                                : path) + " has a member whose name holds a control character: " + ALLOWED);
                    }
                    refuseIn(member.getValue(), path.isEmpty() ? member.getKey() : path + "." + member.getKey());
                }
            }
            case JsonArray array -> {
                for (int i = 0; i < array.size(); i++) {
                    refuseIn(array.get(i), path + "[" + i + "]");
                }
            }
            default -> {
            }
        }
    }

    private static void refuseIn(String text, String path) {
        int at = firstRefused(text);
        if (at >= 0) {
            throw ApiException.validation(path, String.format(Locale.ROOT, "%s holds a control character, U+%04X at"
                    + " character %,d: %s", path, (int) text.charAt(at), text.codePointCount(0, at) + 1, ALLOWED));
        }
    }
}
