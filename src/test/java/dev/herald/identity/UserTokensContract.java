package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import com.nimbusds.jwt.JWTClaimsSet;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * User tokens (docs/api.md, User tokens): the token keys of the management API, and the public routes that accept,
 * refuse or require a token; run against each database by a subclass.
 */
abstract class UserTokensContract extends HeraldServerTest {

    private static final long NOW = START.getEpochSecond();

    private final Http1Client http;
    private final AdminClient admin;

    UserTokensContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    // Keys in the management API

    @Test
    void anHs256SecretIsShownOnceAndItsTokensAreAccepted() {
        Project project = project(false);
        AdminClient.Answer created = admin.call(Method.POST, "/projects/" + project.id + "/token-keys",
                                                "{\"algorithm\":\"HS256\"}");
        assertThat(created.status(), is(201));
        JsonObject key = created.object();
        assertThat(key.keySet(), is(Set.of("kid", "projectId", "algorithm", "secret", "publicKey", "createdAt",
                                           "revokedAt")));
        assertThat(key.getString("kid").matches("[A-Za-z0-9_-]{22}"), is(true));
        assertThat(key.getString("projectId"), is(project.id));
        assertThat(key.getString("algorithm"), is("HS256"));
        assertThat(Base64.getUrlDecoder().decode(key.getString("secret")).length, is(32));
        assertThat(key.get("publicKey"), is(JsonValue.NULL));
        assertThat(key.getString("createdAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(key.get("revokedAt"), is(JsonValue.NULL));
        assertThat(created.location(), is("/api/v1/admin/token-keys/" + key.getString("kid")));

        AdminClient.Answer listed = admin.call(Method.GET, "/projects/" + project.id + "/token-keys");
        assertThat(listed.status(), is(200));
        assertThat("the secret is never shown again", listed.body(), not(containsString(key.getString("secret"))));
        assertThat(listed.array().getJsonObject(0).get("secret"), is(JsonValue.NULL));
        assertThat(listed.array().getJsonObject(0).getString("kid"), is(key.getString("kid")));

        String token = TokenMint.hs256(key.getString("kid"), secret(key), TokenMint.claims(project.id, NOW).build());
        Answer anonymous = feed(project.apiKey, null);
        Answer identified = feed(project.apiKey, "Bearer " + token);
        assertThat(identified.status, is(200));
        assertThat(identified.body, is(anonymous.body));
        assertThat("the scheme in any case", feed(project.apiKey, "bearer " + token).status, is(200));
    }

    @Test
    void es256AndEdDsaPublicKeysAreRegisteredAsJwkOrPem() {
        Project project = project(false);
        KeyPair p256 = TokenMint.p256();
        KeyPair ed25519 = TokenMint.ed25519Pair();
        JsonObject esJwk = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwk(p256) + "}");
        JsonObject esPem = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":" + quoted(TokenMint.pem(p256)) + "}");
        JsonObject edJwk = key(project, "{\"algorithm\":\"EdDSA\",\"publicKey\":" + TokenMint.okpJwk(ed25519) + "}");
        JsonObject edPem = key(project, "{\"algorithm\":\"EdDSA\",\"publicKey\":" + quoted(TokenMint.pem(ed25519))
                + "}");
        assertThat(esJwk.get("secret"), is(JsonValue.NULL));
        assertThat("the same public key, however registered", esPem.get("publicKey"), is(esJwk.get("publicKey")));
        assertThat(esJwk.getJsonObject("publicKey").keySet(), is(Set.of("kty", "crv", "x", "y")));
        assertThat(edPem.get("publicKey"), is(edJwk.get("publicKey")));
        assertThat(edJwk.getJsonObject("publicKey").getString("crv"), is("Ed25519"));

        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        for (JsonObject es : List.of(esJwk, esPem)) {
            assertThat(feed(project.apiKey, bearer(TokenMint.es256(es.getString("kid"), p256, claims))).status, is(200));
        }
        for (JsonObject ed : List.of(edJwk, edPem)) {
            assertThat(feed(project.apiKey, bearer(TokenMint.ed25519(ed.getString("kid"), ed25519, claims))).status,
                       is(200));
        }
    }

