package dev.herald.identity;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.List;

import javax.crypto.Mac;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * Compact JWS made with the JDK alone, for the few defects a library refuses to make (docs/identity.md
 * #interoperability lists them): the same header, claims and key the library was asked to sign.
 */
final class HandMadeTokens {

    /** Bytes that are no UTF-8 in any text: FF, FE, and a surrogate encoded alone (ED A0 80), as CESU-8 writes it. */
    static final List<byte[]> NOT_UTF8 = List.of(new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFE},
                                                 new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80});

    private HandMadeTokens() {
    }

    static String sign(SigningKey signer, JsonObject header, JsonObject claims) {
        JsonObject protectedHeader = Json.createObjectBuilder().add("alg", signer.alg()).addAll(
                Json.createObjectBuilder(header)).build();
        String input = KeyMaterial.base64url(utf8(protectedHeader.toString())) + "."
                + KeyMaterial.base64url(utf8(claims.toString()));
        return input + "." + KeyMaterial.base64url(signature(signer, utf8(input)));
    }

    /** Header and claims as JSON text, sent as written: what a JSON library would not write (a member twice). */
    static String signAsWritten(SigningKey signer, String header, String claims) {
        return signBytes(signer, utf8(header), utf8(claims));
    }

    /** Header and claims as bytes, sent as they are: what no JSON library writes (bytes that are no UTF-8). */
    static String signBytes(SigningKey signer, byte[] header, byte[] claims) {
        String input = KeyMaterial.base64url(header) + "." + KeyMaterial.base64url(claims);
        return input + "." + KeyMaterial.base64url(signature(signer, utf8(input)));
    }

    /**
     * A JWS with an unencoded payload (RFC 7797, b64 false): signed over the header's base64url, a dot and the claims
     * as they are, the claims sent in base64url all the same.
     */
    static String signUnencoded(SigningKey signer, String header, String claims) {
        String input = KeyMaterial.base64url(utf8(header)) + "." + KeyMaterial.base64url(utf8(claims));
        String signed = KeyMaterial.base64url(utf8(header)) + "." + claims;
        return input + "." + KeyMaterial.base64url(signature(signer, utf8(signed)));
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            bytes.writeBytes(part);
        }
        return bytes.toByteArray();
    }

    private static byte[] signature(SigningKey signer, byte[] input) {
        try {
            switch (signer.alg()) {
                case "none":
                    return new byte[0];
                case "HS256": {
                    Mac mac = Mac.getInstance("HmacSHA256");
                    mac.init(signer.key());
                    return mac.doFinal(input);
                }
                case "ES256":
                    // JWS wants R and S side by side (RFC 7518 3.4), not the DER sequence of Java's default.
                    return sign("SHA256withECDSAinP1363Format", signer, input);
                case "EdDSA":
                    return sign("Ed25519", signer, input);
                default:
                    throw new IllegalArgumentException("no hand-made " + signer.alg());
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sign(String algorithm, SigningKey signer, byte[] input) throws GeneralSecurityException {
        Signature signature = Signature.getInstance(algorithm);
        signature.initSign((PrivateKey) signer.key());
        signature.update(input);
        return signature.sign();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
