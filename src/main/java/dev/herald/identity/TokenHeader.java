package dev.herald.identity;

import java.util.List;
import java.util.Optional;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What Herald takes in a token's header (docs/api.md, User tokens), checked on the header's JSON as sent, before
 * Nimbus reads it: Nimbus drops a member that is null ({@code "crit":null} was read as no crit, {@code "kid":null} as
 * no kid), reads an empty alg as an algorithm, and applies {@code "b64":false} without crit (RFC 7797: the signature
 * then covers the claims' raw bytes), which Herald takes in no form; and where it fails, it names no member.
 */
final class TokenHeader {

    static final String UNSIGNED = "Unsigned tokens (alg none) are refused";
    /** Header members that carry a key, or where to find one (RFC 7515, 4.1). */
    private static final List<String> KEY_MEMBERS = List.of("jwk", "jku", "x5c", "x5u");
    /**
     * Registered members whose value is a string (RFC 7515, 4.1), which Herald does not read: null Nimbus reads as
     * absent, and another kind of value made it fail.
     */
    private static final List<String> STRING_MEMBERS = List.of("typ", "cty", "x5t", "x5t#S256");

    private TokenHeader() {
    }

    /**
     * @param json the header's bytes, a JSON object by its structure (a token's, {@link TokenPart#isAnObject})
     * @return why the header is refused; empty when Nimbus may read it
     */
    static Optional<UserTokenErrors.Refused> refusal(byte[] json) {
        Optional<UserTokenErrors.Refused> notText = TokenPart.HEADER.refusal(json);
        if (notText.isPresent()) {
            return notText;
        }
        Optional<JsonObject> members = Json.parseObject(json);
        if (members.isEmpty()) {
            return Optional.of(TokenPart.HEADER.unparsed(json));
        }
        JsonObject header = members.get();
        JsonValue alg = header.getOrDefault("alg", JsonValue.NULL);
        // Nimbus read "" as an algorithm, refused later as "the token says alg " (an outside review).
        if (isNull(alg) || alg instanceof JsonString text && text.getString().isEmpty()) {
            return malformed("The token's header names no alg: say which algorithm signed it");
        }
        if (!(alg instanceof JsonString name)) {
            return malformed("The token's alg must be a string: the algorithm that signed it");
        }
        if (name.getString().equals("none")) {
            return Optional.of(UserTokenErrors.ALGORITHM.refused(UNSIGNED));
        }
        if (header.containsKey("enc")) {
            return malformed("The token's header has enc: encrypted tokens (JWE) are not taken; sign the token (JWS)");
        }
        if (header.containsKey("kid") && !(header.get("kid") instanceof JsonString)) {
            return malformed("The token's kid must be a string: the id Herald gave its key");
        }
        if (header.containsKey("crit")) {
            return malformed(critical(header.get("crit")));
        }
        if (header.containsKey("b64")) {
            return malformed("The token's header has b64: Herald takes no unencoded payload (RFC 7797), whatever b64 "
                                     + "says; sign without b64");
        }
        return STRING_MEMBERS.stream()
                .filter(member -> header.containsKey(member) && !isNull(header.get(member))
                        && !(header.get(member) instanceof JsonString))
                .findFirst().flatMap(member -> malformed("The token's " + member + " must be a string (RFC 7515)"));
    }

    /**
     * Why Nimbus could not read a header that {@link #refusal} took.
     *
     * @param json           the header's bytes
     * @param header         the header as Herald's strict parser read them
     * @param signatureEmpty whether the token's third part is empty
     */
    static UserTokenErrors.Refused unreadable(byte[] json, JsonObject header, boolean signatureEmpty) {
        if (signatureEmpty) {
            return UserTokenErrors.MALFORMED.refused("The token has no signature: its third part is empty");
        }
        // A number beyond a double (1E309), which Nimbus fails on naming nothing: the member is named.
        Optional<UserTokenErrors.Refused> number = TokenPart.HEADER.unreadable(json);
        if (number.isPresent()) {
            return number.get();
        }
        List<String> keys = KEY_MEMBERS.stream().filter(header::containsKey).toList();
        if (!keys.isEmpty()) {
            return UserTokenErrors.MALFORMED.refused("The token's header carries a key or a key's address ("
                    + String.join(", ", keys) + ") that is not one: Herald verifies with the key its kid names and "
                    + "reads no other; remove it");
        }
        return UserTokenErrors.MALFORMED.refused("The token's header is not a JWS header Herald can read (RFC 7515)");
    }

    private static String critical(JsonValue crit) {
        if (!(crit instanceof JsonArray names) || !names.stream().allMatch(JsonString.class::isInstance)) {
            return "The token's crit must be an array of header parameter names (RFC 7515); sign without crit";
        }
        if (names.isEmpty()) {
            return "The token's header has an empty crit, which RFC 7515 forbids: sign without crit";
        }
        // Nimbus refuses them at verification, which said the signature did not verify.
        return "The token's header lists crit " + names.getValuesAs(JsonString::getString) + ": Herald understands no "
                + "critical header parameter (b64 among them); sign without crit";
    }

    private static boolean isNull(JsonValue value) {
        return value.getValueType() == JsonValue.ValueType.NULL;
    }

    private static Optional<UserTokenErrors.Refused> malformed(String reason) {
        return Optional.of(UserTokenErrors.MALFORMED.refused(reason));
    }
}