    @Test
    void badKeysAreRefusedNamingTheField() {
        String keys = "/projects/" + project(false).id + "/token-keys";
        Map<String, String> refused = new HashMap<>();
        refused.put("{}", "algorithm");
        refused.put("{\"algorithm\":\"RS256\"}", "algorithm");
        refused.put("{\"algorithm\":\"none\"}", "algorithm");
        refused.put("{\"algorithm\":\"HS256\",\"publicKey\":\"x\"}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\"}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\"}}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"AAAA\","
                            + "\"y\":\"AAAA\"}}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwkOf(TokenMint.p384()) + "}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + quoted(TokenMint.pem(TokenMint.p384())) + "}",
                    "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + quoted(TokenMint.pem(TokenMint.rsa())) + "}",
                    "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.rsaJwk(TokenMint.rsa()) + "}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.privateJwk(TokenMint.p256()) + "}",
                    "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":\"-----BEGIN PUBLIC KEY-----\\n!!garbage!!\\n"
                            + "-----END PUBLIC KEY-----\"}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":\"-----BEGIN PUBLIC KEY-----\\nAAAA\\n"
                            + "-----END PUBLIC KEY-----\"}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":\"not a key\"}", "publicKey");
        refused.put("{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.okpJwk(TokenMint.ed25519Pair()) + "}",
                    "publicKey");
        refused.put("{\"algorithm\":\"EdDSA\",\"publicKey\":" + TokenMint.jwk(TokenMint.p256()) + "}", "publicKey");
        refused.put("{\"algorithm\":\"EdDSA\",\"publicKey\":" + quoted(TokenMint.pem(TokenMint.p256())) + "}",
                    "publicKey");
        refused.put("{\"algorithm\":\"EdDSA\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"AAAA\"}}",
                    "publicKey");
        refused.put("{\"algorithm\":\"EdDSA\",\"publicKey\":5}", "publicKey");
        refused.put("{\"algorithm\":\"HS256\",\"secret\":\"mine\"}", "secret");
        refused.put("{\"algorithm\":\"HS256\",\"kid\":\"mine\"}", "kid");
        refused.forEach((body, field) -> {
            AdminClient.Answer answer = admin.call(Method.POST, keys, body);
            assertThat(body, answer.status(), is(400));
            assertThat(body, answer.object().getString("code"), is("VALIDATION_ERROR"));
            assertThat(body, answer.object().getJsonObject("details").getString("field"), is(field));
        });
        assertThat("none was made", admin.call(Method.GET, keys).array().size(), is(0));
    }

    @Test
    void ed25519KeysOfSmallOrderOrNonCanonicalAreRefusedAsJwkAndPem() {
        String keys = "/projects/" + project(false).id + "/token-keys";
        for (String hex : Ed25519PointsTest.WEAK_KEYS) {
            byte[] x = java.util.HexFormat.of().parseHex(hex);
            byte[] der = java.util.HexFormat.of().parseHex("302a300506032b6570032100" + hex);
            String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getEncoder().encodeToString(der)
                    + "\n-----END PUBLIC KEY-----\n";
            for (String body : List.of("{\"algorithm\":\"EdDSA\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\","
                    + "\"x\":\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(x) + "\"}}",
                    "{\"algorithm\":\"EdDSA\",\"publicKey\":" + quoted(pem) + "}")) {
                AdminClient.Answer answer = admin.call(Method.POST, keys, body);
                assertThat(body, answer.status(), is(400));
                assertThat(body, answer.object().getString("code"), is("VALIDATION_ERROR"));
                assertThat(body, answer.object().getJsonObject("details").getString("field"), is("publicKey"));
            }
        }
        assertThat("none was made", admin.call(Method.GET, keys).array().size(), is(0));
    }

    @Test
    void publicKeysMustBeStrictlyEncodedPointsAndAnswersNameNoLibrary() {
        Project project = project(false);
        String keys = "/projects/" + project.id + "/token-keys";
        JsonObject good = JsonBodies.object(TokenMint.jwk(TokenMint.p256()));
        String x = good.getString("x");
        String y = good.getString("y");
        char last = x.charAt(x.length() - 1);
        String strayBits = x.substring(0, x.length() - 1) + (char) (last == 'A' ? 'B' : last == 'B' ? 'C' : 'A');
        String p256Prefix = "3059301306072a8648ce3d020106082a8648ce3d030107034200";
        List<String> refused = List.of(
                "{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + x + "\",\"y\":\""
                        + y + "\",\"x5c\":[\"MIIB\"]}}",
                pemBody("ES256", p256Prefix + "04" + "00".repeat(64)),
                pemBody("ES256", p256Prefix + "04" + "00".repeat(31) + "01" + "00".repeat(31) + "01"),
                ecBody(x + "!".repeat(600), y),
                ecBody(x + "A".repeat(600), y),
                ecBody(x + "=", y),
                ecBody(" " + x, y),
                ecBody(x.replace('-', '+').replace('_', '/') + (x.contains("-") || x.contains("_") ? "" : "+"), y),
                ecBody(strayBits, y),
                ecBody("AAAA", y),
                "{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":5,\"y\":\"" + y + "\"}}",
                "{\"algorithm\":\"EdDSA\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x5c\":[\"MIIB\"]}}",
                "{\"algorithm\":\"EdDSA\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\""
                        + JsonBodies.object(TokenMint.okpJwk(TokenMint.ed25519Pair())).getString("x") + "\","
                        + "\"x5u\":\"https://example.com/k\"}}");
        for (String body : refused) {
            AdminClient.Answer answer = admin.call(Method.POST, keys, body);
            assertThat(body, answer.status(), is(400));
            assertThat(body, answer.object().getString("code"), is("VALIDATION_ERROR"));
            assertThat(body, answer.object().getJsonObject("details").getString("field"), is("publicKey"));
            assertThat(body, answer.body(), not(containsString("java.")));
            assertThat(body, answer.body(), not(containsString("MIIB")));
            assertThat(body, answer.body(), not(containsString("Exception")));
        }
        AdminClient.Answer x5c = admin.call(Method.POST, keys, refused.getFirst());
        assertThat(x5c.object().getString("error"), is("publicKey: x5c is not accepted; send kty, crv, x and y (kid, "
                + "use, alg and key_ops are ignored)"));
        assertThat("none was made", admin.call(Method.GET, keys).array().size(), is(0));

        JsonObject withExtras = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\","
                + "\"x\":\"" + x + "\",\"y\":\"" + y + "\",\"kid\":\"mine\",\"use\":\"sig\",\"alg\":\"ES256\","
                + "\"key_ops\":[\"verify\"]}}");
        assertThat("the canonical minimal JWK is kept", withExtras.getJsonObject("publicKey").toString(),
                   is("{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"" + x + "\",\"y\":\"" + y + "\"}"));
    }

    private static String ecBody(String x, String y) {
        return "{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":" + quoted(x)
                + ",\"y\":" + quoted(y) + "}}";
    }

    private static String pemBody(String algorithm, String derHex) {
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(derHex))
                + "\n-----END PUBLIC KEY-----\n";
        return "{\"algorithm\":\"" + algorithm + "\",\"publicKey\":" + quoted(pem) + "}";
    }

    @Test
    void aProjectHasAtMostTenActiveKeys() {
        Project project = project(false);
        List<String> kids = IntStream.range(0, 10).mapToObj(i -> hs256(project).getString("kid")).toList();
        AdminClient.Answer eleventh = admin.call(Method.POST, "/projects/" + project.id + "/token-keys",
                                                 "{\"algorithm\":\"HS256\"}");
        assertThat(eleventh.status(), is(409));
        assertThat(eleventh.object().getString("code"), is("TOKEN_KEY_LIMIT"));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + kids.getFirst()).status(), is(204));
        assertThat(admin.call(Method.POST, "/projects/" + project.id + "/token-keys", "{\"algorithm\":\"HS256\"}")
                           .status(), is(201));
    }

    @Test
    void unknownProjectsAndKidsAreNotFound() {
        assertThat(admin.call(Method.POST, "/projects/nope/token-keys", "{\"algorithm\":\"HS256\"}").status(), is(404));
        assertThat(admin.call(Method.GET, "/projects/nope/token-keys").status(), is(404));
        assertThat(admin.call(Method.DELETE, "/token-keys/nope").status(), is(404));
        assertThat(admin.call(Method.PUT, "/token-keys/nope").status(), is(405));
    }

    @Test
    void creationAndRevocationAreAuditedWithoutTheSecret() {
        Project project = project(false);
        JsonObject key = hs256(project);
        assertThat(admin.call(Method.DELETE, "/token-keys/" + key.getString("kid")).status(), is(204));
        AdminClient.Answer audit = admin.call(Method.GET, "/audit?targetId=" + key.getString("kid"));
        assertThat(audit.status(), is(200));
        assertThat(audit.array().stream().map(line -> line.asJsonObject().getString("action")).toList(),
                   is(List.of("token-key.revoked", "token-key.created")));
        assertThat(audit.body(), not(containsString(key.getString("secret"))));
        assertThat(audit.array().getJsonObject(0).getJsonObject("target").getString("type"), is("token-key"));
    }

    // The tokens the feed refuses

    @Test
    void unsignedTokensAreRefused() {
        Project project = project(false);
        String kid = hs256(project).getString("kid");
        String none = TokenMint.encode("{\"alg\":\"none\",\"kid\":\"" + kid + "\"}") + "."
                + TokenMint.encode(TokenMint.claims(project.id, NOW).build().toString()) + ".";
        assertRefused(project, none, "USER_TOKEN_ALGORITHM");
    }

    @Test
    void anHs256TokenSignedWithAnEs256KeysPublicBytesIsRefused() {
        Project project = project(false);
        KeyPair p256 = TokenMint.p256();
        JsonObject es = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwk(p256) + "}");
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        // What a verifier that takes the key for whatever the header says would accept: the public key as HMAC secret.
        for (byte[] publicBytes : List.of(p256.getPublic().getEncoded(), es.getJsonObject("publicKey").toString()
                .getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            assertRefused(project, TokenMint.hs256(es.getString("kid"), publicBytes, claims), "USER_TOKEN_ALGORITHM");
        }
        KeyPair ed25519 = TokenMint.ed25519Pair();
        JsonObject hs = hs256(project);
        assertRefused(project, TokenMint.ed25519(hs.getString("kid"), ed25519, claims), "USER_TOKEN_ALGORITHM");
    }

    @Test
    void badSignaturesAreRefused() {
        Project project = project(false);
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        JsonObject hs = hs256(project);
        byte[] other = secret(hs);
        other[0] ^= 1;
        assertRefused(project, TokenMint.hs256(hs.getString("kid"), other, claims), "USER_TOKEN_SIGNATURE");
        JsonObject es = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwk(TokenMint.p256()) + "}");
        assertRefused(project, TokenMint.es256(es.getString("kid"), TokenMint.p256(), claims), "USER_TOKEN_SIGNATURE");
        JsonObject ed = key(project, "{\"algorithm\":\"EdDSA\",\"publicKey\":"
                + TokenMint.okpJwk(TokenMint.ed25519Pair()) + "}");
        assertRefused(project, TokenMint.ed25519(ed.getString("kid"), TokenMint.ed25519Pair(), claims),
                      "USER_TOKEN_SIGNATURE");
        String good = TokenMint.hs256(hs.getString("kid"), secret(hs), claims);
        String[] parts = good.split("\\.");
        String otherClaims = TokenMint.encode(TokenMint.claims(project.id, NOW).subject("admin").build().toString());
        assertRefused(project, parts[0] + "." + otherClaims + "." + parts[2], "USER_TOKEN_SIGNATURE");
    }

    @Test
    void tokensWhosePartsAreNotStrictBase64UrlAreMalformed() {
        Project project = project(false);
        JsonObject hs = hs256(project);
        String good = TokenMint.hs256(hs.getString("kid"), secret(hs), TokenMint.claims(project.id, NOW).build());
        assertThat(feed(project.apiKey, bearer(good)).status, is(200));
        String[] parts = good.split("\\.");
        String signature = parts[2];
        char last = signature.charAt(signature.length() - 1);
        String strayBits = signature.substring(0, signature.length() - 1) + (char) (last == 'A' ? 'B' : last - 1);
        int mid = signature.length() / 2;
        List<String> signatures = List.of(signature + "=", signature.substring(0, mid) + "!" + signature.substring(mid),
                signature.substring(0, mid) + " " + signature.substring(mid),
                signature.substring(0, mid) + "\t" + signature.substring(mid),
                signature.substring(0, mid) + "+/" + signature.substring(mid), strayBits);
        for (String variant : signatures) {
            assertRefused(project, parts[0] + "." + parts[1] + "." + variant, "USER_TOKEN_MALFORMED");
        }
        assertRefused(project, parts[0] + "=." + parts[1] + "." + signature, "USER_TOKEN_MALFORMED");
        assertRefused(project, parts[0] + "." + parts[1] + "==." + signature, "USER_TOKEN_MALFORMED");
        assertThat("the token as signed still works", feed(project.apiKey, bearer(good)).status, is(200));
    }

    @Test
    void aNameTwiceInAttrsIsRefusedAsAtTheTopLevel() throws Exception {
        Project project = project(false);
        JsonObject hs = hs256(project);
        String claims = "{\"sub\":\"user-42\",\"aud\":\"" + project.id + "\",\"iat\":" + NOW + ",\"exp\":" + (NOW + 600)
                + ",\"attrs\":{\"plan\":\"free\",\"plan\":\"pro\"}}";
        String token = signedHs256(hs, claims);
        assertRefused(project, token, "USER_TOKEN_CLAIMS");
        assertThat(feed(project.apiKey, bearer(token)).object().getString("error"), containsString("attrs"));
        // In a claim Herald ignores too, attrs or not: it was taken without attrs, and blamed attrs beside them.
        for (String beside : List.of("", ",\"attrs\":{\"plan\":\"pro\"}")) {
            String ignored = signedHs256(hs, "{\"sub\":\"user-42\",\"aud\":\"" + project.id + "\",\"iat\":" + NOW
                    + ",\"exp\":" + (NOW + 600) + ",\"ext\":{\"a\":1,\"a\":2}" + beside + "}");
            assertRefused(project, ignored, "USER_TOKEN_CLAIMS");
            assertThat(feed(project.apiKey, bearer(ignored)).object().getString("error"),
                       is("The token's claims must name each member once, at every level (attrs and the claims Herald"
                                  + " ignores alike)"));
        }
    }

    /** The claims as written, signed with the HS256 key as its JSON {@code hs} answers it. */
    private String signedHs256(JsonObject hs, String claims) throws Exception {
        String input = TokenMint.encode("{\"alg\":\"HS256\",\"kid\":\"" + hs.getString("kid") + "\"}") + "."
                + TokenMint.encode(claims);
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret(hs), "HmacSHA256"));
        return input + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac.doFinal(input.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    /**
     * Claims whose bytes are no UTF-8 were read with U+FFFD in their place: "mallory" then the byte FF, FE or a
     * surrogate encoded alone (ED A0 80) were one user, "mallory\ufffd", whose state each read and wrote (an outside
     * review). Each is refused; the escape of U+FFFD is that character as JSON writes it, and a user of its own.
     */
    @Test
    void claimsThatAreNoUtf8AreRefusedAndTheEscapeOfU_FFFDIsTaken() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        String claims = "\",\"aud\":\"" + project.id + "\",\"iat\":" + NOW + ",\"exp\":" + (NOW + 600) + "}";
        for (byte[] notUtf8 : HandMadeTokens.NOT_UTF8) {
            byte[] sub = "{\"sub\":\"mallory".getBytes(StandardCharsets.UTF_8);
            String token = hs.tokenOf(HandMadeTokens.concat(sub, notUtf8, claims.getBytes(StandardCharsets.UTF_8)));
            assertRefused(project, token, "USER_TOKEN_CLAIMS");
            assertThat(feed(project.apiKey, bearer(token)).object().getString("error"), containsString("no UTF-8"));
        }
        String escaped = hs.tokenOf(("{\"sub\":\"mallory\\ufffd" + claims).getBytes(StandardCharsets.UTF_8));
        assertThat(feed(project.apiKey, bearer(escaped)).status, is(200));
    }

    /**
     * Claims nested 128 levels deep with a member twice, or 300 levels deep, were taken for no token at all: the
     * anonymous feed was served where a token is not required, and "not a compact JWS" answered where it is (an
     * outside review). A token that is present is never ignored: past 32 levels it is refused saying so.
     */
    @Test
    void claimsNestedDeeperThan32LevelsAreRefusedSayingSoNeverIgnored() {
        for (boolean required : List.of(false, true)) {
            Project project = project(required);
            HsKey hs = new HsKey(hs256(project));
            String claims = "\"sub\":\"user-42\",\"aud\":\"" + project.id + "\",\"iat\":" + NOW + ",\"exp\":"
                    + (NOW + 600);
            for (String deep : List.of("[".repeat(128) + "]".repeat(128) + "," + claims + ",\"sub\":\"bob\"",
                                       "[".repeat(300) + "]".repeat(300) + "," + claims,
                                       "[".repeat(32) + "]".repeat(32) + "," + claims + ",\"attrs\":{}")) {
                String token = hs.tokenOf(("{\"x\":" + deep + "}").getBytes(StandardCharsets.UTF_8));
                assertRefused(project, token, "USER_TOKEN_CLAIMS");
                assertThat(feed(project.apiKey, bearer(token)).object().getString("error"),
                           containsString("nested more than 32 levels deep"));
            }
        }
    }

    /**
     * Claims or a header that is a JSON object with something after it ({@code {"sub":"alice"}{"sub":"mallory"}}) were
     * taken for no token at all: the anonymous feed served and the click stored anonymously where no token is required
     * (an outside test). They are refused; claims whose object never closes are no token, ignored as before.
     */
    @Test
    void aTokenWithSomethingAfterItsClaimsOrHeaderIsRefusedNeverIgnored() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        String notification = admin.created("/projects/" + project.id + "/notifications",
                                            "{\"message\":\"hello\",\"status\":\"PUBLISHED\"}").getString("id");
        String claims = "{\"sub\":\"alice\",\"aud\":\"" + project.id + "\",\"iat\":" + NOW + ",\"exp\":" + (NOW + 600)
                + ",\"attrs\":{\"plan\":\"pro\"}}";
        String header = "{\"alg\":\"HS256\",\"kid\":\"" + hs.kid() + "\"}";
        for (String after : List.of("{\"sub\":\"mallory\"}", "x", "}", "]", "\u0000")) {
            String claimsAfter = hs.tokenOf((claims + after).getBytes(StandardCharsets.UTF_8));
            assertRefused(project, claimsAfter, "USER_TOKEN_CLAIMS");
            assertThat(feed(project.apiKey, bearer(claimsAfter)).object().getString("error"),
                       containsString("something after it"));
            assertThat(track(notification, bearer(claimsAfter)).code(), is("USER_TOKEN_CLAIMS"));
            String headerAfter = HandMadeTokens.signAsWritten(SigningKey.hmac(hs.secret()), header + after, claims);
            assertRefused(project, headerAfter, "USER_TOKEN_MALFORMED");
            assertThat(track(notification, bearer(headerAfter)).code(), is("USER_TOKEN_MALFORMED"));
        }
        String neverClosed = hs.tokenOf(("{\"x\":" + "[".repeat(5000)).getBytes(StandardCharsets.UTF_8));
        assertThat(feed(project.apiKey, bearer(neverClosed)), is(feed(project.apiKey, null)));
        assertThat(track(notification, bearer(neverClosed)).status, is(204));
    }

    @Test
    void unknownRevokedAndOtherProjectsKidsGetOneAnswer() {
        Project project = project(false);
        Project other = project(false);
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        JsonObject revoked = hs256(project);
        String revokedToken = TokenMint.hs256(revoked.getString("kid"), secret(revoked), claims);
        assertThat(feed(project.apiKey, bearer(revokedToken)).status, is(200));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + revoked.getString("kid")).status(), is(204));
        JsonObject others = hs256(other);

        String unknown = feed(project.apiKey, bearer(TokenMint.hs256("AAAAAAAAAAAAAAAAAAAAAA", secret(revoked), claims)))
                .body;
        assertThat(unknown, is("{\"error\":\"No active token key of this project has the token's kid\","
                + "\"code\":\"USER_TOKEN_KEY_UNKNOWN\"}"));
        assertThat("revoked: at once, and as if unknown", feed(project.apiKey, bearer(revokedToken)).body, is(unknown));
        assertThat(feed(project.apiKey, bearer(TokenMint.hs256(others.getString("kid"), secret(others), claims))).body,
                   is(unknown));
        JsonObject listed = admin.call(Method.GET, "/projects/" + project.id + "/token-keys").array().getJsonObject(0);
        assertThat(listed.getString("revokedAt"), is("2026-11-22T10:00:00.000Z"));
        assertRefused(project, TokenMint.hs256(null, secret(others), claims), "USER_TOKEN_KEY_UNKNOWN");
    }

    @Test
    void twoActiveKeysWorkAtOnceForRotation() {
        Project project = project(false);
        JsonObject old = hs256(project);
        KeyPair p256 = TokenMint.p256();
        JsonObject next = key(project, "{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwk(p256) + "}");
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        String oldToken = TokenMint.hs256(old.getString("kid"), secret(old), claims);
        String nextToken = TokenMint.es256(next.getString("kid"), p256, claims);
        assertThat(feed(project.apiKey, bearer(oldToken)).status, is(200));
        assertThat(feed(project.apiKey, bearer(nextToken)).status, is(200));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + old.getString("kid")).status(), is(204));
        assertRefused(project, oldToken, "USER_TOKEN_KEY_UNKNOWN");
        assertThat(feed(project.apiKey, bearer(nextToken)).status, is(200));
    }

    /** A client polling with the same token is verified once; the figures say so (/observe/metrics). */
    @Test
    void aPollingClientsTokenIsVerifiedOnce() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        String token = hs.token(TokenMint.claims(project.id, NOW).subject("polling").build());
        TokenCacheFigures before = herald.services().userTokens().cacheFigures();
        for (int poll = 0; poll < 5; poll++) {
            assertThat(feed(project.apiKey, bearer(token)).status, is(200));
        }
        TokenCacheFigures after = herald.services().userTokens().cacheFigures();
        assertThat("verified once", after.verifications() - before.verifications(), is(1L));
        assertThat("then found four times", after.hits() - before.hits(), is(4L));
        assertThat(after.entries(), greaterThan(0));
    }

    @Test
    void timesAreCheckedWithTheClockSkew() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW - 7200)
                .expirationTime(date(NOW - 61)).build()), "USER_TOKEN_EXPIRED");
        assertThat("within the skew", feed(project.apiKey, bearer(hs.token(TokenMint
                .claims(project.id, NOW - 7200).expirationTime(date(NOW - 59)).build()))).status, is(200));
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW)
                .notBeforeTime(date(NOW + 61)).build()), "USER_TOKEN_NOT_YET_VALID");
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW + 61)
                .expirationTime(date(NOW + 3600)).build()), "USER_TOKEN_NOT_YET_VALID");
        assertThat(feed(project.apiKey, bearer(hs.token(TokenMint.claims(project.id, NOW)
                .notBeforeTime(date(NOW + 59)).build()))).status, is(200));

        String cached = hs.token(TokenMint.claims(project.id, NOW).build());
        assertThat(feed(project.apiKey, bearer(cached)).status, is(200));
        herald.clock().advance(java.time.Duration.ofSeconds(3600 + 61));
        assertThat("a token verified before expires all the same", feed(project.apiKey, bearer(cached)).status,
                   is(401));
    }

    @Test
    void lifetimesOverTheCapAreRefused() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW)
                .expirationTime(date(NOW + 24 * 3600 + 1)).build()), "USER_TOKEN_LIFETIME");
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW).issueTime(null)
                .expirationTime(date(NOW + 24 * 3600 + 1)).build()), "USER_TOKEN_LIFETIME");
        assertThat(feed(project.apiKey, bearer(hs.token(TokenMint.claims(project.id, NOW)
                .expirationTime(date(NOW + 24 * 3600)).build()))).status, is(200));
    }

    @Test
    void theAudienceMustNameTheProject() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        assertRefused(project, hs.token(TokenMint.claims("another", NOW).build()),
                      "USER_TOKEN_AUDIENCE");
        assertRefused(project, hs.token(TokenMint.claims(project.id, NOW).audience((String) null)
                .build()), "USER_TOKEN_AUDIENCE");
        assertThat(feed(project.apiKey, bearer(hs.token(TokenMint.claims(project.id, NOW)
                .audience(List.of("other", project.id)).build()))).status, is(200));
    }

    /** Headers that are no user token at all: another scheme, or a bearer that is not a compact JWS. */
    private static final List<String> NOT_TOKENS = List.of(
            "Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Bearer abc", "Bearer a.b.c",
            "Bearer " + TokenMint.encode("{\"alg\":\"HS256\"") + ".e30.AA",
            "Bearer " + TokenMint.encode("{\"alg\":\"HS256\"}") + ".bm90IGpzb24.AA", "garbage");

    @Test
    void malformedTokensAndHeadersAreRefusedWhereATokenIsRequired() {
        Project project = project(true);
        JsonObject hs = hs256(project);
        for (String authorization : NOT_TOKENS) {
            assertThat(authorization, feed(project.apiKey, authorization).code(), is("USER_TOKEN_MALFORMED"));
        }
        assertOversizedRefused(project, hs);
    }

    /**
     * An application's own bearer, added to every request by a fetch wrapper, never cost its users the feed before
     * user tokens: where no token is required, what is no token at all gets the anonymous answer, byte for byte. A
     * token too large to be read is still refused: it is one, and the developer must hear of it.
     */
    @Test
    void headersThatAreNoTokenAtAllGetTheAnonymousFeedWhereNoneIsRequired() {
        Project project = project(false);
        JsonObject hs = hs256(project);
        Answer anonymous = feed(project.apiKey, null);
        assertThat(anonymous.status, is(200));
        for (String authorization : NOT_TOKENS) {
            assertThat(authorization, feed(project.apiKey, authorization), is(anonymous));
        }
        assertOversizedRefused(project, hs);
    }

    private void assertOversizedRefused(Project project, JsonObject hs) {
        JWTClaimsSet padded = TokenMint.claims(project.id, NOW).claim("pad", "x".repeat(6200)).build();
        String oversized = TokenMint.hs256(hs.getString("kid"), secret(hs), padded);
        assertThat(oversized.length() > 8192, is(true));
        assertRefused(project, oversized, "USER_TOKEN_MALFORMED");
    }

    @Test
    void claimsOutOfBoundsAreRefusedNamingTheClaim() {
        Project project = project(false);
        HsKey hs = new HsKey(hs256(project));
        Map<String, JWTClaimsSet> refused = new HashMap<>();
        refused.put("sub", TokenMint.claims(project.id, NOW).subject(null).build());
        refused.put("sub ", TokenMint.claims(project.id, NOW).subject("u".repeat(257)).build());
        refused.put("exp", TokenMint.claims(project.id, NOW).expirationTime(null).build());
        refused.put("locale", TokenMint.claims(project.id, NOW).claim("locale", "x".repeat(36)).build());
        // Found by an outside test: a registered claim of the wrong type made the token "no token", served anonymously.
        refused.put("exp ", TokenMint.claims(project.id, NOW).claim("exp", "tomorrow").build());
        refused.put("iat", TokenMint.claims(project.id, NOW).claim("iat", "today").build());
        refused.put("nbf", TokenMint.claims(project.id, NOW).claim("nbf", List.of(1)).build());
        // An exp of 2^64 ms / 1000 + 10 minutes wrapped to now + 10 minutes when read as milliseconds.
        refused.put("exp  ", TokenMint.claims(project.id, NOW).claim("exp", 18_446_745_869_725_056L).build());
        refused.put("nbf ", TokenMint.claims(project.id, NOW).claim("nbf", 10_000_000_000_000_000L).build());
        refused.put("attrs", TokenMint.claims(project.id, NOW).claim("attrs", "plan=pro").build());
        Map<String, Object> many = new HashMap<>();
        IntStream.range(0, 51).forEach(i -> many.put("a" + i, i));
        refused.put("attrs ", TokenMint.claims(project.id, NOW).claim("attrs", many).build());
        refused.put("attrs.deep", TokenMint.claims(project.id, NOW).claim("attrs", Map.of("deep", Map.of("x", 1)))
                .build());
        refused.put("attrs.long", TokenMint.claims(project.id, NOW).claim("attrs", Map.of("long", "x".repeat(257)))
                .build());
        refused.put("attrs.list", TokenMint.claims(project.id, NOW).claim("attrs", Map.of("list", List.of(1, 2)))
                .build());
        refused.put("attrs.many", TokenMint.claims(project.id, NOW).claim("attrs", Map.of("many",
                IntStream.range(0, 51).mapToObj(String::valueOf).toList())).build());
        refused.put("attrs: a member's name", TokenMint.claims(project.id, NOW).claim("attrs", Map.of("bad name", 1))
                .build());
        refused.forEach((claim, claims) -> {
            Answer answer = feed(project.apiKey, bearer(hs.token(claims)));
            assertThat(claim, answer.status, is(401));
            assertThat(claim, answer.code(), is("USER_TOKEN_CLAIMS"));
            assertThat(claim, answer.object().getString("error"), containsString(claim.strip()));
        });
    }

    @Test
    void aKeyThatRequiresATokenRefusesRequestsWithoutOne() {
        Project project = project(true);
        JsonObject hs = hs256(project);
        Answer without = feed(project.apiKey, null);
        assertThat(without.status, is(401));
        assertThat(without.body, is("{\"error\":\"This API key requires a user token: send Authorization: Bearer "
                + "<token>\",\"code\":\"USER_TOKEN_REQUIRED\"}"));
        assertThat(feed(project.apiKey, bearer(TokenMint.hs256(hs.getString("kid"), secret(hs),
                TokenMint.claims(project.id, NOW).build()))).status, is(200));

        AdminClient.Answer patched = admin.call(Method.PATCH, "/api-keys/" + project.apiKey,
                                                "{\"requireUserToken\":false}");
        assertThat(patched.status(), is(200));
        assertThat(patched.object().getBoolean("requireUserToken"), is(false));
        assertThat("at once", feed(project.apiKey, null).status, is(200));
    }

    // Tracking

    @Test
    void trackingRefusesABadTokenInItsOwnShapeAndIgnoresWhatIsNoToken() {
        Project project = project(false);
        JsonObject hs = hs256(project);
        String notification = admin.created("/projects/" + project.id + "/notifications",
                                            "{\"message\":\"hello\",\"status\":\"PUBLISHED\"}").getString("id");
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        assertThat(track(notification, bearer(TokenMint.hs256(hs.getString("kid"), secret(hs), claims))).status,
                   is(204));
        assertThat(track(notification, null).status, is(204));
        assertThat("not a JWS: ignored as before", track(notification, "Bearer some.jwt.token").status, is(204));
        byte[] wrong = secret(hs);
        wrong[1] ^= 1;
        Answer refused = track(notification, bearer(TokenMint.hs256(hs.getString("kid"), wrong, claims)));
        assertThat(refused.status, is(401));
        assertThat(refused.object().keySet(), is(Set.of("message", "code")));
        assertThat(refused.code(), is("USER_TOKEN_SIGNATURE"));

        Project other = project(false);
        JsonObject others = hs256(other);
        Answer otherProject = track(notification, bearer(TokenMint.hs256(others.getString("kid"), secret(others),
                TokenMint.claims(other.id, NOW).build())));
        assertThat(otherProject.status, is(401));
        assertThat("another project's kid is not this notification's project's", otherProject.code(),
                   is("USER_TOKEN_KEY_UNKNOWN"));
    }

    @Test
    void trackingAnswersUnknownRevokedAndOtherProjectsKidsAlike() {
        Project project = project(false);
        String notification = admin.created("/projects/" + project.id + "/notifications",
                                            "{\"message\":\"hello\",\"status\":\"PUBLISHED\"}").getString("id");
        JWTClaimsSet claims = TokenMint.claims(project.id, NOW).build();
        JsonObject revoked = hs256(project);
        String revokedToken = TokenMint.hs256(revoked.getString("kid"), secret(revoked), claims);
        assertThat(track(notification, bearer(revokedToken)).status, is(204));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + revoked.getString("kid")).status(), is(204));

        Answer unknown = track(notification, bearer(TokenMint.hs256("AAAAAAAAAAAAAAAAAAAAAA", secret(revoked), claims)));
        assertThat(unknown.status, is(401));
        assertThat(unknown.body, is("{\"message\":\"No active token key of this project has the token's kid\","
                + "\"code\":\"USER_TOKEN_KEY_UNKNOWN\"}"));
        assertThat("revoked", track(notification, bearer(revokedToken)).body, is(unknown.body));

        Project other = project(false);
        JWTClaimsSet othersClaims = TokenMint.claims(other.id, NOW).build();
        JsonObject othersHs = hs256(other);
        byte[] wrong = secret(othersHs);
        wrong[0] ^= 1;
        KeyPair p256 = TokenMint.p256();
        JsonObject othersEs = key(other, "{\"algorithm\":\"ES256\",\"publicKey\":" + TokenMint.jwk(p256) + "}");
        JWTClaimsSet expired = TokenMint.claims(other.id, NOW - 7200).build();
        Map<String, String> othersTokens = Map.of(
                "valid for its own project", TokenMint.hs256(othersHs.getString("kid"), secret(othersHs), othersClaims),
                "bad signature", TokenMint.hs256(othersHs.getString("kid"), wrong, othersClaims),
                "ES256 kid under HS256", TokenMint.hs256(othersEs.getString("kid"), secret(othersHs), othersClaims),
                "expired", TokenMint.es256(othersEs.getString("kid"), p256, expired));
        othersTokens.forEach((what, token) -> assertThat(what, track(notification, bearer(token)).body,
                                                         is(unknown.body)));
    }

    // Helpers

    private record Project(String id, String apiKey) {
    }

    record Answer(int status, String body) {
        JsonObject object() {
            return JsonBodies.object(body);
        }

        String code() {
            return status == 401 ? object().getString("code") : "status " + status;
        }
    }

    /** An HS256 key as its creation answered it, and the tokens it signs. */
    private record HsKey(String kid, byte[] secret) {
        HsKey(JsonObject created) {
            this(created.getString("kid"), UserTokensContract.secret(created));
        }

        String token(JWTClaimsSet claims) {
            return TokenMint.hs256(kid, secret, claims);
        }

        /** Claims as bytes, signed as they are: what no JWT library writes. */
        String tokenOf(byte[] claims) {
            return HandMadeTokens.signBytes(SigningKey.hmac(secret), ("{\"alg\":\"HS256\",\"kid\":\"" + kid + "\"}")
                    .getBytes(StandardCharsets.UTF_8), claims);
        }
    }

    private Project project(boolean requireUserToken) {
        String id = admin.created("/projects", "{\"name\":\"tokens\"}").getString("id");
        String key = admin.created("/projects/" + id + "/api-keys", "{\"requireUserToken\":" + requireUserToken + "}")
                .getString("key");
        return new Project(id, key);
    }

    private JsonObject hs256(Project project) {
        return key(project, "{\"algorithm\":\"HS256\"}");
    }

    private JsonObject key(Project project, String body) {
        return admin.created("/projects/" + project.id + "/token-keys", body);
    }

    private static byte[] secret(JsonObject key) {
        return Base64.getUrlDecoder().decode(key.getString("secret"));
    }

    private static String bearer(String token) {
        return "Bearer " + token;
    }

    private static Date date(long seconds) {
        return new Date(seconds * 1000);
    }

    private static String quoted(String text) {
        return jakarta.json.Json.createValue(text).toString();
    }

    private void assertRefused(Project project, String token, String code) {
        Answer answer = feed(project.apiKey, bearer(token));
        assertThat(token, answer.status, is(401));
        assertThat(answer.object().keySet(), is(Set.of("error", "code")));
        assertThat(answer.code(), is(code));
    }

    private Answer feed(String apiKey, String authorization) {
        Http1ClientRequest request = http.get("/api/v1/public/" + apiKey + "/notifications");
        if (authorization != null) {
            request.header(HeaderNames.AUTHORIZATION, authorization);
        }
        try (Http1ClientResponse response = request.request()) {
            return new Answer(response.status().code(), response.as(String.class));
        }
    }

    private Answer track(String notification, String authorization) {
        Http1ClientRequest request = http.post("/api/v1/public/track/" + notification)
                .header(HeaderNames.CONTENT_TYPE, "application/json");
        if (authorization != null) {
            request.header(HeaderNames.AUTHORIZATION, authorization);
        }
        try (Http1ClientResponse response = request.submit("{\"type\":\"impression\"}")) {
            return new Answer(response.status().code(), response.entity().hasEntity() ? response.as(String.class) : "");
        }
    }
}
