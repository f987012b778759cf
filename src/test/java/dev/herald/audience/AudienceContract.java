package dev.herald.audience;

import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.herald.account.Accounts;
import dev.herald.apikey.ApiKey;
import dev.herald.feed.FeedAnswer;
import dev.herald.feed.FeedCacheFigures;
import dev.herald.identity.UserIdentity;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;

/**
 * Audience rules through the management API and in the feed (docs/api.md#audience): kept by every write that carries
 * content, refused with the path of each mistake, asked about with pasted claims, and served only to users whose
 * claims match, from answers kept per set of matches. Run against each database by a subclass.
 */
abstract class AudienceContract extends HeraldServerTest {

    static final String PRO = "{\"attribute\":\"plan\",\"operator\":\"equals\",\"value\":\"pro\"}";
    static final String BETA = "{\"attribute\":\"beta\",\"operator\":\"equals\",\"value\":true}";

    private final Http1Client client;
    private final AdminClient admin;

    AudienceContract(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        Map<String, String> settings = new HashMap<>(Accounts.settings());
        // As FeedCacheContract: the log read rarely, so that the cache is fresh for the whole of a test on a slow
        // machine; this instance's own writes reach it at once whatever the bound.
        settings.put("feed.cache.max-staleness", "PT30S");
        startServer(database, server, settings);
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    // --- management API -------------------------------------------------------------------------------------

    @Test
    void createPatchDraftVersionsDuplicateAndRestoreCarryTheAudience() {
        String project = project();
        JsonObject created = admin.created("/projects/" + project + "/notifications",
                                           "{\"message\":\"for pro\",\"audience\":" + PRO + "}");
        String id = created.getString("id");
        assertThat(created.get("audience"), is(json(PRO)));
        assertThat(get("/notifications/" + id).get("audience"), is(json(PRO)));

        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"audience\":" + BETA + "}").status(), is(200));
        assertThat(get("/notifications/" + id).get("audience"), is(json(BETA)));
        JsonObject line = admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0);
        assertThat(line.getString("action"), is("notification.updated"));
        assertThat(line.getJsonObject("details").getJsonObject("audience"),
                   is(JsonBodies.object("{\"from\":" + PRO + ",\"to\":" + BETA + "}")));
        JsonArray versions = admin.call(Method.GET, "/notifications/" + id + "/versions").array();
        assertThat(versions.getJsonObject(0).getJsonObject("content").get("audience"), is(json(BETA)));
        assertThat(versions.getJsonObject(1).getJsonObject("content").get("audience"), is(json(PRO)));

        assertThat(admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"audience\":null}").status(), is(200));
        assertThat(get("/notifications/" + id + "/draft").getJsonObject("changes").get("audience"),
                   is(JsonValue.NULL));
        assertThat("a draft changes nothing yet", get("/notifications/" + id).get("audience"), is(json(BETA)));

        AdminClient.Answer copy = admin.call(Method.POST, "/notifications/" + id + "/duplicate");
        assertThat(copy.status(), is(201));
        assertThat(copy.object().get("audience"), is(json(BETA)));

        assertThat(admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore").status(), is(200));
        assertThat(get("/notifications/" + id).get("audience"), is(json(PRO)));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"audience\":null}").status(), is(200));
        assertThat(get("/notifications/" + id).get("audience"), is(JsonValue.NULL));
    }

    @Test
    void aNotificationForEveryoneShowsANullAudienceAndItsVersionsNone() {
        String id = admin.created("/projects/" + project() + "/notifications", "{\"message\":\"all\"}").getString("id");
        assertThat(get("/notifications/" + id).get("audience"), is(JsonValue.NULL));
        JsonObject content = admin.call(Method.GET, "/notifications/" + id + "/versions/1").object()
                .getJsonObject("content");
        assertThat(content.containsKey("audience"), is(false));
    }

    @Test
    void everyMistakeIsA400NamingItsPath() {
        String project = project();
        assertRefused(Method.POST, "/projects/" + project + "/notifications",
                      "{\"message\":\"m\",\"audience\":{\"all\":[" + PRO + "," + BETA
                              + ",{\"attribute\":\"plan\",\"operator\":\"is\",\"value\":1}]}}",
                      "audience.all[2].operator");
        String id = admin.created("/projects/" + project + "/notifications", "{\"message\":\"m\"}").getString("id");
        assertRefused(Method.PATCH, "/notifications/" + id,
                      "{\"audience\":{\"any\":[{\"not\":{\"attribute\":\"seats\",\"operator\":\"atLeast\","
                              + "\"value\":\"3\"}}]}}", "audience.any[0].not.value");
        assertRefused(Method.PUT, "/notifications/" + id + "/draft", "{\"audience\":{\"rollout\":150}}",
                      "audience.rollout");
        assertRefused(Method.PATCH, "/notifications/" + id, "{\"audience\":\"pro\"}", "audience");
        assertThat(get("/notifications/" + id).get("audience"), is(JsonValue.NULL));
    }

    @Test
    void wouldThisUserSeeItAnswersEachConditionAndAViewerMayAsk() {
        String id = admin.created("/projects/" + project() + "/notifications",
                                  "{\"message\":\"m\",\"audience\":{\"all\":[" + PRO + "," + BETA + "]}}")
                .getString("id");
        JsonObject answer = check(id, "{\"claims\":{\"sub\":\"u1\",\"attrs\":{\"plan\":\"pro\",\"beta\":false}}}",
                                  AdminClient.TOKEN);
        assertThat(answer.getBoolean("matches"), is(false));
        assertThat(answer.getJsonArray("conditions"), is(JsonBodies.array("""
                [{"path":"audience.all[0]","matches":true},{"path":"audience.all[1]","matches":false},
                 {"path":"audience","matches":false}]""")));
        JsonObject asViewer = check(id, "{\"claims\":{\"sub\":\"u1\",\"exp\":1,\"attrs\":{\"plan\":\"pro\","
                + "\"beta\":true}}}", Accounts.VICTOR_TOKEN);
        assertThat(asViewer.getBoolean("matches"), is(true));

        String everyone = admin.created("/projects/" + project() + "/notifications", "{\"message\":\"m\"}")
                .getString("id");
        assertThat(check(everyone, "{\"claims\":{\"sub\":\"u1\"}}", AdminClient.TOKEN),
                   is(JsonBodies.object("{\"matches\":true,\"conditions\":[]}")));
    }

    @Test
    void pastedClaimsAreHeldToATokensBounds() {
        String id = admin.created("/projects/" + project() + "/notifications",
                                  "{\"message\":\"m\",\"audience\":" + PRO + "}").getString("id");
        assertCheckRefused(id, "{\"claims\":{\"attrs\":{}}}", "claims.sub");
        assertCheckRefused(id, "{\"claims\":{\"sub\":\"u\",\"attrs\":{\"plan\":{\"a\":1}}}}", "claims.attrs.plan");
        assertCheckRefused(id, "{\"claims\":{\"sub\":\"u\",\"attrs\":{\"bad name\":1}}}", "claims.attrs.bad name");
        assertCheckRefused(id, "{\"claims\":{\"sub\":\"u\",\"locale\":\"" + "x".repeat(36) + "\"}}", "claims.locale");
        assertCheckRefused(id, "{\"claims\":{\"sub\":\"u\",\"attrs\":{\"tags\":[1]}}}", "claims.attrs.tags[0]");
    }

    // --- the feed -------------------------------------------------------------------------------------------

    @Test
    void aRequestWithoutATokenGetsTheSameBytesWhateverIsTargeted() {
        String[] projectAndKey = projectWithKey();
        String everyone = publish(projectAndKey[0], null);
        byte[] before = publicFeed(projectAndKey[1]);
        String targeted = publish(projectAndKey[0], PRO);
        byte[] after = publicFeed(projectAndKey[1]);
        assertThat(new String(after), is(new String(before)));
        assertThat(new String(after), containsString(everyone));
        assertThat(new String(after), not(containsString(targeted)));
    }

    @Test
    void aUserSeesWhatIsForEveryoneAndWhatTheyMatchInTheKeysOrder() {
        String[] projectAndKey = projectWithKey();
        String first = publish(projectAndKey[0], null);
        herald.clock().set(START.plusSeconds(1));
        String forPro = publish(projectAndKey[0], PRO);
        herald.clock().set(START.plusSeconds(2));
        String forBeta = publish(projectAndKey[0], BETA);
        herald.clock().set(START.plusSeconds(3));
        String last = publish(projectAndKey[0], null);
        ApiKey key = key(projectAndKey[1]);

        assertThat(answer(key, user(projectAndKey[0], "u1", Map.of("plan", "pro"))).ids(),
                   contains(last, forPro, first));
        assertThat(answer(key, user(projectAndKey[0], "u2", Map.of("plan", "pro", "beta", true))).ids(),
                   contains(last, forBeta, forPro, first));
        assertThat(answer(key, user(projectAndKey[0], "u3", Map.of("plan", "free"))).ids(), contains(last, first));
        assertThat(answer(key, null).ids(), contains(last, first));
    }

    @Test
    void aUserMatchingNothingGetsTheAnswerForEveryone() {
        String[] projectAndKey = projectWithKey();
        publish(projectAndKey[0], null);
        publish(projectAndKey[0], PRO);
        ApiKey key = key(projectAndKey[1]);
        FeedAnswer anonymous = answer(key, null);
        assertThat(answer(key, user(projectAndKey[0], "u", Map.of("plan", "free"))), is(sameInstance(anonymous)));
    }

    @Test
    void usersMatchingTheSameSetShareOneAnswerAndOtherSetsGetTheirOwn() {
        String[] projectAndKey = projectWithKey();
        publish(projectAndKey[0], null);
        publish(projectAndKey[0], PRO);
        publish(projectAndKey[0], BETA);
        ApiKey key = key(projectAndKey[1]);
        answer(key, null);

        FeedCacheFigures before = figures();
        FeedAnswer ada = answer(key, user(projectAndKey[0], "ada", Map.of("plan", "pro", "seats", 3L)));
        FeedAnswer bob = answer(key, user(projectAndKey[0], "bob", Map.of("plan", "pro", "locale", "fr")));
        FeedCacheFigures shared = figures();
        assertThat(bob, is(sameInstance(ada)));
        assertThat("built once", shared.userBuilds(), is(before.userBuilds() + 1));
        assertThat("then answered from memory", shared.userHits(), is(before.userHits() + 1));
        assertThat("no database read", shared.misses(), is(before.misses()));
        assertThat("counted in the cache's bytes", shared.bytes(), is(before.bytes() + ada.body().length));

        FeedAnswer cyd = answer(key, user(projectAndKey[0], "cyd", Map.of("beta", true)));
        assertThat(cyd.tag(), is(not(ada.tag())));
        assertThat(figures().userBuilds(), is(shared.userBuilds() + 1));
        assertThat(figures().userAnswers(), is(shared.userAnswers() + 1));
    }

    @Test
    void aKeyKeepsABoundedNumberOfAnswersForUsers() {
        String[] projectAndKey = projectWithKey();
        int targeted = 11;
        for (int i = 0; i < targeted; i++) {
            publish(projectAndKey[0], "{\"attribute\":\"f" + i + "\",\"operator\":\"exists\"}");
        }
        ApiKey key = key(projectAndKey[1]);
        answer(key, null);
        FeedCacheFigures before = figures();
        int sets = 1 << targeted;
        for (int set = 1; set < sets && set <= 1100; set++) {
            Map<String, Object> attrs = new HashMap<>();
            for (int i = 0; i < targeted; i++) {
                if ((set & (1 << i)) != 0) {
                    attrs.put("f" + i, true);
                }
            }
            assertThat(answer(key, user(projectAndKey[0], "u" + set, attrs)).ids().size(), is(Integer.bitCount(set)));
        }
        FeedCacheFigures after = figures();
        assertThat("1,100 sets built", after.userBuilds(), is(before.userBuilds() + 1100));
        assertThat("at most 1,024 kept", after.userAnswers() - before.userAnswers() <= 1024, is(true));
        assertThat(after.keys(), is(before.keys()));
    }

    @Test
    void aChangeOfAudienceDropsTheAnswersForUsers() {
        String[] projectAndKey = projectWithKey();
        String targeted = publish(projectAndKey[0], PRO);
        ApiKey key = key(projectAndKey[1]);
        UserIdentity pro = user(projectAndKey[0], "ada", Map.of("plan", "pro"));
        assertThat(answer(key, pro).ids(), contains(targeted));
        long hits = figures().userHits();
        assertThat(answer(key, pro).ids(), contains(targeted));
        assertThat(figures().userHits(), is(hits + 1));

        long kept = figures().userAnswers();
        assertThat(admin.call(Method.PATCH, "/notifications/" + targeted, "{\"audience\":" + BETA + "}").status(),
                   is(200));
        assertThat("dropped with the key's answer", figures().userAnswers(), is(kept - 1));
        assertThat(answer(key, pro).ids(), is(List.of()));
        assertThat(answer(key, user(projectAndKey[0], "bob", Map.of("beta", true))).ids(), contains(targeted));
        assertThat(admin.call(Method.PATCH, "/notifications/" + targeted, "{\"audience\":null}").status(), is(200));
        assertThat("for everyone again", answer(key, null).ids(), contains(targeted));
    }

    @Test
    void noPublicAnswerCarriesARule() {
        String[] projectAndKey = projectWithKey();
        publish(projectAndKey[0], "{\"all\":[{\"attribute\":\"secretPlanName\",\"operator\":\"in\","
                + "\"value\":[\"platinum-internal\"]},{\"rollout\":50}]}");
        ApiKey key = key(projectAndKey[1]);
        UserIdentity platinum = user(projectAndKey[0], "ada", Map.of("secretPlanName", "platinum-internal"));
        // Whichever half of the rollout ada is in, a user of the other half exists among these.
        for (int i = 0; i < 20; i++) {
            UserIdentity user = user(projectAndKey[0], "user-" + i, platinum.attributes());
            String body = new String(answer(key, user).body());
            assertThat(body, not(containsString("secretPlanName")));
            assertThat(body, not(containsString("platinum-internal")));
            assertThat(body, not(containsString("rollout")));
            assertThat(body, not(containsString("audience")));
        }
        String anonymous = new String(publicFeed(projectAndKey[1]));
        assertThat(anonymous, not(containsString("platinum")));
    }

    // --- the feed over HTTP, with real tokens ---------------------------------------------------------------

    @Test
    void overHttpATokenAddsWhatTheUserMatchesAndTheAnswerWithoutOneStaysAsItWas() throws Exception {
        String[] projectAndKey = projectWithKey();
        String everyone = publish(projectAndKey[0], null);
        byte[] before = publicFeed(projectAndKey[1]);
        String forPro = publish(projectAndKey[0], PRO);
        String kidAndSecret = tokenKey(projectAndKey[0]);

        String pro = token(kidAndSecret, projectAndKey[0], "ada", Map.of("plan", "pro"));
        Feed withToken = feed(projectAndKey[1], pro);
        assertThat(withToken.status, is(200));
        assertThat(ids(withToken.body), contains(forPro, everyone));
        assertThat(withToken.body, not(containsString("audience")));
        assertThat(withToken.body, not(containsString("\"plan\"")));
        Feed without = feed(projectAndKey[1], null);
        assertThat("byte for byte", without.body, is(new String(before)));
        assertThat(without.etag, is(not(withToken.etag)));

        Feed free = feed(projectAndKey[1], token(kidAndSecret, projectAndKey[0], "bob", Map.of("plan", "free")));
        assertThat("matching nothing is the answer without a token", free.etag, is(without.etag));
        assertThat("a bad token is refused, never served as anonymous", feed(projectAndKey[1], pro + "x").status,
                   is(401));
    }

    @Test
    void overHttpTwoUsersMatchingTheSameSetShareOneAnswerInMemory() throws Exception {
        String[] projectAndKey = projectWithKey();
        publish(projectAndKey[0], null);
        publish(projectAndKey[0], PRO);
        publish(projectAndKey[0], BETA);
        String kidAndSecret = tokenKey(projectAndKey[0]);
        feed(projectAndKey[1], null);

        FeedCacheFigures before = figures();
        Feed ada = feed(projectAndKey[1], token(kidAndSecret, projectAndKey[0], "ada", Map.of("plan", "pro")));
        Feed bob = feed(projectAndKey[1], token(kidAndSecret, projectAndKey[0], "bob",
                                                Map.of("plan", "pro", "seats", 4)));
        Feed cyd = feed(projectAndKey[1], token(kidAndSecret, projectAndKey[0], "cyd", Map.of("beta", true)));
        FeedCacheFigures after = figures();
        assertThat(bob.etag, is(ada.etag));
        assertThat(cyd.etag, is(not(ada.etag)));
        assertThat("one answer per set", after.userBuilds(), is(before.userBuilds() + 2));
        assertThat("bob is served ada's", after.userHits(), is(before.userHits() + 1));
        assertThat("no database read", after.misses(), is(before.misses()));
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private String tokenKey(String project) {
        JsonObject key = admin.created("/projects/" + project + "/token-keys", "{\"algorithm\":\"HS256\"}");
        return key.getString("kid") + " " + key.getString("secret");
    }

    /** An HS256 token for the project, minted with Nimbus as a customer's backend would, valid for an hour. */
    private static String token(String kidAndSecret, String project, String sub, Map<String, Object> attrs)
            throws Exception {
        String[] parts = kidAndSecret.split(" ");
        long now = herald.clock().millis();
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(sub).audience(project)
                .issueTime(new Date(now)).expirationTime(new Date(now + 3_600_000L)).claim("attrs", attrs).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(parts[0]).build(), claims);
        jwt.sign(new MACSigner(Base64.getUrlDecoder().decode(parts[1])));
        return jwt.serialize();
    }

    private record Feed(int status, String body, String etag) {
    }

    private Feed feed(String key, String token) {
        var request = client.get("/api/v1/public/" + key + "/notifications");
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        try (Http1ClientResponse response = request.request()) {
            return new Feed(response.status().code(), response.as(String.class),
                            response.headers().first(HeaderNames.ETAG).orElse(null));
        }
    }

    private static List<String> ids(String body) {
        return JsonBodies.array(body).stream().map(value -> value.asJsonObject().getString("id")).toList();
    }

    private FeedAnswer answer(ApiKey key, UserIdentity user) {
        return herald.services().feed().answer(key, Optional.ofNullable(user), herald.clock().millis());
    }

    private static FeedCacheFigures figures() {
        return herald.services().feed().cacheFigures();
    }

    private static UserIdentity user(String project, String sub, Map<String, Object> attrs) {
        return new UserIdentity(project, sub, null, attrs, herald.clock().millis() + 3_600_000L);
    }

    private static ApiKey key(String key) {
        return herald.services().keys().find(key).orElseThrow();
    }

    private String project() {
        return admin.created("/projects", "{\"name\":\"audience\"}").getString("id");
    }

    private String[] projectWithKey() {
        String project = project();
        return new String[] {project, admin.created("/projects/" + project + "/api-keys", "{}").getString("key")};
    }

    private String publish(String project, String audience) {
        return admin.created("/projects/" + project + "/notifications", "{\"message\":\"hello\",\"status\":\"PUBLISHED\""
                + (audience == null ? "" : ",\"audience\":" + audience) + "}").getString("id");
    }

    private JsonObject get(String path) {
        AdminClient.Answer answer = admin.call(Method.GET, path);
        assertThat(answer.body(), answer.status(), is(200));
        return answer.object();
    }

    private void assertRefused(Method method, String path, String body, String field) {
        AdminClient.Answer answer = admin.call(method, path, body);
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
    }

    private JsonObject check(String id, String body, String token) {
        Accounts.Answer answer = Accounts.send(client, Method.POST, "/notifications/" + id + "/audience-check", body,
                                               Map.of("Authorization", "Bearer " + token));
        assertThat(answer.body(), answer.status(), is(200));
        return answer.object();
    }

    private void assertCheckRefused(String id, String body, String field) {
        assertRefused(Method.POST, "/notifications/" + id + "/audience-check", body, field);
    }

    private byte[] publicFeed(String key) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status().code(), is(200));
            return response.as(byte[].class);
        }
    }

    private static JsonObject json(String text) {
        return JsonBodies.object(text);
    }
}
