package dev.herald.identity;

import java.math.BigInteger;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import com.nimbusds.jwt.JWTClaimsSet;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The Ed25519 public keys that would let anyone sign (small order) or that spell a point twice (non-canonical). */
class Ed25519PointsTest {

    /** The 8 points of small order (RFC 8032 arithmetic; the same points libsodium blocks) and their other spellings. */
    static final List<String> WEAK_KEYS = List.of(
            "0100000000000000000000000000000000000000000000000000000000000000", // identity, order 1
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // (0, -1), order 2
            "0000000000000000000000000000000000000000000000000000000000000000", // order 4, x even
            "0000000000000000000000000000000000000000000000000000000000000080", // order 4, x odd
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", // order 8
            "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85", // order 8, other sign
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", // order 8, other sign
            "0100000000000000000000000000000000000000000000000000000000000080", // identity with x "negative" 0
            "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", // (0, -1) with x "negative" 0
            "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p: 0 again
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // y = p + 1: the identity again
            "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");

    @Test
    void smallOrderAndNonCanonicalKeysAreWeak() {
        for (String hex : WEAK_KEYS) {
            assertThat(hex, Ed25519Points.isStrongKey(HexFormat.of().parseHex(hex)), is(false));
        }
    }

    @Test
    void generatedKeysAreStrong() {
        for (int i = 0; i < 50; i++) {
            byte[] der = TokenMint.ed25519Pair().getPublic().getEncoded();
            assertThat(Ed25519Points.isStrongKey(Arrays.copyOfRange(der, der.length - 32, der.length)), is(true));
        }
    }

    @Test
    void aSmallOrderKeyAlreadyStoredVerifiesNoToken() {
        String identity = "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}";
        TokenKey stored = new TokenKey("weak", "p", TokenAlgorithm.EdDSA, null, identity, 0, null);
        TokenVerifier verifier = verifier();
        long now = TokenMint.claims("p", 1_000).build().getIssueTime().getTime();
        String input = TokenMint.encode("{\"alg\":\"EdDSA\",\"kid\":\"weak\"}") + "."
                + TokenMint.encode(TokenMint.claims("p", 1_000).build().toString());
        byte[] forged = new byte[64];
        forged[0] = 1; // R = the identity, S = 0: verifies any message under the identity key
        String token = input + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(forged);
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verifier.verify(
                token, kid -> Optional.of(VerifyingKey.of(stored)), null, now));
        assertThat(refused.error(), is(UserTokenErrors.SIGNATURE));
    }

    @Test
    void anEd25519SignatureWithSAtLeastLIsRefused() {
        KeyPair pair = TokenMint.ed25519Pair();
        String jwk = PublicKeys.fromJwkText(TokenAlgorithm.EdDSA, TokenMint.okpJwk(pair));
        TokenKey stored = new TokenKey("k", "p", TokenAlgorithm.EdDSA, null, jwk, 0, null);
        JWTClaimsSet claims = TokenMint.claims("p", 1_000).build();
        String token = TokenMint.ed25519("k", pair, claims);
        long now = claims.getIssueTime().getTime();
        TokenVerifier verifier = verifier();
        verifier.verify(token, kid -> Optional.of(VerifyingKey.of(stored)), null, now);

        String[] parts = token.split("\\.");
        byte[] signature = java.util.Base64.getUrlDecoder().decode(parts[2]);
        BigInteger l = BigInteger.TWO.pow(252).add(new BigInteger("27742317777372353535851937790883648493"));
        byte[] s = Arrays.copyOfRange(signature, 32, 64);
        BigInteger sPlusL = new BigInteger(1, reversed(s)).add(l);
        byte[] encoded = reversed(Arrays.copyOfRange(sPlusL.toByteArray(), sPlusL.toByteArray().length - 32,
                                                     sPlusL.toByteArray().length));
        System.arraycopy(encoded, 0, signature, 32, 32);
        String malleated = parts[0] + "." + parts[1] + "."
                + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verifier.verify(
                malleated, kid -> Optional.of(VerifyingKey.of(stored)), null, now));
        assertThat(refused.error(), is(UserTokenErrors.SIGNATURE));
    }

    private static TokenVerifier verifier() {
        return new TokenVerifier(new TokenClaims(new UserTokenSettings(Duration.ofDays(1), Duration.ofMinutes(1),
                                                                       100, 1_000_000)));
    }

    private static byte[] reversed(byte[] bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[bytes.length - 1 - i];
        }
        return out;
    }
}
