package dev.herald.storage;

import java.net.URI;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.observe.ObserveSettings;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Every serving connection held by slow work: requests that need one answer 500 within 2 s (they wait 0.8 s for
 * a connection), never a 204, readiness says down, and everything comes back once the connections do.
 */
@ServerTest
class PoolExhaustedTest extends HeraldServerTest {

    private static final int POOL = 2;

    private final URI api;
    private final URI operations;

    PoolExhaustedTest(URI api, @Socket(ObserveSettings.SOCKET) URI operations) {
        this.api = api;
        this.operations = operations;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("db.connection.maximumPoolSize", String.valueOf(POOL),
                                                      "admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void requestsThatNeedTheDatabaseAnswer500WithinTwoSecondsAndRecover() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        ApiKey notAskedYet = herald.key(project);
        Notification notification = herald.notification(project).save();
        assertThat(track(notification.id()).status(), is(204));

        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < POOL; i++) {
                held.add(herald.serving().pool().connection());
            }
            // A key not asked before is a cache miss: it needs the database.
            assertTimely(500, "GET /api/v1/public/" + notAskedYet.key() + "/notifications", api);
            assertTimely(500, "GET /api/v1/admin/projects", api);
            assertTimely(503, "GET /observe/health/ready", operations);
            // The change log cannot be read either, so what is in memory is not trusted past feed.cache.max-staleness:
            // tracking checks the notification in the database, and cannot.
            long started = System.nanoTime();
            assertThat(track(notification.id()).status(), is(500));
            assertThat(Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(2)));
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }

        // Readiness answers from its last check for a second, and stays down for its hold-down (tracking.batch.max-wait
        // and a second) after the check that found requests refused: up within some 4 s.
        long deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        int ready;
        do {
            Thread.sleep(200);
            ready = RawHttp.exchange(operations, "GET /observe/health/ready HTTP/1.1\r\nHost: x").status();
        } while (ready != 200 && System.nanoTime() < deadline);
        assertThat("ready again", ready, is(200));
        assertTimely(200, "GET /api/v1/public/" + key.key() + "/notifications", api);
        assertThat(track(notification.id()).status(), is(204));
        assertThat("one before, one after: nothing answered 500 was kept", herald.interactions(notification.id()).size(),
                   is(2));
    }

    /**
     * Slow queries that come and go leave a connection free now and then: a ping finds one, requests in between
     * did not. Readiness must say down for as long as requests are refused, not only while a ping fails.
     */
    @Test
    void readinessSaysDownWhenRequestsWereRefusedAConnectionSinceItWasLastAsked() throws Exception {
        ApiKey key = herald.key(herald.project());
        RawHttp.exchange(operations, "GET /observe/health/ready HTTP/1.1\r\nHost: x");
        Thread.sleep(1_100); // readiness answers from its last check for a second
        assertTimely(200, "GET /observe/health/ready", operations);

        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < POOL; i++) {
                held.add(herald.serving().pool().connection());
            }
            assertTimely(500, "GET /api/v1/public/" + key.key() + "/notifications", api);
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
        Thread.sleep(1_100);
        // The pool is free again and a ping would pass, but a request was refused since the last check.
        assertTimely(503, "GET /observe/health/ready", operations);
        Thread.sleep(1_100);
        assertTimely(503, "GET /observe/health/ready", operations);
        // Past the hold-down (tracking.batch.max-wait, 1.5 s, and a second) and a check.
        Thread.sleep(2_600);
        assertTimely(200, "GET /observe/health/ready", operations);
    }

    private static void assertTimely(int status, String requestLine, URI server) throws Exception {
        long started = System.nanoTime();
        RawHttp.Response answer = RawHttp.exchange(server, requestLine + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + AdminClient.TOKEN);
        assertThat(requestLine, answer.status(), is(status));
        assertThat(requestLine, Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(2)));
    }

    private RawHttp.Response track(String id) throws Exception {
        return RawHttp.exchange(api, "POST /api/v1/public/track/" + id + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: 16", "{\"type\":\"click\"}".getBytes());
    }
}
