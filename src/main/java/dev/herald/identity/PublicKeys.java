package dev.herald.identity;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.spec.SecretKeySpec;

import dev.herald.api.ApiException;
import dev.herald.api.Json;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.util.Base64URL;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

/**
 * The public keys customers register (a JWK object or a PEM "PUBLIC KEY"), checked and kept as a minimal public JWK,
 * and the JDK keys verification uses. Ed25519 goes through the JDK, not Nimbus: Nimbus' OctetKeyPair cannot make a
 * JDK public key, and its Ed25519 verifier needs Tink, which jlink cannot link (docs/modules.md).
 */
final class PublicKeys {

    static final String FIELD = "publicKey";
    /** X.509 SubjectPublicKeyInfo of an Ed25519 key up to its 32 bytes (RFC 8410): the DER before the key itself. */
    private static final byte[] ED25519_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    private static final int ED25519_BYTES = 32;
    private static final int COORDINATE_BYTES = 32;
    private static final int COORDINATE_CHARS = 43;
    private static final Set<String> EC_MEMBERS = Set.of("kty", "crv", "x", "y", "kid", "use", "alg", "key_ops");
    private static final Set<String> OKP_MEMBERS = Set.of("kty", "crv", "x", "kid", "use", "alg", "key_ops");
    private static final Pattern PEM = Pattern.compile(
            "\\s*-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\\s]+)-----END PUBLIC KEY-----\\s*");

    /** Stands for a stored key that must verify nothing: no verifier is made for it. */
    private static final Key UNUSABLE = new Unusable();

    private PublicKeys() {
    }

    /** The HS256 key from its stored base64url form. */
    static Key hmacKey(String secret) {
        return new SecretKeySpec(Base64.getUrlDecoder().decode(secret), "HmacSHA256");
    }

    /** The JDK key of a stored JWK (written by {@link #fromJwkText} or {@link #fromPem}, so well formed). */
    static Key fromJwk(TokenAlgorithm algorithm, String jwk) {
        try {
            JWK parsed = JWK.parse(jwk);
            if (algorithm == TokenAlgorithm.ES256) {
                return parsed.toECKey().toECPublicKey();
            }
            byte[] x = Base64URL.from(parsed.toJSONObject().get("x").toString()).decode();
            // Registration refuses such keys; one stored before it did verifies nothing (no verifier takes it).
            return Ed25519Points.isStrongKey(x) ? ed25519(x) : UNUSABLE;
        } catch (ParseException | JOSEException | GeneralSecurityException e) {
            throw new IllegalStateException("A stored token key does not parse: " + e.getMessage(), e);
        }
    }

    /**
     * A registered key given as a JWK object's text: its public part only, for the algorithm's curve. Read member by
     * member rather than by a JWK library: x5c, x5u and the like are not Herald's to fetch or parse (a library's
     * parse error would reach the answer), and x and y must have one spelling each, so the key stored is one text.
     *
     * @return the minimal public JWK that is stored and shown
     */
    static String fromJwkText(TokenAlgorithm algorithm, String json) {
        JsonObject jwk = Json.parseObject(json.getBytes(StandardCharsets.UTF_8))
                .orElseThrow(() -> invalid("publicKey must be a JWK object"));
        if (jwk.containsKey("d")) {
            throw invalid("publicKey holds a private key: register the public key only, and keep the private key "
                                  + "with the backend that signs");
        }
        boolean es256 = algorithm == TokenAlgorithm.ES256;
        if (!(es256 ? "EC".equals(member(jwk, "kty")) && "P-256".equals(member(jwk, "crv"))
                : "OKP".equals(member(jwk, "kty")) && "Ed25519".equals(member(jwk, "crv")))) {
            throw invalid(es256 ? "publicKey must be an EC key on the P-256 curve for ES256"
                                  : "publicKey must be an OKP key on the Ed25519 curve for EdDSA");
        }
        Set<String> allowed = es256 ? EC_MEMBERS : OKP_MEMBERS;
        for (String name : jwk.keySet()) {
            if (!allowed.contains(name)) {
                throw invalid("publicKey: " + (isShortName(name) ? name : "a member") + " is not accepted; send kty, "
                                      + "crv, x" + (es256 ? " and y" : "") + " (kid, use, alg and key_ops are ignored)");
            }
        }
        byte[] x = coordinate(jwk, "x");
        if (!es256) {
            return okpJwk(x);
        }
        return ecJwk(p256Point(new BigInteger(1, x), new BigInteger(1, coordinate(jwk, "y"))));
    }

    /** x or y: the strict base64url of exactly 32 bytes (43 characters). */
    private static byte[] coordinate(JsonObject jwk, String name) {
        if (!(jwk.get(name) instanceof JsonString value) || value.getString().length() != COORDINATE_CHARS
                || !StrictBase64Url.isStrict(value.getString(), 0, COORDINATE_CHARS)) {
            throw invalid("publicKey's " + name + " must be the base64url (no padding) of 32 bytes");
        }
        return Base64.getUrlDecoder().decode(value.getString());
    }

