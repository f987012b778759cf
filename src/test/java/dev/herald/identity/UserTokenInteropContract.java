package dev.herald.identity;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;
import dev.herald.support.TokenLibraries;
import dev.herald.support.TokenLibrary;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.isEmptyString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 31 point 2: user tokens minted by code Herald did not write (npm jose and jsonwebtoken, PyJWT; the scripts
 * of src/test/interop) are accepted on Get Notifications, for every algorithm Herald and the library both do, and
 * the same libraries' tokens with each defect are refused with the defect's code (docs/identity.md
 * #interoperability). The key requires a token, so a 200 is a token Herald verified, not an anonymous answer.
 * One script run per library: its tokens are minted in one batch on its first test, then each is one test.
 */
abstract class UserTokenInteropContract extends HeraldServerTest {

    private static final List<String> ALGORITHMS = List.of("HS256", "ES256", "EdDSA");
    /** Herald's clock for the whole class, so every token's times mean the same at any test. */
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final Map<TokenLibrary, Batch> BATCHES = new EnumMap<>(TokenLibrary.class);

    private final Http1Client client;
    private final AdminClient admin;

    /** The subclass's {@code @SetUpServer}: the management API registers the keys. */
    static void startWithAdminToken(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    UserTokenInteropContract(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    @AfterAll
    static void forgetBatches() {
        BATCHES.clear();
    }

    @BeforeEach
    void clockAtTheBatchesInstant() {
        herald.clock().set(NOW);
    }

    /** Every library, algorithm and case: the library's whole batch is minted on its first case. */
    static Stream<Arguments> cases() {
        return Stream.of(TokenLibrary.values()).flatMap(library -> ALGORITHMS.stream()
                .filter(alg -> signs(library, alg))
                .flatMap(alg -> Stream.of(TokenCase.values()).filter(tokenCase -> tokenCase.appliesTo(alg))
                        .map(tokenCase -> Arguments.of(library, alg, tokenCase))));
    }

    @ParameterizedTest
    @EnumSource(TokenLibrary.class)
    void withoutATokenTheKeyAnswersUserTokenRequiredSoA200IsAVerifiedToken(TokenLibrary library) {
        assertRefused(library + " key", get(batch(library).apiKey(), null), "USER_TOKEN_REQUIRED");
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void aTokenMintedByTheLibraryIsAnsweredWithItsCase(TokenLibrary library, String alg, TokenCase tokenCase) {
        Batch batch = batch(library);
        JsonObject answer = batch.answer(alg, tokenCase);
        String refusal = expectedRefusal(library, alg, tokenCase);
        String token;
        String what = library + " " + alg + " " + tokenCase;
        if (refusal == null) {
            assertThat(what + ": the library refused it: " + answer, answer.containsKey("token"), is(true));
            token = answer.getString("token");
            assertMintedAsAsked(what, token, batch.spec(alg, tokenCase), library);
        } else {
            // Still refused: were a new version to make it, expectedRefusal and docs/identity.md would be out of date.
            assertThat(library + " now makes " + tokenCase + " " + alg + ": update expectedRefusal and docs/identity.md",
                       answer.containsKey("refused"), is(true));
            assertThat(answer.getString("refused"), startsWith(refusal));
            token = batch.spec(alg, tokenCase).handMade();
        }
        Answer response = get(batch.apiKey(), token);
        if (tokenCase.code() == null) {
            assertThat(what + ": " + response.body(), response.status(), is(200));
            assertThat(JsonBodies.array(response.body()).getJsonObject(0).getString("id"), is(batch.notificationId()));
        } else {
            assertRefused(what, response, tokenCase.code());
        }
    }

    /**
     * The harness's own check: the library signed exactly the claims and header asked for (jsonwebtoken, for one,
     * adds or deletes iat unless handled), so each case tests the defect it names.
     */
    private static void assertMintedAsAsked(String what, String token, TokenSpec spec, TokenLibrary library) {
        String[] parts = token.split("\\.", -1);
        assertThat(what + ": " + token, parts.length, is(3));
        JsonObject header = JsonBodies.object(new String(Base64.getUrlDecoder().decode(parts[0]), UTF_8));
        JsonObject claims = JsonBodies.object(new String(Base64.getUrlDecoder().decode(parts[1]), UTF_8));
        assertThat(what + ": claims", claims, is(spec.claims()));
        assertThat(what + ": alg", header.getString("alg"), is(spec.signer().alg()));
        // jose's UnsecuredJWT writes {"alg":"none"} and nothing else: its alg-none token has no kid.
        boolean keepsHeader = !(library == TokenLibrary.JOSE && "none".equals(spec.signer().alg()));
        if (keepsHeader) {
            spec.header().forEach((name, value) -> assertThat(what + ": header " + name, header.get(name), is(value)));
        }
    }

    static Stream<Arguments> librariesAndAlgorithms() {
        return Stream.of(TokenLibrary.values()).flatMap(library -> ALGORITHMS.stream()
                .filter(alg -> signs(library, alg)).map(alg -> Arguments.of(library, alg)));
    }

    /** Issue 31: the answer tells no more about which keys exist than an unknown kid's does. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("librariesAndAlgorithms")
    void anUnknownARevokedAndAnotherProjectsKidGetOneAnswer(TokenLibrary library, String alg) {
        Batch batch = batch(library);
        List<Answer> answers = Stream.of(TokenCase.UNKNOWN_KID, TokenCase.REVOKED_KID, TokenCase.OTHER_PROJECTS_KID)
                .map(tokenCase -> get(batch.apiKey(), batch.answer(alg, tokenCase).getString("token"))).toList();
        assertRefused(library + " " + alg + " unknown kid", answers.getFirst(), "USER_TOKEN_KEY_UNKNOWN");
        assertThat(answers.get(1), is(answers.getFirst()));
        assertThat(answers.get(2), is(answers.getFirst()));
    }

    @Test
    void jsonwebtokenDoesNotSignEdDsa() {
        TokenSpec spec = new TokenSpec(SigningKey.fresh("EdDSA"), JsonValue.EMPTY_JSON_OBJECT,
                                       Json.createObjectBuilder().add("sub", "user-42").build());
        JsonObject answer = TokenLibraries.mint(TokenLibrary.JSONWEBTOKEN, List.of(spec.toJson(TokenLibrary.JSONWEBTOKEN)))
                .getFirst();
        assertThat(answer.toString(), answer.getString("refused", ""),
                   is("Error: \"algorithm\" must be a valid string enum value"));
    }

    /** Algorithms a library does not sign with at all (asserted by jsonwebtokenDoesNotSignEdDsa). */
    private static boolean signs(TokenLibrary library, String alg) {
        // jsonwebtoken 9 knows HS*, RS*, PS*, ES* and none; no EdDSA.
        return !(library == TokenLibrary.JSONWEBTOKEN && "EdDSA".equals(alg));
    }

    /**
     * A defect a library will not make, with the start of its refusal: the token is then made by hand
     * (HandMadeTokens) so Herald's answer to it is still tested. Null when the library makes it.
     */
    private static String expectedRefusal(TokenLibrary library, String alg, TokenCase tokenCase) {
        if (library == TokenLibrary.JSONWEBTOKEN && tokenCase == TokenCase.OTHER_ALGORITHM && "ES256".equals(alg)) {
            return "Error: \"algorithm\" must be a valid string enum value"; // the other algorithm is EdDSA
        }
        if (library == TokenLibrary.PYJWT && tokenCase == TokenCase.ALGORITHM_CONFUSION) {
            return "InvalidKeyError: The specified key is an asymmetric key or x509 certificate and should not be "
                    + "used as an HMAC secret.";
        }
        return null;
    }

    /** How a library's keys are written, so that each algorithm is registered both as JWK and as PEM. */
    private static SigningKey.Format format(TokenLibrary library, String alg) {
        return switch (library) {
            case JOSE -> "EdDSA".equals(alg) ? SigningKey.Format.PEM : SigningKey.Format.JWK;
            case JSONWEBTOKEN -> SigningKey.Format.PEM;
            case PYJWT -> "EdDSA".equals(alg) ? SigningKey.Format.JWK : SigningKey.Format.PEM;
        };
    }

    private Batch batch(TokenLibrary library) {
        Batch made = BATCHES.get(library);
        if (made == null) {
            made = mint(library);
            BATCHES.put(library, made);
        }
        return made;
    }

    /** A project whose key requires a token, its keys registered, and every token of the library minted at once. */
    private Batch mint(TokenLibrary library) {
        Project project = herald.project();
        Project other = herald.project();
        Notification notification = herald.notification(project).save();
        String apiKey = admin.created("/projects/" + project.id() + "/api-keys", "{\"requireUserToken\":true}")
                .getString("key");
        Map<String, TokenSpec> specs = new LinkedHashMap<>();
        for (String alg : ALGORITHMS) {
            if (!signs(library, alg)) {
                continue;
            }
            SigningKey.Format format = format(library, alg);
            RegisteredKey revoked = register(project, alg, format);
            assertThat(admin.call(Method.DELETE, "/token-keys/" + revoked.kid()).status(), is(204));
            TokenCase.Setting setting = new TokenCase.Setting(NOW.getEpochSecond(), project.id(), other.id(),
                                                              register(project, alg, format), revoked,
                                                              register(other, alg, format));
            for (TokenCase tokenCase : TokenCase.values()) {
                if (tokenCase.appliesTo(alg)) {
                    specs.put(Batch.name(alg, tokenCase), tokenCase.spec(setting));
                }
            }
        }
        List<JsonObject> answers = TokenLibraries.mint(library, specs.values().stream()
                .map(spec -> spec.toJson(library)).toList());
        Map<String, JsonObject> byName = new LinkedHashMap<>();
        int i = 0;
        for (String name : specs.keySet()) {
            byName.put(name, answers.get(i++));
        }
        return new Batch(apiKey, notification.id(), specs, byName);
    }

    private RegisteredKey register(Project project, String alg, SigningKey.Format format) {
        String path = "/projects/" + project.id() + "/token-keys";
        if ("HS256".equals(alg)) {
            JsonObject created = admin.created(path, "{\"algorithm\":\"HS256\"}");
            byte[] secret = Base64.getUrlDecoder().decode(created.getString("secret"));
            return new RegisteredKey(created.getString("kid"), SigningKey.hmac(secret), null);
        }
        var pair = KeyMaterial.generate(alg);
        JsonValue publicKey = format == SigningKey.Format.PEM
                ? Json.createValue(KeyMaterial.publicPem(pair))
                : KeyMaterial.publicJwk(pair);
        JsonObject created = admin.created(path, Json.createObjectBuilder().add("algorithm", alg)
                .add("publicKey", publicKey).build().toString());
        assertThat(created.getString("algorithm"), is(alg));
        return new RegisteredKey(created.getString("kid"), SigningKey.of(alg, pair, format), pair);
    }

    private Answer get(String apiKey, String token) {
        Http1ClientRequest request = client.get("/api/v1/public/" + apiKey + "/notifications");
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        try (Http1ClientResponse response = request.request()) {
            return new Answer(response.status().code(), response.as(String.class));
        }
    }

    private static void assertRefused(String what, Answer response, String code) {
        String reason = what + ": " + response.body();
        assertThat(reason, response.status(), is(401));
        JsonObject body = JsonBodies.object(response.body());
        assertThat(reason, body.getString("code"), is(code));
        assertThat(reason, body.getString("error"), not(isEmptyString()));
    }

    /** A library's tokens: what each was asked for and what the library answered, by algorithm and case. */
    private record Batch(String apiKey, String notificationId, Map<String, TokenSpec> specs,
                         Map<String, JsonObject> answers) {

        static String name(String alg, TokenCase tokenCase) {
            return alg + " " + tokenCase;
        }

        TokenSpec spec(String alg, TokenCase tokenCase) {
            return specs.get(name(alg, tokenCase));
        }

        JsonObject answer(String alg, TokenCase tokenCase) {
            return answers.get(name(alg, tokenCase));
        }
    }

    private record Answer(int status, String body) {
    }
}
