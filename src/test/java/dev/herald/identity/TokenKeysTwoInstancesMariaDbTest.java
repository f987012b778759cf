package dev.herald.identity;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

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
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Two Herald processes on one MariaDB (docs/behaviour.md, user tokens): a token key made through this test's
 * instance (A) verifies tokens on the other one (B, its own JVM), and its revocation through A stops them on B within
 * the change log's staleness, although B had verified (and cached) the token before.
 */
@RequiresMariaDb
@ServerTest
class TokenKeysTwoInstancesMariaDbTest extends HeraldServerTest {

    private static final Duration BOUND = Duration.ofSeconds(1);
    /** The poll itself, the request and a busy machine; far below what a bound that does not hold would take. */
    private static final Duration SLACK = Duration.ofMillis(500);

    @TempDir
    static Path directory;
    private static TestDatabase database;
    private static ChildHerald other;

    private final AdminClient admin;

    TokenKeysTwoInstancesMariaDbTest(Http1Client client) {
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
    void aRevokedKeyStopsVerifyingOnTheOtherInstanceWithinTheBound() throws Exception {
        String project = admin.created("/projects", "{\"name\":\"shared\"}").getString("id");
        String apiKey = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        JsonObject key = admin.created("/projects/" + project + "/token-keys", "{\"algorithm\":\"HS256\"}");
        // B runs on the system clock.
        String token = TokenMint.hs256(key.getString("kid"), Base64.getUrlDecoder().decode(key.getString("secret")),
                                       TokenMint.claims(project, System.currentTimeMillis() / 1000).build());
        String path = "/api/v1/public/" + apiKey + "/notifications";
        assertWithinBound(path, token, 200);
        assertThat("verified, then served from B's cache", status(path, token), is(200));

        assertThat(admin.call(Method.DELETE, "/token-keys/" + key.getString("kid")).status(), is(204));
        assertWithinBound(path, token, 401);
    }

    private void assertWithinBound(String path, String token, int expected) throws InterruptedException {
        long started = System.nanoTime();
        int status = status(path, token);
        while (status != expected) {
            assertThat("answered " + expected + " on the other instance within " + BOUND + ", last: " + status,
                       Duration.ofNanos(System.nanoTime() - started), lessThan(BOUND.plus(SLACK)));
            Thread.sleep(10);
            status = status(path, token);
        }
    }

    private int status(String path, String token) {
        Http1Client client = Http1Client.builder().baseUri("http://127.0.0.1:" + other.port()).build();
        try (var response = client.get(path).header(HeaderNames.AUTHORIZATION, "Bearer " + token).request()) {
            return response.status().code();
        }
    }
}
