package dev.herald.identity;

import java.util.Optional;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What Herald takes in a token's header (docs/api.md, User tokens), checked on the header's JSON as sent, before
 * Nimbus reads it: Nimbus drops a member that is null ({@code "crit":null} was read as no crit), and it applies
 * {@code "b64":false} without crit (RFC 7797: the signature then covers the claims' raw bytes), which Herald takes
 * in no form.
 */
final class TokenHeader {

    private TokenHeader() {
    }

    /**
     * @param json the header's bytes, one JSON object by its structure (a token's)
     * @return why the header is refused (USER_TOKEN_MALFORMED); empty when Nimbus may read it
     */
    static Optional<UserTokenErrors.Refused> refusal(byte[] json) {
        Optional<UserTokenErrors.Refused> notText = TokenPart.HEADER.refusal(json);
        if (notText.isPresent()) {
            return notText;
        }
        Optional<JsonObject> members = Json.parseObject(json);
        if (members.isEmpty()) {
            return malformed("The token's header must be one JSON object naming each member once");
        }
        JsonObject header = members.get();
        if (header.containsKey("crit")) {
            return malformed(critical(header.get("crit")));
        }
        if (header.containsKey("b64")) {
            return malformed("The token's header has b64: Herald takes no unencoded payload (RFC 7797), whatever b64 "
                                     + "says; sign without b64");
        }
        return Optional.empty();
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

    private static Optional<UserTokenErrors.Refused> malformed(String reason) {
        return Optional.of(UserTokenErrors.MALFORMED.refused(reason));
    }
}
