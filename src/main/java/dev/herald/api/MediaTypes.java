package dev.herald.api;

import java.util.List;
import java.util.Locale;

/**
 * Whether a request's {@code Content-Type} is one its route reads: one of the route's media types, in any case,
 * with no charset or {@code charset=utf-8} (quoted or not). Bodies are read as strict UTF-8, as JSON is
 * (RFC 8259 §8.1): a body that says it is in another charset would be misread, so it is refused. Other parameters
 * are ignored; a malformed one is refused.
 */
public final class MediaTypes {

    private MediaTypes() {
    }

    /** @param mediaTypes lower case, without parameters */
    public static boolean isOneOf(String contentType, List<String> mediaTypes) {
        // Trailing empty parts kept: ";" alone is two empty parts, not none.
        String[] parts = contentType.split(";", -1);
        if (!mediaTypes.contains(parts[0].strip().toLowerCase(Locale.ROOT))) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            if (parameter.isEmpty()) {
                continue;
            }
            int equals = parameter.indexOf('=');
            if (equals < 1) {
                return false;
            }
            String name = parameter.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            String value = unquote(parameter.substring(equals + 1).strip()).toLowerCase(Locale.ROOT);
            if (name.equals("charset") && !value.equals("utf-8")) {
                return false;
            }
        }
        return true;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
