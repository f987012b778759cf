package dev.herald.audience;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;
import dev.herald.identity.UserIdentity;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The claims a team pastes to ask "would this user see it?" (docs/api.md, POST
 * /api/v1/admin/notifications/{id}/audience-check): held to the bounds of a user token's claims (docs/identity.md),
 * so that what the check answers is what the feed would do with a token carrying them. Only {@code sub},
 * {@code locale} and {@code attrs} are read; other claims ({@code exp}, {@code aud}, ...) are ignored, as a token's
 * are once it is verified. Each mistake is a 400 naming its path ({@code claims.attrs.plan}).
 */
public final class PastedClaims {

    static final int MAX_SUBJECT = 256;
    static final int MAX_LOCALE = 35;
    static final int MAX_ATTRIBUTES = 50;
    static final int MAX_STRINGS = 50;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    private PastedClaims() {
    }

    /**
     * @param path      the member's name in the request ({@code claims})
     * @param projectId the notification's project: the token's {@code aud}
     */
    public static UserIdentity identity(JsonValue value, String path, String projectId, long now) {
        if (!(value instanceof JsonObject claims)) {
            throw ApiException.validation(path, path + " is required: an object with sub, and locale and attrs if the"
                    + " token carries them");
        }
        String subject = text(claims.get("sub"), path + ".sub", MAX_SUBJECT, true);
        String locale = text(claims.get("locale"), path + ".locale", MAX_LOCALE, false);
        Map<String, Object> attributes = attributes(claims.get("attrs"), path + ".attrs");
        return new UserIdentity(projectId, subject, locale, attributes, now);
    }

    private static String text(JsonValue value, String path, int max, boolean required) {
        if (value == null || value == JsonValue.NULL) {
            if (required) {
                throw ApiException.validation(path, path + " is required");
            }
            return null;
        }
        if (!(value instanceof JsonString text) || text.getString().isEmpty()) {
            throw ApiException.validation(path, path + " must be a non-empty string");
        }
        return atMost(text.getString(), max, path);
    }

    /** In UTF-16 units, as the token's own check counts (identity.TokenClaims), so both refuse the same claims. */
    private static String atMost(String text, int max, String path) {
        if (text.length() > max) {
            throw ApiException.validation(path, path + " is longer than " + max + " characters");
        }
        return text;
    }

    private static Map<String, Object> attributes(JsonValue value, String path) {
        if (value == null || value == JsonValue.NULL) {
            return Map.of();
        }
        if (!(value instanceof JsonObject attrs)) {
            throw ApiException.validation(path, path + " must be an object");
        }
        if (attrs.size() > MAX_ATTRIBUTES) {
            throw ApiException.validation(path, path + " has " + attrs.size() + " members; at most " + MAX_ATTRIBUTES);
        }
        Map<String, Object> attributes = new LinkedHashMap<>();
        attrs.forEach((name, member) -> {
            String memberPath = path + "." + name;
            if (!NAME.matcher(name).matches()) {
                throw ApiException.validation(memberPath, "attrs names are 1 to 64 letters, digits, _, . or -");
            }
            attributes.put(name, attribute(member, memberPath));
        });
        return attributes;
    }

    private static Object attribute(JsonValue value, String path) {
        return switch (value.getValueType()) {
            case STRING -> atMost(((JsonString) value).getString(), MAX_SUBJECT, path);
            case NUMBER -> number((JsonNumber) value);
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case ARRAY -> strings((JsonArray) value, path);
            default -> throw ApiException.validation(path, path + " must be a string, a number, a boolean or an array"
                    + " of strings");
        };
    }

    private static Object number(JsonNumber number) {
        if (number.isIntegral()) {
            try {
                return number.bigDecimalValue().longValueExact();
            } catch (ArithmeticException e) {
                // Beyond a long: a double, as a token's parser gives it.
            }
        }
        return number.doubleValue();
    }

    private static List<String> strings(JsonArray array, String path) {
        if (array.size() > MAX_STRINGS) {
            throw ApiException.validation(path, path + " has " + array.size() + " strings; at most " + MAX_STRINGS);
        }
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonString text)) {
                throw ApiException.validation(path + "[" + i + "]", path + " must hold strings only");
            }
            atMost(text.getString(), MAX_SUBJECT, path + "[" + i + "]");
        }
        return array.getValuesAs(JsonString::getString);
    }
}
