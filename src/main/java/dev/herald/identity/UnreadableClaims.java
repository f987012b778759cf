package dev.herald.identity;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.herald.api.Json;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.JsonValue.ValueType;

/**
 * Why Nimbus could not read claims that are UTF-8 JSON within {@link TokenPart#MAX_DEPTH}, naming the claim: it
 * fails on a registered claim (RFC 7519, 4.1) of another type than the RFC's and on a number beyond the range of a
 * double, and its failure names neither. Found by an outside review: {@code "iss":1} and a claim Herald ignores of
 * {@code 1E309} were both told "exp, nbf and iat must be numbers".
 */
final class UnreadableClaims {

    /** Past this, a claim's path is cut: it is the client's text. */
    private static final int LONGEST_PATH = 64;
    /** Each registered claim, and the types Nimbus reads it as (null is as absent to it). */
    private static final Map<String, Set<ValueType>> REGISTERED = Map.of(
            "iss", Set.of(ValueType.STRING), "jti", Set.of(ValueType.STRING),
            // Nimbus reads a number as its digits; TokenClaims refuses it after.
            "sub", Set.of(ValueType.STRING, ValueType.NUMBER),
            "aud", Set.of(ValueType.STRING, ValueType.ARRAY),
            "exp", Set.of(ValueType.NUMBER), "nbf", Set.of(ValueType.NUMBER), "iat", Set.of(ValueType.NUMBER));

    private UnreadableClaims() {
    }

    /** @param payload the claims' bytes: UTF-8, one JSON object by its structure, within the depth */
    static String why(byte[] payload) {
        Optional<JsonObject> claims = Json.parseObject(payload);
        if (claims.isEmpty()) {
            return "The token's claims must be one JSON object naming each member once";
        }
        Optional<String> beyond = beyondDouble("", claims.get());
        if (beyond.isPresent()) {
            return cut(beyond.get()) + " is a number beyond the range of a double";
        }
        return REGISTERED.keySet().stream().sorted().filter(claim -> !isReadable(claim, claims.get().get(claim)))
                .findFirst().map(UnreadableClaims::expected)
                .orElse("The token's claims are not JWT claims: exp, nbf and iat must be numbers of seconds since the "
                                + "epoch, iss, sub and jti strings, aud a string or a list of strings");
    }

    /** The path of the first number that is infinite as a double, {@code attrs.seats} or {@code list[2]}. */
    private static Optional<String> beyondDouble(String path, JsonValue value) {
        return switch (value.getValueType()) {
            case NUMBER -> Double.isInfinite(((JsonNumber) value).bigDecimalValue().doubleValue())
                    ? Optional.of(path) : Optional.empty();
            case OBJECT -> value.asJsonObject().entrySet().stream()
                    .map(member -> beyondDouble(path.isEmpty() ? member.getKey() : path + "." + member.getKey(),
                                                member.getValue()))
                    .flatMap(Optional::stream).findFirst();
            case ARRAY -> {
                List<JsonValue> items = value.asJsonArray();
                for (int i = 0; i < items.size(); i++) {
                    Optional<String> found = beyondDouble(path + "[" + i + "]", items.get(i));
                    if (found.isPresent()) {
                        yield found;
                    }
                }
                yield Optional.empty();
            }
            default -> Optional.empty();
        };
    }

    private static boolean isReadable(String claim, JsonValue value) {
        if (value == null || value.getValueType() == ValueType.NULL) {
            return true;
        }
        if (!REGISTERED.get(claim).contains(value.getValueType())) {
            return false;
        }
        return value.getValueType() != ValueType.ARRAY
                || value.asJsonArray().stream().allMatch(JsonString.class::isInstance);
    }

    private static String expected(String claim) {
        return switch (claim) {
            case "exp", "nbf", "iat" -> claim + " must be a number of seconds since the epoch";
            case "aud" -> "aud must be a string or an array of strings (RFC 7519)";
            default -> claim + " must be a string (RFC 7519)";
        };
    }

    private static String cut(String path) {
        return path.length() <= LONGEST_PATH ? path
                : path.substring(0, path.offsetByCodePoints(0, path.codePointCount(0, LONGEST_PATH))) + "…";
    }
}
