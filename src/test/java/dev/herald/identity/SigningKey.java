package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.security.KeyPair;

import javax.crypto.spec.SecretKeySpec;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * What a token is signed with: the algorithm, the key as a minting script takes it (its spec's {@code "key"}), and
 * the same key as the JDK holds it, for the tokens the test makes by hand.
 *
 * @param alg  the JWS algorithm, {@code none} included
 * @param spec the spec's {@code "key"} member, or null for {@code none}
 * @param key  the JDK key (a secret or a private key), or null for {@code none}
 */
record SigningKey(String alg, JsonObject spec, Key key) {

    /** How a private key is handed to a library (the public half is registered with Herald the same way). */
    enum Format {
        PEM, JWK
    }

    static SigningKey none() {
        return new SigningKey("none", null, null);
    }

    static SigningKey hmac(byte[] secret) {
        return new SigningKey("HS256", Json.createObjectBuilder().add("secret", KeyMaterial.base64url(secret)).build(),
                              new SecretKeySpec(secret, "HmacSHA256"));
    }

    /** A string used as an HMAC secret as is: a public key's PEM, for the algorithm-confusion attack. */
    static SigningKey hmacText(String text) {
        return new SigningKey("HS256", Json.createObjectBuilder().add("text", text).build(),
                              new SecretKeySpec(text.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    }

    static SigningKey of(String alg, KeyPair pair, Format format) {
        JsonObject spec = format == Format.PEM
                ? Json.createObjectBuilder().add("pem", KeyMaterial.privatePem(pair)).build()
                : Json.createObjectBuilder().add("jwk", KeyMaterial.privateJwk(pair)).build();
        return new SigningKey(alg, spec, pair.getPrivate());
    }

    /** A key pair of its own, made for this token: a signature no registered key verifies. */
    static SigningKey fresh(String alg) {
        return "HS256".equals(alg) ? hmac(KeyMaterial.randomSecret()) : of(alg, KeyMaterial.generate(alg), Format.JWK);
    }
}
