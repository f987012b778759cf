package dev.herald.identity;

import dev.herald.support.TokenLibrary;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * One token to mint: what signs it, its header members besides {@code alg}, its claims exactly.
 */
record TokenSpec(SigningKey signer, JsonObject header, JsonObject claims) {

    /** The spec a minting script of src/test/interop reads. */
    JsonObject toJson(TokenLibrary library) {
        JsonObjectBuilder spec = Json.createObjectBuilder().add("library", library.specName()).add("alg", signer.alg())
                .add("header", header).add("claims", claims);
        if (signer.spec() != null) {
            spec.add("key", signer.spec());
        }
        return spec.build();
    }

    String handMade() {
        return HandMadeTokens.sign(signer, header, claims);
    }
}
