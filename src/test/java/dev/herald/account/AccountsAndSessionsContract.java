package dev.herald.account;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.account.Accounts.ALICE_TOKEN;
import static dev.herald.account.Accounts.VICTOR_TOKEN;
import static dev.herald.account.Accounts.send;
import static dev.herald.account.Accounts.signInBody;
import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * docs/api.md#accounts-and-sessions: named accounts with a role, as bearer tokens and as console sessions; a viewer
 * changes nothing; a session is an HttpOnly, Secure, SameSite=Strict cookie that no other site's request may use,
 * whose writes carry its CSRF token, that ends at sign-out, when idle and when old; signing in is throttled with the
 * admin tokens' failures.
 */
abstract class AccountsAndSessionsContract extends HeraldServerTest {

    private static final String PROJECTS = "/projects";
    private static final int MOST_SESSIONS = 3;

    private final Http1Client http;

    AccountsAndSessionsContract(Http1Client http) {
        this.http = http;
    }

    /** The test client is a trusted proxy, so that the throttled guesser is an address of its own. */
    static void start(TestDatabase database, WebServerConfig.Builder server) {
        Map<String, String> settings = new HashMap<>(Accounts.settings());
        settings.put("rate-limit.trusted-proxies.0", "127.0.0.1");
        settings.put("admin.sessions.max-per-account", String.valueOf(MOST_SESSIONS));
        startServer(database, server, settings);
    }

    /** The clock goes back to START: sessions an earlier test left, used later than that, would outlast new ones. */
    @BeforeEach
    void resetClockAndSessions() {
        herald.clock().set(START);
        endAllOf("alice");
        endAllOf("victor");
    }

    @Test
    void anEditorsTokenWritesAndAViewersOnlyReads() {
        assertThat(bearer(ALICE_TOKEN, Method.POST, PROJECTS, "{\"name\":\"Shop\"}").status(), is(201));
        assertThat(bearer(VICTOR_TOKEN, Method.GET, PROJECTS, null).status(), is(200));
        Accounts.Answer refused = bearer(VICTOR_TOKEN, Method.POST, PROJECTS, "{\"name\":\"Not mine\"}");
        assertThat(refused.status(), is(403));
        assertThat(refused.code(), is("FORBIDDEN"));
        assertThat(refused.object().getString("error"), is("victor is a viewer: it may read, not change anything"));
        String project = bearer(ALICE_TOKEN, Method.POST, PROJECTS, "{\"name\":\"Another\"}").object().getString("id");
        assertThat(bearer(VICTOR_TOKEN, Method.PATCH, PROJECTS + "/" + project, "{\"name\":\"X\"}").status(), is(403));
        assertThat(bearer(VICTOR_TOKEN, Method.POST, PROJECTS + "/" + project + "/api-keys", "{}").status(), is(403));
        assertThat(bearer(AdminClient.TOKEN, Method.POST, PROJECTS, "{\"name\":\"Script\"}").status(), is(201));
    }

    @Test
    void signingInGivesAnHttpOnlySecureStrictCookieAndItsCsrfToken() {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);

        assertThat(signedIn.status(), is(201));
        String cookie = signedIn.setCookies().stream().filter(c -> c.startsWith(SessionStore.COOKIE)).findFirst()
                .orElseThrow();
        assertThat(cookie, containsString("; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=43200"));
        assertThat("256 random bits and a 128-bit MAC, base64url", signedIn.session().orElseThrow().length(), is(64));
        assertThat(signedIn.object().getString("name"), is("alice"));
        assertThat(signedIn.object().getString("role"), is("editor"));
        assertThat(signedIn.object().getString("idleTimeout"), is("PT30M"));
        String csrf = signedIn.object().getString("csrfToken");

