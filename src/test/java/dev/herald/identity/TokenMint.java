package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Tokens as a customer's backend makes them: HS256 and ES256 with Nimbus, Ed25519 with the JDK (the way Herald
 * verifies it is not how it is signed here), and raw ones for what no library makes on purpose.
 */
public final class TokenMint {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private TokenMint() {
    }

    public static String hs256(String kid, byte[] secret, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(), claims);
            jwt.sign(new MACSigner(secret));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static String es256(String kid, KeyPair pair, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(kid).build(), claims);
            jwt.sign(new ECDSASigner((ECPrivateKey) pair.getPrivate()));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static String ed25519(String kid, KeyPair pair, JWTClaimsSet claims) {
        String header = "{\"alg\":\"EdDSA\",\"kid\":\"" + kid + "\"}";
        return signedRaw(header, claims.toString(), pair.getPrivate());
    }

    /** A header and claims as given, signed with Ed25519: for headers no library writes. */
    static String signedRaw(String header, String claims, PrivateKey ed25519) {
        String input = encode(header) + "." + encode(claims);
        try {
            Signature signature = Signature.getInstance("Ed25519");
            signature.initSign(ed25519);
            signature.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + BASE64URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String encode(String json) {
        return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static KeyPair p256() {
        return pair("EC", new ECGenParameterSpec("secp256r1"));
    }

    static KeyPair p384() {
        return pair("EC", new ECGenParameterSpec("secp384r1"));
    }

    static KeyPair ed25519Pair() {
        return pair("Ed25519", null);
    }

    static KeyPair rsa() {
        return pair("RSA", null);
    }

    private static KeyPair pair(String algorithm, ECGenParameterSpec spec) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            if (spec != null) {
                generator.initialize(spec);
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String jwk(KeyPair p256) {
        return new ECKey.Builder(Curve.P_256, (ECPublicKey) p256.getPublic()).build().toJSONString();
    }

    /** An Ed25519 public JWK: its x is the last 32 bytes of the X.509 encoding. */
    static String okpJwk(KeyPair ed25519) {
        byte[] der = ed25519.getPublic().getEncoded();
        return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\""
                + BASE64URL.encodeToString(Arrays.copyOfRange(der, der.length - 32, der.length)) + "\"}";
    }

    static String pem(KeyPair pair) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'})
                .encodeToString(pair.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }

    /** Claims of a valid token for {@code project} at {@code nowSeconds}, lasting an hour. */
    public static JWTClaimsSet.Builder claims(String project, long nowSeconds) {
        return new JWTClaimsSet.Builder()
                .subject("user-42")
                .audience(project)
                .issueTime(new java.util.Date(nowSeconds * 1000))
                .expirationTime(new java.util.Date((nowSeconds + 3600) * 1000))
                .claim("locale", "fr-CA")
                .claim("attrs", Map.of("plan", "pro", "seats", 12, "beta", true, "tags", java.util.List.of("a", "b")));
    }

    /** Any EC key's public JWK (P-384 here: the wrong curve). */
    static String jwkOf(KeyPair ec) {
        ECPublicKey key = (ECPublicKey) ec.getPublic();
        return new ECKey.Builder(Curve.forECParameterSpec(key.getParams()), key).build().toJSONString();
    }

    static String rsaJwk(KeyPair rsa) {
        return new com.nimbusds.jose.jwk.RSAKey.Builder((java.security.interfaces.RSAPublicKey) rsa.getPublic()).build()
                .toJSONString();
    }

    /** A P-256 JWK with its private part: never to be registered. */
    static String privateJwk(KeyPair p256) {
        return new ECKey.Builder(Curve.P_256, (ECPublicKey) p256.getPublic()).privateKey(p256.getPrivate()).build()
                .toJSONString();
    }
}
