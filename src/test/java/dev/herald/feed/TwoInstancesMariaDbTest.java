package dev.herald.feed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.function.Predicate;

import dev.herald.identity.TokenMint;
import dev.herald.support.AdminClient;
import dev.herald.support.ChildHerald;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/**
 * Two Herald processes on one MariaDB (decisions: feed.cache.max-staleness): a write through this test's instance
 * (A) shows on the other one (B, its own JVM) within the bound, for the feed, a key, a token key and a deleted
 * notification.
 */
@RequiresMariaDb
@ServerTest
class TwoInstancesMariaDbTest extends HeraldServerTest {

    private static final Duration BOUND = Duration.ofSeconds(1);
    /** The poll itself, the request and a busy machine; far below what a bound that does not hold would take. */
    private static final Duration SLACK = Duration.ofMillis(500);

    @TempDir
    static Path directory;
    private static TestDatabase database;
    private static ChildHerald other;

    private final Http1Client client;
    private final AdminClient admin;
    private Http1Client otherClient;

    TwoInstancesMariaDbTest(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        database = TestDatabase.mariadb();
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                             "feed.cache.max-staleness", BOUND.toString()));
    }

    @BeforeAll
    static void startOther() throws Exception {
        other = ChildHerald.start(directory.resolve("b"), ChildHerald.onDatabase(database) + """
                feed:
                  cache:
                    max-staleness: %s
                """.formatted(BOUND));
    }

    @AfterAll
    static void stopOther() throws Exception {
        other.close();
    }

    @Test
    void writesThroughOneInstanceShowOnTheOtherWithinTheBound() throws Exception {
        String project = admin.created("/projects", "{\"name\":\"shared\"}").getString("id");
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        assertShowsOnOther("/api/v1/public/" + key + "/notifications", body -> body.equals("[]"));

        String id = admin.created("/projects/" + project + "/notifications",
                                  "{\"message\":\"first\",\"status\":\"PUBLISHED\"}").getString("id");
        assertShowsOnOther("/api/v1/public/" + key + "/notifications", body -> body.contains(id));
        // Cached on B now: the next change must still arrive.
        assertThat(get("/api/v1/public/" + key + "/notifications"), containsString("\"first\""));

        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"second\"}").status(), is(200));
        assertShowsOnOther("/api/v1/public/" + key + "/notifications", body -> body.contains("\"second\""));

        assertThat(track(id), is(204));
        assertThat(admin.call(Method.DELETE, "/notifications/" + id).status(), is(204));
        assertShowsOnOther("/api/v1/public/" + key + "/notifications", body -> body.equals("[]"));
        long started = System.nanoTime();
        while (track(id) != 404) {
            assertThat("a deleted notification is unknown to B's tracking within the bound",
                       Duration.ofNanos(System.nanoTime() - started), lessThan(BOUND.plus(SLACK)));
        }

        assertThat(admin.call(Method.DELETE, "/api-keys/" + key).status(), is(204));
        assertShowsOnOther("/api/v1/public/" + key + "/notifications", body -> body.contains("INVALID_API_KEY"));
    }

    /**
     * A token key made through A verifies tokens on B, and its revocation through A stops them on B within the bound,
     * although B had verified and cached the token (docs/behaviour.md, User tokens).
     */
    @Test
    void aRevokedTokenKeyStopsVerifyingOnTheOtherInstanceWithinTheBound() throws Exception {
        String project = admin.created("/projects", "{\"name\":\"tokens\"}").getString("id");
        String apiKey = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        JsonObject key = admin.created("/projects/" + project + "/token-keys", "{\"algorithm\":\"HS256\"}");
        // B runs on the system clock.
        String token = TokenMint.hs256(key.getString("kid"), Base64.getUrlDecoder().decode(key.getString("secret")),
                                       TokenMint.claims(project, System.currentTimeMillis() / 1000).build());
        String path = "/api/v1/public/" + apiKey + "/notifications";
        assertShowsOnOther(path, token, body -> body.equals("[]"));
        assertThat("verified, then from B's cache", getWithToken(path, token), is("[]"));

        assertThat(admin.call(Method.DELETE, "/token-keys/" + key.getString("kid")).status(), is(204));
        assertShowsOnOther(path, token, body -> body.contains("USER_TOKEN_KEY_UNKNOWN"));
    }

    /**
     * B answers made-up ids 404 from memory (its id filter), but a notification created through A a moment ago is no
     * made-up id: B reads the log before it says 404, so the first interaction, sent at once, is stored.
     */
    @Test
    void aNotificationCreatedThroughOneInstanceIsTrackedThroughTheOtherAtOnce() throws Exception {
        String project = admin.created("/projects", "{\"name\":\"tracked at once\"}").getString("id");
        long started = System.nanoTime();
        while (!otherMetrics().contains("herald_tracking_notification_lookups_total{answered_by=\"memory\"} 1")) {
            // B's filter is loaded once a made-up id is answered from memory.
            assertThat(track("madeUp" + System.nanoTime()), is(404));
            assertThat(Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(10)));
            Thread.sleep(20);
        }
        for (int i = 0; i < 20; i++) {
            String id = admin.created("/projects/" + project + "/notifications",
                                      "{\"message\":\"new " + i + "\",\"status\":\"PUBLISHED\"}").getString("id");
            assertThat("created through A, tracked through B at once", track(id), is(204));
        }
    }

    private String otherMetrics() throws Exception {
        Http1Client observe = Http1Client.builder().baseUri("http://127.0.0.1:" + other.observePort()).build();
        try (var response = observe.get("/observe/metrics").request()) {
            return response.as(String.class);
        }
    }

    private void assertShowsOnOther(String path, Predicate<String> shown) throws Exception {
        assertShowsOnOther(path, null, shown);
    }

    /** @param token a user token to send, or null */
    private void assertShowsOnOther(String path, String token, Predicate<String> shown) throws Exception {
        long started = System.nanoTime();
        String body = getWithToken(path, token);
        while (!shown.test(body)) {
            assertThat("shown on the other instance within " + BOUND + ", last answer: " + body,
                       Duration.ofNanos(System.nanoTime() - started), lessThan(BOUND.plus(SLACK)));
            Thread.sleep(10);
            body = getWithToken(path, token);
        }
        assertThat(body, not(containsString("INTERNAL_ERROR")));
    }

    private Http1Client other() {
        if (otherClient == null) {
            otherClient = Http1Client.builder().baseUri("http://127.0.0.1:" + other.port()).build();
        }
        return otherClient;
    }

    private String get(String path) {
        return getWithToken(path, null);
    }

    private String getWithToken(String path, String token) {
        var request = other().get(path);
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        try (var response = request.request()) {
            return response.as(String.class);
        }
    }

    private int track(String id) {
        try (var response = other().post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"click\"}")) {
            return response.status().code();
        }
    }

    private int status(String path) {
        try (var response = client.get(path).request()) {
            return response.status().code();
        }
    }
}