    /** A member name echoed in an answer only when it is short and plain (x5c, x5u): a client's text is not. */
    private static boolean isShortName(String name) {
        if (name.isEmpty() || name.length() > 20) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private static String member(JsonObject jwk, String name) {
        return jwk.get(name) instanceof JsonString value ? value.getString() : null;
    }

    /** The point, checked to be on P-256 (cofactor 1: any point on it but infinity, which has no x and y, is good). */
    private static ECPoint p256Point(BigInteger x, BigInteger y) {
        ECParameterSpec spec = Curve.P_256.toECParameterSpec();
        BigInteger p = ((ECFieldFp) spec.getCurve().getField()).getP();
        BigInteger a = spec.getCurve().getA();
        BigInteger b = spec.getCurve().getB();
        boolean onCurve = x.compareTo(p) < 0 && y.compareTo(p) < 0
                && y.multiply(y).mod(p).equals(x.pow(3).add(a.multiply(x)).add(b).mod(p));
        if (!onCurve) {
            throw invalid("publicKey is not a point of the P-256 curve");
        }
        return new ECPoint(x, y);
    }

    /** A registered key given as a PEM "PUBLIC KEY" (X.509 SubjectPublicKeyInfo). */
    static String fromPem(TokenAlgorithm algorithm, String pem) {
        Matcher matcher = PEM.matcher(pem);
        if (!matcher.matches()) {
            throw invalid("publicKey must be a JWK object or a PEM string from -----BEGIN PUBLIC KEY----- to "
                                  + "-----END PUBLIC KEY-----");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(matcher.group(1).replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw invalid("publicKey's PEM is not base64");
        }
        try {
            if (algorithm == TokenAlgorithm.ES256) {
                PublicKey key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
                if (!(key instanceof ECPublicKey ec) || !Curve.P_256.equals(Curve.forECParameterSpec(ec.getParams()))) {
                    throw invalid("publicKey must be an EC key on the P-256 curve for ES256");
                }
                return ecJwk(p256Point(ec.getW().getAffineX(), ec.getW().getAffineY()));
            }
            KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
            if (der.length != ED25519_PREFIX.length + ED25519_BYTES
                    || !Arrays.equals(der, 0, ED25519_PREFIX.length, ED25519_PREFIX, 0, ED25519_PREFIX.length)) {
                throw invalid("publicKey must be an Ed25519 key for EdDSA");
            }
            return okpJwk(Arrays.copyOfRange(der, ED25519_PREFIX.length, der.length));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw invalid("publicKey's PEM is not a " + (algorithm == TokenAlgorithm.ES256 ? "P-256" : "Ed25519")
                                  + " public key");
        }
    }

    static PublicKey ed25519(byte[] x) throws GeneralSecurityException {
        byte[] der = Arrays.copyOf(ED25519_PREFIX, ED25519_PREFIX.length + ED25519_BYTES);
        System.arraycopy(x, 0, der, ED25519_PREFIX.length, ED25519_BYTES);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    }

    private static String ecJwk(ECPoint point) {
        return "{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + fixed32(point.getAffineX()) + "\",\"y\":\""
                + fixed32(point.getAffineY()) + "\"}";
    }

    /** A coordinate as 32 big-endian bytes in base64url (RFC 7518 §6.2.1.2: the full length, leading zeros kept). */
    private static String fixed32(BigInteger coordinate) {
        byte[] bytes = coordinate.toByteArray();
        byte[] fixed = new byte[COORDINATE_BYTES];
        int length = Math.min(bytes.length, COORDINATE_BYTES);
        System.arraycopy(bytes, bytes.length - length, fixed, COORDINATE_BYTES - length, length);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(fixed);
    }

    private static String okpJwk(byte[] x) {
        if (!Ed25519Points.isStrongKey(x)) {
            throw invalid("publicKey is not a usable Ed25519 public key: a point of small order (which lets anyone "
                                  + "sign) or a non-canonical encoding");
        }
        try {
            ed25519(x);
        } catch (GeneralSecurityException e) {
            throw invalid("publicKey is not an Ed25519 public key");
        }
        return "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" + Base64URL.encode(x) + "\"}";
    }

    /** Neither a secret nor a public key: the verifier factory makes no verifier of it. */
    private static final class Unusable implements Key {

        @Override
        public String getAlgorithm() {
            return "unusable";
        }

        @Override
        public String getFormat() {
            return null;
        }

        @Override
        public byte[] getEncoded() {
            return null;
        }
    }

    private static ApiException invalid(String message) {
        return ApiException.validation(FIELD, message);
    }
}
