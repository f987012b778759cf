package dev.herald.identity;

import java.math.BigInteger;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jwt.JWTClaimsSet;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The spellings of one token: strict base64url only, and the one other spelling ES256 allows (high S) accepted. */
class TokenEncodingsTest {

    @Test
    void strictBase64UrlIsTheOneSpelling() {
        for (String strict : new String[] {"", "AA", "AAA", "AAAA", "QQ", "-_8", "YWJjZA"}) {
            assertThat(strict, StrictBase64Url.isStrict(strict, 0, strict.length()), is(true));
        }
        for (String lenient : new String[] {"A", "AB", "AAB", "QQ==", "Q Q", "a+b/", "YWJ!jZA", "YWJjZA\t"}) {
            assertThat(lenient, StrictBase64Url.isStrict(lenient, 0, lenient.length()), is(false));
        }
        assertThat(TokenVerifier.isStrictCompact("a.b."), is(false));
        assertThat(TokenVerifier.isStrictCompact("AA.AA.AA"), is(true));
        assertThat(TokenVerifier.isStrictCompact("AA.AA.AA.AA"), is(false));
        assertThat(TokenVerifier.isStrictCompact("AA.AA"), is(false));
    }

    /** JOSE does not require low S and signers make either: the high-S spelling verifies as the same user. */
    @Test
    void anEs256SignatureWithHighSIsAcceptedAsTheSameUser() {
        KeyPair pair = TokenMint.p256();
        TokenKey stored = new TokenKey("k", "p", TokenAlgorithm.ES256, null,
                                       PublicKeys.fromJwkText(TokenAlgorithm.ES256, TokenMint.jwk(pair)), 0, null);
        JWTClaimsSet claims = TokenMint.claims("p", 1_000).build();
        String token = TokenMint.es256("k", pair, claims);
        String[] parts = token.split("\\.");
        byte[] signature = Base64.getUrlDecoder().decode(parts[2]);
        BigInteger n = Curve.P_256.toECParameterSpec().getOrder();
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        byte[] other = n.subtract(s).toByteArray();
        byte[] fixed = new byte[32];
        int length = Math.min(other.length, 32);
        System.arraycopy(other, other.length - length, fixed, 32 - length, length);
        System.arraycopy(fixed, 0, signature, 32, 32);
        String flipped = parts[0] + "." + parts[1] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
        TokenVerifier verifier = new TokenVerifier(new TokenClaims(new UserTokenSettings(
                Duration.ofDays(1), Duration.ofMinutes(1), 100, 1_000_000)));
        long now = claims.getIssueTime().getTime();
        assertThat(verifier.verify(flipped, kid -> Optional.of(VerifyingKey.of(stored)), null, now).identity(),
                   is(verifier.verify(token, kid -> Optional.of(VerifyingKey.of(stored)), null, now).identity()));
    }
}
