package dev.herald.identity;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;

import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * Key pairs made by the test with the JDK (as a customer's backend would make its own), written as PEM and JWK for
 * Herald (the public half) and for the minting libraries (the private half).
 */
final class KeyMaterial {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    /** X.509 SubjectPublicKeyInfo of an Ed25519 key: 12 bytes of header, then the 32-byte key. */
    private static final int ED25519_SPKI_LENGTH = 44;
    /** PKCS#8 of an Ed25519 key as the JDK writes it: 16 bytes of header, then the 32-byte seed. */
    private static final int ED25519_PKCS8_LENGTH = 48;

    private KeyMaterial() {
    }

    static KeyPair generate(String alg) {
        try {
            return switch (alg) {
                case "ES256" -> {
                    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
                    generator.initialize(new ECGenParameterSpec("secp256r1"));
                    yield generator.generateKeyPair();
                }
                case "EdDSA" -> KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                default -> throw new IllegalArgumentException("no key pair for " + alg);
            };
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("P-256 and Ed25519 are part of every JDK", e);
        }
    }

    static byte[] randomSecret() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return secret;
    }

    static String base64url(byte[] bytes) {
        return BASE64URL.encodeToString(bytes);
    }

    static String publicPem(KeyPair pair) {
        return pem("PUBLIC KEY", pair.getPublic());
    }

    static String privatePem(KeyPair pair) {
        return pem("PRIVATE KEY", pair.getPrivate());
    }

    static JsonObject publicJwk(KeyPair pair) {
        if (pair.getPublic() instanceof ECPublicKey ec) {
            return Json.createObjectBuilder().add("kty", "EC").add("crv", "P-256")
                    .add("x", coordinate(ec.getW().getAffineX())).add("y", coordinate(ec.getW().getAffineY())).build();
        }
        return Json.createObjectBuilder().add("kty", "OKP").add("crv", "Ed25519")
                .add("x", base64url(tail(pair.getPublic().getEncoded(), ED25519_SPKI_LENGTH))).build();
    }

    static JsonObject privateJwk(KeyPair pair) {
        String d = pair.getPrivate() instanceof ECPrivateKey ec
                ? coordinate(ec.getS())
                : base64url(tail(pair.getPrivate().getEncoded(), ED25519_PKCS8_LENGTH));
        return Json.createObjectBuilder(publicJwk(pair)).add("d", d).build();
    }

    private static String pem(String type, Key key) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded());
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    /** A P-256 number as JWK writes it: 32 bytes, big-endian, unsigned. */
    private static String coordinate(BigInteger value) {
        byte[] bytes = value.toByteArray();
        byte[] fixed = new byte[32];
        int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, fixed, 32 - length, length);
        return base64url(fixed);
    }

    private static byte[] tail(byte[] encoded, int expectedLength) {
        if (encoded.length != expectedLength) {
            throw new IllegalStateException("an Ed25519 encoding of " + encoded.length + " bytes, not " + expectedLength);
        }
        return Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length);
    }
}
