package dev.herald.identity;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.JsonValue.ValueType;

/**
 * Why Nimbus could not read claims that are UTF-8 JSON within {@link TokenPart#MAX_DEPTH}, naming the claim: it
 * fails on a registered claim (RFC 7519, 4.1) of another type than the RFC's and on a number beyond the range of a
 * double, and its failure names neither. Found by an outside review: {@code "iss":1} and a claim Herald ignores of
 * {@code 1E309} were both told "exp, nbf and iat must be numbers". What Herald's strict parser refuses too, and a
 * number Nimbus alone does not read, {@link TokenPart#unreadable} names.
 */
final class UnreadableClaims {

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
    static UserTokenErrors.Refused why(byte[] payload) {
        Optional<JsonObject> claims = Json.parseObject(payload);
        if (claims.isEmpty()) {
            return TokenPart.CLAIMS.unparsed(payload);
        }
        // What the strict parser reads, and Nimbus does not: a number beyond a double, or longer than it reads.
        Optional<UserTokenErrors.Refused> number = TokenPart.CLAIMS.unreadable(payload);
        if (number.isPresent()) {
            return number.get();
        }
        return UserTokenErrors.CLAIMS.refused(REGISTERED.keySet().stream().sorted()
                .filter(claim -> !isReadable(claim, claims.get().get(claim))).findFirst()
                .map(UnreadableClaims::expected)
                .orElse("The token's claims are not JWT claims: exp, nbf and iat must be numbers of seconds since the "
                                + "epoch, iss, sub and jti strings, aud a string or a list of strings"));
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
}
