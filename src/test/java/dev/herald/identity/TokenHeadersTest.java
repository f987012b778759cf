package dev.herald.identity;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Properly signed tokens whose header Herald does not take are refused as malformed, saying what is wrong: crit (b64
 * among them) was refused as a signature that does not verify, and a numeric kid or a header key Nimbus cannot read
 * as "not a compact JWS", which an anonymous route took for no token at all (an outside trial).
 */
class TokenHeadersTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final String KID = "KidOfTheHeadersTest000";
    private static final byte[] SECRET = KeyMaterial.randomSecret();

    private final TokenVerifier verifier = new TokenVerifier(new TokenClaims(
            new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60), 10, 1L << 20)));
    private final VerifyingKey key = VerifyingKey.of(new TokenKey(KID, "project", TokenAlgorithm.HS256,
                                                                  KeyMaterial.base64url(SECRET), null, 0, null));

    @Test
    void aWellFormedTokenIsTakenAsIs() {
        assertThat(verify(header().build()).identity().subject(), is("ada"));
    }

    @Test
    void critIsRefusedAsMalformedNamingIt() {
        assertMalformed(header().add("crit", Json.createArrayBuilder().add("exp2")).add("exp2", 1).build(),
                        "The token's header lists crit [exp2]: Herald understands no critical header parameter (b64 "
                                + "among them); sign without crit");
        assertMalformed(header().add("crit", Json.createArrayBuilder().add("b64")).add("b64", false).build(),
                        "The token's header lists crit [b64]: Herald understands no critical header parameter (b64 "
                                + "among them); sign without crit");
    }

    /**
     * Nimbus applied b64 false without crit (RFC 7797): a token signed over its claims' raw bytes was taken as the
     * user, and crit null was read as no crit (an outside review). Herald takes no unencoded payload, in any form.
     */
    @Test
    void b64InAnyFormAndACritThatIsNoArrayOfNamesAreRefusedAsMalformed() {
        String unencoded = HEADER.replace("}", ",\"b64\":false}");
        String token = HandMadeTokens.signUnencoded(SigningKey.hmac(SECRET), unencoded, CLAIMS);
        String b64 = "The token's header has b64: Herald takes no unencoded payload (RFC 7797), whatever b64 says; "
                + "sign without b64";
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(token));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.getMessage(), is(b64));
        assertMalformedAsWritten(unencoded, CLAIMS, b64);
        assertMalformedAsWritten(HEADER.replace("}", ",\"b64\":true}"), CLAIMS, b64);
        for (String crit : List.of("null", "\"b64\"", "[1]", "{}")) {
            assertMalformedAsWritten(HEADER.replace("}", ",\"crit\":" + crit + "}"), CLAIMS, "The token's crit must "
                    + "be an array of header parameter names (RFC 7515); sign without crit");
        }
    }

    @Test
    void aKidThatIsNoStringOrAKeyInTheHeaderIsNamed() {
        assertMalformed(Json.createObjectBuilder().add("kid", 7).build(),
                        "The token's kid must be a string: the id Herald gave its key");
        assertMalformed(header().add("jwk", Json.createObjectBuilder().add("kty", "oct").add("k", "c2VjcmV0")).build(),
                        "The token's header carries a key or a key's address (jwk) that is not one: Herald verifies "
                                + "with the key its kid names and reads no other; remove it");
    }

    /**
     * A token that is one, wrong in a way a JSON library would not write: refused saying so, never taken for no token
     * (which an anonymous route ignored, serving the anonymous feed: an outside review).
     */
    @Test
    void aHeaderWithoutAlgOrWithAMemberTwiceOrAnEmptyCritOrNoSignatureIsRefusedAsMalformed() {
        assertMalformedAsWritten("{\"kid\":\"" + KID + "\"}", CLAIMS,
                                 "The token's header names no alg: say which algorithm signed it");
        assertMalformedAsWritten("{\"alg\":\"HS256\",\"kid\":\"" + KID + "\",\"kid\":\"" + KID + "\"}", CLAIMS,
                                 "The token's header must be one JSON object naming each member once");
        assertMalformedAsWritten("{\"alg\":\"HS256\",\"kid\":\"" + KID + "\",\"crit\":[]}", CLAIMS,
                                 "The token's header has an empty crit, which RFC 7515 forbids: sign without crit");
        String signed = HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), "{\"alg\":\"HS256\",\"kid\":\"" + KID
                + "\"}", CLAIMS);
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class,
                                                       () -> verify(signed.substring(0, signed.lastIndexOf('.') + 1)));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.getMessage(), is("The token has no signature: its third part is empty"));
    }

    /**
     * A header wrong in one member names that member (an outside review): an empty alg was refused as "the token says
     * alg ", a null kid as no kid (USER_TOKEN_KEY_UNKNOWN), and enc, a number for cty, typ or x5t, or alg none with a
     * signature as "alg, kid and typ must be strings".
     */
    @Test
    void aHeaderMemberOfTheWrongKindIsNamed() {
        String noAlg = "The token's header names no alg: say which algorithm signed it";
        assertMalformedAsWritten("{\"alg\":\"\",\"kid\":\"" + KID + "\"}", CLAIMS, noAlg);
        assertMalformedAsWritten("{\"alg\":null,\"kid\":\"" + KID + "\"}", CLAIMS, noAlg);
        assertMalformedAsWritten("{\"alg\":1,\"kid\":\"" + KID + "\"}", CLAIMS,
                                 "The token's alg must be a string: the algorithm that signed it");
        assertMalformedAsWritten("{\"alg\":\"HS256\",\"kid\":null}", CLAIMS,
                                 "The token's kid must be a string: the id Herald gave its key");
        assertMalformedAsWritten(HEADER.replace("}", ",\"enc\":\"A128GCM\"}"), CLAIMS, "The token's header has enc: "
                + "encrypted tokens (JWE) are not taken; sign the token (JWS)");
        for (String member : List.of("typ", "cty", "x5t", "x5t#S256")) {
            assertMalformedAsWritten(HEADER.replace("}", ",\"" + member + "\":1}"), CLAIMS,
                                     "The token's " + member + " must be a string (RFC 7515)");
        }
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), "{\"alg\":\"none\",\"kid\":\"" + KID + "\"}",
                                             CLAIMS)));
        assertThat(refused.error(), is(UserTokenErrors.ALGORITHM));
        assertThat(refused.getMessage(), is("Unsigned tokens (alg none) are refused"));
    }

    /** Five parts were refused as "three parts must be base64url", which said nothing of encryption. */
    @Test
    void anEncryptedTokenIsRefusedSayingSo() {
        String jwe = KeyMaterial.base64url(utf8("{\"alg\":\"RSA-OAEP\",\"enc\":\"A128GCM\"}")) + ".AAAA.AAAA.AAAA.AAAA";
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(jwe));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is("Encrypted tokens (JWE, five parts) are not taken: sign the token (JWS, "
                                                    + "three parts)"));
    }

    /**
     * Nimbus fails on a registered claim of another type than RFC 7519's and on a number beyond a double, and neither
     * was named: "iss":1 and an ignored claim or attrs value of 1E309 were told "exp, nbf and iat must be numbers"
     * (an outside review). Herald's strict parser refuses claims whole, and each such refusal was told as a member
     * named twice, or as "one JSON object naming each member once": numbers whose exponent BigDecimal cannot hold,
     * which Nimbus reads as 0 or infinite; a number longer than either reads (exp with a fraction of 5,000 zeros,
     * valid JSON; Nimbus reads 1,023 characters); what is no JSON (an outside test). Each is told what it is.
     */
    @Test
    void claimsNimbusOrHeraldsParserCannotReadAreNamed() {
        String beyond = " is a number beyond the range of a double";
        String exponent = " is a number Herald cannot read (its exponent is out of range)";
        String tooLong = " is a number of more than 1,023 characters: Herald reads none longer";
        Map<String, String> refused = Map.ofEntries(
                Map.entry("iss=1", "iss must be a string (RFC 7519)"),
                Map.entry("jti={}", "jti must be a string (RFC 7519)"),
                Map.entry("sub=true", "sub must be a string (RFC 7519)"),
                Map.entry("aud=[\"project\",1]", "aud must be a string or an array of strings (RFC 7519)"),
                Map.entry("nbf=\"today\"", "nbf must be a number of seconds since the epoch"),
                Map.entry("x=1E309", "x" + beyond), Map.entry("attrs={\"seats\":-1e400}", "attrs.seats" + beyond),
                Map.entry("x=[1,{\"y\":[2E308]}]", "x[1].y[0]" + beyond), Map.entry("exp=1E309", "exp" + beyond),
                Map.entry("n".repeat(70) + "=1E309", "n".repeat(64) + "…" + beyond),
                Map.entry("note=1e99999999999", "note" + beyond),
                Map.entry("note=0e99999999999", "note" + exponent), Map.entry("note=1e-2147483649", "note" + exponent),
                Map.entry("attrs={\"n\":[1,-0E-99999999999]}", "attrs.n[1]" + exponent),
                Map.entry("exp=" + (NOW / 1000 + 3600) + "." + "0".repeat(5000), "exp" + tooLong),
                Map.entry("x=0." + "0".repeat(1022), "x" + tooLong));
        refused.forEach((member, reason) -> assertClaimsRefused(claimsWith(member), reason));
        assertThat("1,023 characters are read", verify(HandMadeTokens.signAsWritten(
                SigningKey.hmac(SECRET), HEADER, claimsWith("x", "0." + "0".repeat(1021)))).identity().subject(),
                   is("ada"));
        // Where it goes wrong: CLAIMS' closing brace is its last character.
        int brace = CLAIMS.length();
        Map<String, Integer> notJson = Map.of("{'sub':'ada'}", 2, CLAIMS.replace("}", ",\"n\":NaN}"), brace + 5,
                                              CLAIMS.replace("}", ",}"), brace + 1,
                                              CLAIMS.replace("}", "/* a comment */}"), brace);
        notJson.forEach((claims, at) -> assertClaimsRefused(claims, "The token's claims are not JSON (RFC 8259) at "
                + "character " + at + ": single quotes, NaN, a trailing comma or a comment are none"));
    }

    /** {@link #CLAIMS} with a member {@code name=value} (JSON) set, or added. */
    private static String claimsWith(String member) {
        String name = member.substring(0, member.indexOf('='));
        return claimsWith(name, member.substring(name.length() + 1));
    }

    private void assertClaimsRefused(String claims, String reason) {
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, claims)));
        assertThat(claims, refused.error(), is(UserTokenErrors.CLAIMS));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is(reason));
    }

    /** {@link #CLAIMS} with the member {@code name} set to the JSON {@code value}, or added. */
    private static String claimsWith(String name, String value) {
        Map<String, String> members = new LinkedHashMap<>();
        members.put("sub", "\"ada\"");
        members.put("aud", "\"project\"");
        members.put("iat", String.valueOf(NOW / 1000));
        members.put("exp", String.valueOf(NOW / 1000 + 3600));
        members.put(name, value);
        return members.entrySet().stream().map(member -> "\"" + member.getKey() + "\":" + member.getValue())
                .collect(java.util.stream.Collectors.joining(",", "{", "}"));
    }

    @Test
    void claimsWithAMemberTwiceAreRefusedAsClaims() {
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER,
                                             CLAIMS.replace("{", "{\"sub\":\"bob\","))));
        assertThat(refused.error(), is(UserTokenErrors.CLAIMS));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is("The token's claims must name each member once, at every level (attrs and "
                                                    + "the claims Herald ignores alike)"));
    }

    /** A number beyond a double in the header was told "not a JWS header Herald can read", naming nothing. */
    @Test
    void aHeaderHeraldsReadersCannotReadIsToldWhyNamingTheMember() {
        String member = "The token's header member ";
        assertMalformedAsWritten(HEADER.replace("}", ",\"x\":1e309}"), CLAIMS,
                                 member + "x is a number beyond the range of a double");
        assertMalformedAsWritten(HEADER.replace("}", ",\"x\":{\"y\":[1e99999999999]}}"), CLAIMS,
                                 member + "x.y[0] is a number beyond the range of a double");
        assertMalformedAsWritten(HEADER.replace("}", ",\"x\":0e99999999999}"), CLAIMS,
                                 member + "x is a number Herald cannot read (its exponent is out of range)");
        assertMalformedAsWritten(HEADER.replace("}", ",}"), CLAIMS, "The token's header is not JSON (RFC 8259) at "
                + "character " + (HEADER.length() + 1) + ": single quotes, NaN, a trailing comma or a comment are "
                + "none");
    }

    /** "bob\ud800" was read as "bob?", another user whose state it read and wrote (an outside review). */
    @Test
    void aSubWithASurrogateAloneIsRefused() {
        for (String sub : List.of("bob\\ud800", "bob\\udc00x", "\\ud83d")) {
            UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                    HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, CLAIMS.replace("\"ada\"",
                                                                                                  "\"" + sub + "\""))));
            assertThat(sub, refused.error(), is(UserTokenErrors.CLAIMS));
            assertThat(refused.getMessage(), is("The token's claims must be Unicode text: a \\ud800 to \\udfff "
                                                        + "escape stands only in a pair"));
        }
        assertThat("a pair is a character", verify(HandMadeTokens.signAsWritten(
                SigningKey.hmac(SECRET), HEADER, CLAIMS.replace("\"ada\"", "\"bob\\ud83d\\ude00\""))).identity()
                .subject(), is("bob\ud83d\ude00"));
    }

    /**
     * Nimbus read bytes that are no UTF-8 as U+FFFD: "mallory" then FF, FE or ED A0 80 (a surrogate encoded alone)
     * were each the user "mallory\ufffd", who read and wrote the others' state (an outside review). The escape is
     * that character, written as JSON allows, and stays a user's.
     */
    @Test
    void claimsOrAHeaderThatAreNoUtf8AreRefusedAndTheEscapeOfU_FFFDIsTaken() {
        for (byte[] notUtf8 : HandMadeTokens.NOT_UTF8) {
            UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                    HandMadeTokens.signBytes(SigningKey.hmac(SECRET), utf8(HEADER), withSub(notUtf8))));
            assertThat(refused.error(), is(UserTokenErrors.CLAIMS));
            assertThat(refused.getMessage(), is("The token's claims are no UTF-8 text: a byte FF or FE, a surrogate "
                                                        + "encoded alone or a character cut short is none; encode the "
                                                        + "JSON as UTF-8"));
            byte[] header = HandMadeTokens.concat(utf8(HEADER.replace("}", ",\"typ\":\"JWT")), notUtf8, utf8("\"}"));
            refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                    HandMadeTokens.signBytes(SigningKey.hmac(SECRET), header, utf8(CLAIMS))));
            assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
            assertThat(refused.notAToken(), is(false));
            assertThat(refused.getMessage(), is("The token's header is no UTF-8 text: a byte FF or FE, a surrogate "
                                                        + "encoded alone or a character cut short is none; encode the "
                                                        + "JSON as UTF-8"));
        }
        assertThat(verify(HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, CLAIMS.replace(
                "\"ada\"", "\"mallory\\ufffd\""))).identity().subject(), is("mallory\ufffd"));
    }

    private static byte[] withSub(byte[] notUtf8) {
        return HandMadeTokens.concat(utf8("{\"sub\":\"mallory"), notUtf8, utf8(CLAIMS.replace("{\"sub\":\"ada", "")));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Claims nested past a parser's limit were refused as something else ("attrs must name each of its members once"
     * past Herald's 128 levels) or, past Nimbus' 255 or with a member twice past 128, taken for no token at all, which
     * an anonymous route ignored (an outside review). Past 32 levels, a header or claims is refused saying so.
     */
    @Test
    void claimsOrAHeaderNestedDeeperThan32LevelsAreRefusedSayingSo() {
        assertThat("32 levels, the claims' own object the first", verify(HandMadeTokens.signAsWritten(
                SigningKey.hmac(SECRET), HEADER.replace("}", ",\"x\":" + nested(31) + "}"), withX(nested(31), "")))
                .identity().subject(), is("ada"));
        for (int levels : List.of(32, 127, 128, 253, 254, 300)) {
            for (String after : List.of("", ",\"attrs\":{}", ",\"sub\":\"bob\"")) {
                UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                        HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, withX(nested(levels), after))));
                assertThat(levels + after, refused.error(), is(UserTokenErrors.CLAIMS));
                assertThat(refused.notAToken(), is(false));
                assertThat(refused.getMessage(), is("The token's claims are nested more than 32 levels deep (its own "
                                                            + "object is level 1): Herald reads no deeper"));
            }
            assertMalformedAsWritten(HEADER.replace("}", ",\"x\":" + nested(levels) + "}"), CLAIMS, "The token's "
                    + "header is nested more than 32 levels deep (its own object is level 1): Herald reads no deeper");
        }
    }

    /**
     * A header or claims that is a JSON object with something after it ({@code {"sub":"alice"}{"sub":"mallory"}}, a
     * stray brace, a NUL) was taken for no token at all, which an anonymous route ignored (an outside test): refused
     * saying so. White space after it is JSON's; an object that never closes stays no token (an application's own).
     */
    @Test
    void aHeaderOrClaimsWithSomethingAfterTheObjectIsRefusedSayingSo() {
        String withAttrs = CLAIMS.replace("}", ",\"attrs\":{\"plan\":\"pro\"}}");
        for (String after : List.of("{\"sub\":\"mallory\"}", "x", "}", "]", "\u0000", " \n,")) {
            UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                    HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, withAttrs + after)));
            assertThat(after, refused.error(), is(UserTokenErrors.CLAIMS));
            assertThat(refused.notAToken(), is(false));
            assertThat(refused.getMessage(), is("The token's claims are a JSON object with something after it: send "
                                                        + "the object alone, nothing but white space after its closing "
                                                        + "brace"));
            assertMalformedAsWritten(HEADER + after, CLAIMS, "The token's header is a JSON object with something after "
                    + "it: send the object alone, nothing but white space after its closing brace");
        }
        assertThat(verify(HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER + " \n", withAttrs + "\t\r\n"))
                           .identity().subject(), is("ada"));
        UserTokenErrors.Refused neverClosed = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, "{\"x\":" + "[".repeat(5000))));
        assertThat("no token, ignored where none is required", neverClosed.notAToken(), is(true));
    }

    /**
     * Nimbus reads past a byte order mark; Herald's parser does not, and so checked nothing of a header after one:
     * {@code "b64":false} signed over the raw claims was taken as the user again, {@code "crit":null} as no crit.
     * Claims after one were told they named a member twice (an outside review). Each is refused saying so.
     */
    @Test
    void aHeaderOrClaimsAfterAByteOrderMarkAreRefusedSayingSo() {
        String bom = "\uFEFF";
        String header = "The token's header is preceded by a byte order mark (EF BB BF): encode the JSON as UTF-8 "
                + "without one";
        String unencoded = HandMadeTokens.signUnencoded(SigningKey.hmac(SECRET), bom + HEADER.replace("}",
                ",\"b64\":false}"), CLAIMS);
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(unencoded));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.getMessage(), is(header));
        assertMalformedAsWritten(bom + HEADER.replace("}", ",\"crit\":null}"), CLAIMS, header);
        assertMalformedAsWritten(bom + HEADER, CLAIMS, header);
        refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(
                HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), HEADER, bom + CLAIMS)));
        assertThat(refused.error(), is(UserTokenErrors.CLAIMS));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is("The token's claims are preceded by a byte order mark (EF BB BF): encode "
                                                    + "the JSON as UTF-8 without one"));
    }

    private static String nested(int levels) {
        return "[".repeat(levels) + "]".repeat(levels);
    }

    /** The claims with a member x first and {@code after} last. */
    private static String withX(String x, String after) {
        return "{\"x\":" + x + "," + CLAIMS.substring(1, CLAIMS.length() - 1) + after + "}";
    }

    private static final String HEADER = "{\"alg\":\"HS256\",\"kid\":\"" + KID + "\"}";
    private static final String CLAIMS = "{\"sub\":\"ada\",\"aud\":\"project\",\"iat\":" + NOW / 1000 + ",\"exp\":"
            + (NOW / 1000 + 3600) + "}";

    private void assertMalformedAsWritten(String header, String claims, String reason) {
        String token = HandMadeTokens.signAsWritten(SigningKey.hmac(SECRET), header, claims);
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(token));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is(reason));
    }

    private TokenVerifier.Verified verify(String token) {
        return verifier.verify(token, kid -> Optional.of(key).filter(found -> found.key().kid().equals(kid)), "project",
                               NOW);
    }

    private static jakarta.json.JsonObjectBuilder header() {
        return Json.createObjectBuilder().add("kid", KID);
    }

    private TokenVerifier.Verified verify(JsonObject header) {
        JsonObject claims = Json.createObjectBuilder().add("sub", "ada").add("aud", "project")
                .add("iat", NOW / 1000).add("exp", NOW / 1000 + 3600).build();
        String token = HandMadeTokens.sign(SigningKey.hmac(SECRET), header, claims);
        return verifier.verify(token, kid -> Optional.of(key).filter(found -> found.key().kid().equals(kid)), "project",
                               NOW);
    }

    private void assertMalformed(JsonObject header, String reason) {
        UserTokenErrors.Refused refused = assertThrows(UserTokenErrors.Refused.class, () -> verify(header));
        assertThat(refused.error(), is(UserTokenErrors.MALFORMED));
        assertThat(refused.notAToken(), is(false));
        assertThat(refused.getMessage(), is(reason));
    }
}