        Accounts.Answer current = withSession(signedIn, Method.GET, "/session", null, null);
        assertThat(current.status(), is(200));
        assertThat("a reload of the console finds the same token", current.object().getString("csrfToken"),
                   is(csrf));
        assertThat(withSession(signedIn, Method.POST, PROJECTS, "{\"name\":\"From the console\"}", csrf).status(),
                   is(201));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "wrong", "a-token-of-another-session-0123456789abcdefghij"})
    void aConsoleWriteWithoutItsSessionsCsrfTokenIsRefused(String csrf) {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);

        Accounts.Answer refused = withSession(signedIn, Method.POST, PROJECTS, "{\"name\":\"Forged\"}",
                                              csrf.isEmpty() ? null : csrf);

        assertThat(refused.status(), is(403));
        assertThat(refused.code(), is("CSRF_TOKEN_MISSING"));
        assertThat(withSession(signedIn, Method.GET, PROJECTS, null, null).status(), is(200));
    }

    @ParameterizedTest
    @ValueSource(strings = {"cross-site", "same-site"})
    void noRequestOfAnotherSiteUsesASessionNorSignsIn(String site) {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);
        String csrf = signedIn.object().getString("csrfToken");
        Map<String, String> fromElsewhere = Map.of("Cookie", SessionStore.COOKIE + "=" + signedIn.session().orElseThrow(),
                                                   "X-CSRF-Token", csrf, "Sec-Fetch-Site", site);

        for (Method method : new Method[] {Method.GET, Method.POST}) {
            Accounts.Answer refused = send(http, method, PROJECTS, method == Method.POST ? "{\"name\":\"X\"}" : null,
                                           fromElsewhere);
            assertThat(method.text(), refused.status(), is(403));
            assertThat(refused.code(), is("CROSS_SITE_REQUEST"));
        }
        Accounts.Answer signIn = send(http, Method.POST, "/session", signInBody("alice", ALICE_TOKEN),
                                      Map.of("Sec-Fetch-Site", site));
        assertThat(signIn.status(), is(403));
        assertThat(signIn.setCookies().isEmpty(), is(true));
        Map<String, String> sameOrigin = new HashMap<>(fromElsewhere);
        sameOrigin.put("Sec-Fetch-Site", "same-origin");
        assertThat(send(http, Method.GET, PROJECTS, null, sameOrigin).status(), is(200));
    }

    @Test
    void aViewersSessionReadsIsRefusedEveryWriteAndSignsOut() {
        Accounts.Answer signedIn = signIn("victor", VICTOR_TOKEN);
        String csrf = signedIn.object().getString("csrfToken");
        String project = bearer(ALICE_TOKEN, Method.POST, PROJECTS, "{\"name\":\"Shop\"}").object().getString("id");

        assertThat(signedIn.object().getString("role"), is("viewer"));
        assertThat(withSession(signedIn, Method.GET, PROJECTS + "/" + project, null, null).status(), is(200));
        assertThat(withSession(signedIn, Method.GET, "/audit", null, null).status(), is(200));
        assertThat(withSession(signedIn, Method.POST, PROJECTS, "{\"name\":\"X\"}", csrf).code(), is("FORBIDDEN"));
        assertThat(withSession(signedIn, Method.PATCH, PROJECTS + "/" + project, "{\"name\":\"X\"}", csrf).status(),
                   is(403));
        assertThat(withSession(signedIn, Method.POST, PROJECTS + "/" + project + "/notifications", "{}", csrf)
                           .status(), is(403));

        Accounts.Answer signedOut = withSession(signedIn, Method.DELETE, "/session", null, csrf);
        assertThat(signedOut.status(), is(204));
        assertThat(signedOut.setCookies(), hasItem(startsWith(SessionStore.COOKIE + "=; Path=/;")));
        Accounts.Answer after = withSession(signedIn, Method.GET, PROJECTS, null, null);
        assertThat(after.status(), is(401));
        assertThat(after.code(), is("SESSION_ENDED"));
    }

    @Test
    void aSessionEndsAfterItsIdleTimeOutAndAfterItsMaxAgeWhateverItsUse() {
        Accounts.Answer idle = signIn("alice", ALICE_TOKEN);
        Accounts.Answer busy = signIn("alice", ALICE_TOKEN);

        herald.clock().advance(Duration.ofMinutes(20));
        assertThat(withSession(busy, Method.GET, PROJECTS, null, null).status(), is(200));
        herald.clock().advance(Duration.ofMinutes(20));
        assertThat("40 minutes after its last use", withSession(idle, Method.GET, PROJECTS, null, null).status(),
                   is(401));
        assertThat("20 minutes after its last use", withSession(busy, Method.GET, PROJECTS, null, null).status(),
                   is(200));
        for (int i = 0; i < 35; i++) {
            herald.clock().advance(Duration.ofMinutes(20));
            withSession(busy, Method.GET, PROJECTS, null, null);
        }
        Accounts.Answer old = withSession(busy, Method.GET, PROJECTS, null, null);
        assertThat("used every 20 minutes, but signed in 12 h 20 min ago", old.status(), is(401));
        assertThat(old.code(), is("SESSION_ENDED"));
    }

    @Test
    void onlyAnAccountsOwnNameAndTokenSignIn() {
        assertThat(signIn("alice", VICTOR_TOKEN).status(), is(401));
        assertThat(signIn("victor", ALICE_TOKEN).status(), is(401));
        assertThat("admin.tokens are for scripts: they have no name", signIn("token", AdminClient.TOKEN).status(),
                   is(401));
        assertThat(signIn("nobody", "x").setCookies().isEmpty(), is(true));
        Accounts.Answer bogus = send(http, Method.GET, PROJECTS, null,
                                     Map.of("Cookie", SessionStore.COOKIE + "=made-up"));
        assertThat(bogus.status(), is(401));
        assertThat(bogus.code(), is("SESSION_ENDED"));
    }

    @Test
    void guessingThroughSignInAndBearerTokensIsThrottledTogether() {
        String client = "203.0.113.77";
        for (int i = 0; i < 5; i++) {
            assertThat(send(http, Method.POST, "/session", signInBody("alice", "guess" + i),
                            Map.of("X-Forwarded-For", client)).status(), is(401));
            assertThat(send(http, Method.GET, PROJECTS, null,
                            Map.of("X-Forwarded-For", client, "Authorization", "Bearer guess" + i)).status(), is(401));
        }
        Accounts.Answer blocked = send(http, Method.POST, "/session", signInBody("alice", ALICE_TOKEN),
                                       Map.of("X-Forwarded-For", client));
        assertThat("the right token too, once blocked", blocked.status(), is(429));
        assertThat(blocked.code(), is("TOO_MANY_AUTH_FAILURES"));
        assertThat(blocked.setCookies().isEmpty(), is(true));
    }

    /**
     * The console asks at every load; a signed-out user reloading it must not lock themselves out, nor find an error
     * in the browser's console: nobody signed in is an answer (204), not a failure. A credential that fails stays 401.
     */
    @Test
    void askingWhoIsSignedInWithNoCredentialIsAnsweredNobodyAndIsNotAFailedAttempt() {
        String client = "203.0.113.78";
        for (int i = 0; i < 25; i++) {
            Accounts.Answer answer = send(http, Method.GET, "/session", null, Map.of("X-Forwarded-For", client));
            assertThat(answer.status(), is(204));
            assertThat(answer.setCookies().isEmpty(), is(true));
        }
        assertThat(send(http, Method.GET, "/session", null, Map.of("X-Forwarded-For", client,
                                                                   "Authorization", "Bearer wrong")).status(), is(401));
        assertThat(send(http, Method.POST, "/session", signInBody("alice", ALICE_TOKEN),
                        Map.of("X-Forwarded-For", client)).status(), is(201));
        assertThat("a wrong token elsewhere still counts",
                   send(http, Method.GET, PROJECTS, null, Map.of("X-Forwarded-For", client,
                                                                 "Authorization", "Bearer wrong")).status(), is(401));
    }

    @Test
    void signingInAndSigningOutLeaveALineEachUnderTheAccount() {
        Accounts.Answer signedIn = signIn("victor", VICTOR_TOKEN);
        String id = currentSessionId(signedIn);

        withSession(signedIn, Method.DELETE, "/session", null, signedIn.object().getString("csrfToken"));

        JsonArray lines = bearer(AdminClient.TOKEN, Method.GET, "/audit?targetId=" + id, null).array();
        assertThat(lines.size(), is(2));
        assertThat(lines.getJsonObject(0).getString("actor"), is("victor"));
        assertThat(lines.getJsonObject(0).getString("action"), is("session.closed"));
        assertThat(lines.getJsonObject(1).getString("actor"), is("victor"));
        assertThat(lines.getJsonObject(1).getString("action"), is("session.opened"));
        assertThat(lines.getJsonObject(1).getJsonObject("target").getString("type"), is("session"));
        assertThat(lines.getJsonObject(1).getJsonObject("details").getString("role"), is("viewer"));
    }

    @Test
    void anAccountKeepsAtMostItsMostSessionsTheLeastRecentlyUsedEnding() {
        List<Accounts.Answer> sessions = new ArrayList<>();
        for (int i = 0; i < MOST_SESSIONS; i++) {
            sessions.add(signIn("victor", VICTOR_TOKEN));
            herald.clock().advance(Duration.ofMinutes(2));
        }
        assertThat("the first is now the most recently used",
                   withSession(sessions.getFirst(), Method.GET, PROJECTS, null, null).status(), is(200));

        Accounts.Answer fourth = signIn("victor", VICTOR_TOKEN);
        herald.clock().advance(Duration.ofMinutes(2));
        Accounts.Answer fifth = signIn("victor", VICTOR_TOKEN);

        assertThat(withSession(fifth, Method.GET, "/sessions", null, null).array().size(), is(MOST_SESSIONS));
        assertThat(withSession(sessions.get(1), Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat(withSession(sessions.get(2), Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat(withSession(sessions.get(0), Method.GET, PROJECTS, null, null).status(), is(200));
        assertThat(withSession(fourth, Method.GET, PROJECTS, null, null).status(), is(200));
    }

    @Test
    void anEditorListsLiveSessionsWithoutSecretsAndEndsOneOrAllOfAnAccountsAudited() {
        Accounts.Answer mine = signIn("alice", ALICE_TOKEN);
        Accounts.Answer myOther = signIn("alice", ALICE_TOKEN);
        Accounts.Answer victorOne = signIn("victor", VICTOR_TOKEN);
        Accounts.Answer victorTwo = signIn("victor", VICTOR_TOKEN);
        String csrf = mine.object().getString("csrfToken");

        Accounts.Answer listed = withSession(mine, Method.GET, "/sessions", null, null);
        assertThat(listed.status(), is(200));
        for (JsonObject session : listed.array().getValuesAs(JsonObject.class)) {
            assertThat(session.keySet(), is(Set.of("id", "account", "createdAt", "lastSeenAt", "current")));
        }
        assertThat(listed.body(), not(containsString(mine.session().orElseThrow())));
        String myOtherId = currentSessionId(myOther);
        assertThat(withSession(mine, Method.DELETE, "/sessions/" + myOtherId, null, csrf).status(), is(204));
        assertThat(withSession(myOther, Method.GET, PROJECTS, null, null).code(), is("SESSION_ENDED"));
        assertThat(withSession(mine, Method.DELETE, "/sessions/" + myOtherId, null, csrf).status(), is(404));

        Accounts.Answer ended = withSession(mine, Method.DELETE, "/sessions?account=victor", null, csrf);
        assertThat(ended.status(), is(200));
        assertThat(ended.object().getInt("ended"), is(2));
        assertThat(withSession(victorOne, Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat(withSession(victorTwo, Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat("the caller's own session is not ended", withSession(mine, Method.GET, PROJECTS, null, null)
                .status(), is(200));

        JsonArray mineEnded = bearer(AdminClient.TOKEN, Method.GET, "/audit?targetId=" + myOtherId, null).array();
        assertThat(mineEnded.getJsonObject(0).getString("action"), is("session.ended"));
        assertThat(mineEnded.getJsonObject(0).getString("actor"), is("alice"));
        JsonArray victorsEnded = bearer(AdminClient.TOKEN, Method.GET, "/audit?targetId=victor", null).array();
        assertThat(victorsEnded.getJsonObject(0).getString("action"), is("sessions.ended"));
        assertThat(victorsEnded.getJsonObject(0).getJsonObject("details").getInt("ended"), is(2));
    }

    @Test
    void anEditorSignsOutItsOtherSessionsAndKeepsThisOne() {
        Accounts.Answer here = signIn("alice", ALICE_TOKEN);
        Accounts.Answer elsewhere = signIn("alice", ALICE_TOKEN);

        Accounts.Answer ended = withSession(here, Method.DELETE, "/sessions?account=alice", null,
                                            here.object().getString("csrfToken"));

        assertThat(ended.object().getInt("ended"), is(greaterThanOrEqualTo(1)));
        assertThat(withSession(elsewhere, Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat(withSession(here, Method.GET, PROJECTS, null, null).status(), is(200));
    }

    @Test
    void aViewerSeesOnlyItsOwnSessionsAndEndsNone() {
        Accounts.Answer alice = signIn("alice", ALICE_TOKEN);
        Accounts.Answer victor = signIn("victor", VICTOR_TOKEN);

        JsonArray seen = withSession(victor, Method.GET, "/sessions", null, null).array();
        assertThat(seen.getValuesAs(JsonObject.class).stream().map(s -> s.getString("account")).distinct().toList(),
                   is(List.of("victor")));
        Accounts.Answer refused = withSession(victor, Method.DELETE, "/sessions/" + currentSessionId(alice), null,
                                              victor.object().getString("csrfToken"));
        assertThat(refused.status(), is(403));
        assertThat(withSession(alice, Method.GET, PROJECTS, null, null).status(), is(200));
    }

    /** A viewer's account is its own to secure: "sign out my other sessions" is the one write it may make. */
    @Test
    void aViewerSignsOutItsOwnOtherSessionsButNoOneElses() {
        Accounts.Answer here = signIn("victor", VICTOR_TOKEN);
        Accounts.Answer elsewhere = signIn("victor", VICTOR_TOKEN);
        Accounts.Answer alice = signIn("alice", ALICE_TOKEN);
        String csrf = here.object().getString("csrfToken");

        assertThat(withSession(here, Method.DELETE, "/sessions?account=alice", null, csrf).status(), is(403));
        assertThat(withSession(here, Method.DELETE, "/sessions?account=victo", null, csrf).status(), is(403));
        assertThat(withSession(here, Method.DELETE, "/sessions", null, csrf).status(), is(403));
        assertThat(withSession(alice, Method.GET, PROJECTS, null, null).status(), is(200));

        Accounts.Answer ended = withSession(here, Method.DELETE, "/sessions?account=victor", null, csrf);
        assertThat(ended.status(), is(200));
        assertThat(ended.object().getInt("ended"), is(greaterThanOrEqualTo(1)));
        assertThat(withSession(elsewhere, Method.GET, PROJECTS, null, null).status(), is(401));
        assertThat(withSession(here, Method.GET, PROJECTS, null, null).status(), is(200));
        assertThat("without its CSRF token, refused as any write",
                   withSession(here, Method.DELETE, "/sessions?account=victor", null, null).status(), is(403));
    }

    @Test
    void endingAnAccountsSessionsNeedsAValidAccountName() {
        Accounts.Answer alice = signIn("alice", ALICE_TOKEN);
        String csrf = alice.object().getString("csrfToken");

        Accounts.Answer noAccount = withSession(alice, Method.DELETE, "/sessions", null, csrf);
        assertThat(noAccount.status(), is(400));
        assertThat(noAccount.object().getJsonObject("details").getString("field"), is("account"));
        assertThat(withSession(alice, Method.DELETE, "/sessions?account=%20", null, csrf).status(), is(400));
        assertThat(withSession(alice, Method.DELETE, "/sessions/not-an-id", null, csrf).status(), is(404));
    }

    /** With an admin token, which has no session of its own to keep. */
    private void endAllOf(String account) {
        assertThat(bearer(AdminClient.TOKEN, Method.DELETE, "/sessions?account=" + account, null).status(), is(200));
    }

    /** The session's id as GET /sessions shows it: the one marked current. */
    private String currentSessionId(Accounts.Answer signedIn) {
        return withSession(signedIn, Method.GET, "/sessions", null, null).array().getValuesAs(JsonObject.class)
                .stream().filter(session -> session.getBoolean("current")).findFirst().orElseThrow().getString("id");
    }

    private Accounts.Answer signIn(String name, String token) {
        return send(http, Method.POST, "/session", signInBody(name, token), Map.of("Sec-Fetch-Site", "same-origin"));
    }

    private Accounts.Answer bearer(String token, Method method, String path, String json) {
        return send(http, method, path, json, Map.of("Authorization", "Bearer " + token));
    }

    private Accounts.Answer withSession(Accounts.Answer signedIn, Method method, String path, String json,
                                        String csrf) {
        Map<String, String> headers = new HashMap<>();
        headers.put("Cookie", SessionStore.COOKIE + "=" + signedIn.session().orElseThrow());
        headers.put("Sec-Fetch-Site", "same-origin");
        headers.put("X-CSRF-Token", csrf);
        return send(http, method, path, json, headers);
    }
}
