package dev.herald.storage;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.observe.ObserveSettings;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.KeepAliveConnection;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TcpRelay;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * docs/behaviour.md#connections-and-errors: with the database unreachable, requests that need it answer 500 within 2
 * seconds, readiness reports down, and service resumes by itself when it returns. MariaDB is reached through a relay
 * that the test takes down and brings back, with the driver time-outs of config/prod.yaml.
 */
@RequiresMariaDb
@ServerTest
class DatabaseOutageMariaDbTest extends HeraldServerTest {

    private static TcpRelay relay;

    private final Http1Client client;
    private final URI uri;
    private final Http1Client observe;

    DatabaseOutageMariaDbTest(Http1Client client, URI uri, @Socket(ObserveSettings.SOCKET) Http1Client observe) {
        this.client = client;
        this.uri = uri;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        TestDatabase database = TestDatabase.mariadb();
        URI mariadb = TestDatabase.mariadbServer();
        relay = new TcpRelay(mariadb.getHost(), mariadb.getPort());
        Config production = Config.just(ConfigSources.file("config/prod.yaml"));
        startServer(database, server, Map.of(
                "db.connection.url", database.urlThroughPort(relay.port()),
                "db.connection.connectionTimeout", production.get("db.connection.connectionTimeout").asString().get(),
                "db.connection.validationTimeout", production.get("db.connection.validationTimeout").asString().get(),
                "db.connection.dataSource.connectTimeout",
                production.get("db.connection.dataSource.connectTimeout").asString().get(),
                "db.connection.dataSource.socketTimeout",
                production.get("db.connection.dataSource.socketTimeout").asString().get()));
    }

    @AfterAll
    static void stopRelay() {
        relay.close();
    }

    @Test
    void anOutageAnswers500WithinTwoSecondsAndServiceResumesByItself() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Notification notification = herald.notification(project).save();
        assertThat(track(notification).status(), is(Status.NO_CONTENT_204));

        relay.down();
        for (int i = 0; i < 3; i++) {
            long started = System.nanoTime();
            try (Http1ClientResponse response = client.get("/api/v1/public/" + key.key() + "/notifications").request()) {
                assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
                assertThat(response.as(String.class), is("{\"error\":\"Internal server error\",\"code\":\"INTERNAL_ERROR\"}"));
            }
            assertThat(elapsed(started), lessThan(Duration.ofSeconds(2)));

            started = System.nanoTime();
            try (Http1ClientResponse response = track(notification)) {
                assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
                assertThat(response.as(String.class), is("{\"message\":\"Internal server error\",\"code\":\"INTERNAL_ERROR\"}"));
            }
            assertThat(elapsed(started), lessThan(Duration.ofSeconds(2)));
        }
        List<String> readinessLines = new CopyOnWriteArrayList<>();
        Handler readinessLog = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if ("dev.herald.observe.HealthService".equals(record.getLoggerName())) {
                    readinessLines.add(record.getLevel() + " " + record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger("").addHandler(readinessLog);
        // Four checks of a balancer, a second apart (readiness asks the database at most once a second).
        for (int check = 0; check < 4; check++) {
            try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
                assertThat("readiness reports down", response.status(), is(Status.SERVICE_UNAVAILABLE_503));
                assertThat(response.as(String.class),
                           is("{\"status\":\"DOWN\",\"checks\":[{\"name\":\"database\",\"status\":\"DOWN\"}]}"));
            }
            Thread.sleep(1_100);
        }
        // A line when it went DOWN (and one more if the reason changed), not a line a check.
        assertThat(String.join("\n", readinessLines), readinessLines.size(), allOf(greaterThanOrEqualTo(1),
                                                                                   lessThanOrEqualTo(2)));
        assertThat(readinessLines.getFirst(), startsWith("WARNING Readiness: DOWN: "));
        try (Http1ClientResponse response = observe.get("/observe/health/live").request()) {
            assertThat("the process itself is alive", response.status(), is(Status.OK_200));
        }

        relay.up();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Status status;
        do {
            try (Http1ClientResponse response = track(notification)) {
                status = response.status();
            }
        } while (status != Status.NO_CONTENT_204 && System.nanoTime() < deadline);
        assertThat(status, is(Status.NO_CONTENT_204));
        // Readiness stays DOWN for its hold-down (tracking.batch.max-wait and a second) after it last found requests
        // failed, and asks at most once a second: up within some 4 s.
        deadline = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        do {
            try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
                status = response.status();
            }
        } while (status != Status.OK_200 && System.nanoTime() < deadline);
        assertThat("ready again", status, is(Status.OK_200));
        Logger.getLogger("").removeHandler(readinessLog);
        // And a line when it is UP again, which said nothing before.
        assertThat(String.join("\n", readinessLines), readinessLines.getLast(), startsWith("INFO Readiness: UP again, after "));
        // One before the outage, one after it: nothing answered 204 went missing, nothing refused was kept.
        assertThat(herald.interactions(notification.id()), hasSize(2));
    }

    /**
     * The same under load: clients tracking without pause while the database goes away for 3 s and comes back.
     * Every answer comes within 2 s, none is a 204 for a request sent while the database was away, tracking
     * resumes by itself, and exactly the interactions answered 204 are stored (plus, at most, some that were
     * in the batch when the connection broke and got no 204).
     */
    @Test
    void underLoadAnOutageNeverAnswers204AndNothingAnswered204IsLost() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        int clients = 8;
        AtomicBoolean running = new AtomicBoolean(true);
        List<Exchange> exchanges = new CopyOnWriteArrayList<>();
        ExecutorService executor = Executors.newFixedThreadPool(clients);
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLoggerName() != null && record.getLoggerName().startsWith("dev.herald")) {
                    logged.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger("").addHandler(capture);
        long down;
        long up;
        try {
            for (int i = 0; i < clients; i++) {
                executor.submit(() -> trackUntilStopped(notification, running, exchanges));
            }
            Thread.sleep(1_000);
            relay.down();
            down = System.nanoTime();
            Thread.sleep(3_000);
            up = System.nanoTime();
            relay.up();
            Thread.sleep(3_000);
        } finally {
            running.set(false);
            executor.shutdown();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS), is(true));
            Logger.getLogger("").removeHandler(capture);
        }
        // An outage fails every request, all alike: a count a second at most, never a stack trace each.
        for (LogRecord record : logged) {
            assertThat(record.getLoggerName() + ": " + record.getMessage(), record.getThrown(), is(nullValue()));
        }
        assertThat("Herald's own lines in 7 s with a 3 s outage under load: " + logged.size(), logged.size(),
                   lessThanOrEqualTo(15));

        long answered204 = exchanges.stream().filter(e -> e.status() == 204).count();
        long other = exchanges.stream().filter(e -> e.status() != 204).count();
        assertThat("the load ran before the outage", exchanges.stream()
                .filter(e -> e.status() == 204 && e.answered() < down).count(), greaterThan(10L));
        assertThat("tracking resumed by itself", exchanges.stream()
                .filter(e -> e.status() == 204 && e.sent() > up).count(), greaterThan(10L));
        for (Exchange exchange : exchanges) {
            assertThat(exchange.toString(), exchange.status(), anyOf(is(204), is(500)));
            assertThat(exchange.toString(), Duration.ofNanos(exchange.answered() - exchange.sent()),
                       lessThan(Duration.ofSeconds(2)));
            // Sent once the database was gone (a little after, so that no commit was already on its way) and
            // answered before it was back: never a 204.
            if (exchange.sent() > down + 100_000_000L && exchange.answered() < up) {
                assertThat(exchange.toString(), exchange.status(), is(500));
            }
        }
        long stored = herald.interactions(notification.id()).size();
        assertThat("every 204 is stored", stored, greaterThanOrEqualTo(answered204));
        assertThat("stored without a 204: only requests answered otherwise", stored - answered204,
                   lessThanOrEqualTo(other));
    }

    /**
     * A lock that holds the interaction writer: the database answers a ping, but no interaction can be stored and
     * tracking answers 500. Readiness must say so, and come back once the lock goes.
     */
    @Test
    void aLockThatHoldsTheWriterTakesReadinessDown() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        assertThat(track(notification).status(), is(Status.NO_CONTENT_204));
        assertThat("ready before", readinessWithin(Status.OK_200, Duration.ofSeconds(3)), is(Status.OK_200));
        try (Connection lock = herald.database().connect(); Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES interactions WRITE, interaction_daily_totals WRITE");
            try (Http1ClientResponse response = track(notification)) {
                assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
            }
            // Readiness answers from its last check for a second; the writer counts its batch failed once its last
            // attempt ends, after the request's 500 (a lost connection is tried again within tracking.batch.max-wait).
            assertThat("readiness while nothing can be stored",
                       readinessWithin(Status.SERVICE_UNAVAILABLE_503, Duration.ofSeconds(3)),
                       is(Status.SERVICE_UNAVAILABLE_503));
            statement.execute("UNLOCK TABLES");
        }
        assertThat("ready after", readinessWithin(Status.OK_200, Duration.ofSeconds(4)), is(Status.OK_200));
    }

    /**
     * One client tracking under the lock, a request after the other, each failing after its 1.5 s wait: readiness,
     * asked every 250 ms as a load balancer might, stays DOWN between two failures (an operator's trial: 200, 200,
     * 200, 503, 200, 503, 200, 200, and HAProxy's three failures in a row never came).
     */
    @Test
    void readinessStaysDownBetweenTheFailuresOfOneClientWhileALockHoldsTheWriter() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        assertThat(track(notification).status(), is(Status.NO_CONTENT_204));
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try (Connection lock = herald.database().connect(); Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES interactions WRITE, interaction_daily_totals WRITE");
            client.submit(() -> {
                while (running.get()) {
                    try (Http1ClientResponse ignored = track(notification)) {
                        // each answers 500 after its wait
                    }
                }
            });
            assertThat(readinessWithin(Status.SERVICE_UNAVAILABLE_503, Duration.ofSeconds(5)),
                       is(Status.SERVICE_UNAVAILABLE_503));
            List<Status> asked = new java.util.ArrayList<>();
            for (int i = 0; i < 24; i++) {
                try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
                    asked.add(response.status());
                }
                Thread.sleep(250);
            }
            assertThat("every answer while nothing can be stored: " + asked,
                       asked.stream().allMatch(Status.SERVICE_UNAVAILABLE_503::equals), is(true));
            statement.execute("UNLOCK TABLES");
        } finally {
            running.set(false);
            client.shutdown();
            assertThat(client.awaitTermination(10, TimeUnit.SECONDS), is(true));
        }
        assertThat("ready again after the hold-down", readinessWithin(Status.OK_200, Duration.ofSeconds(6)),
                   is(Status.OK_200));
    }

    private Status readinessWithin(Status wanted, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        Status status;
        do {
            try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
                status = response.status();
            }
            if (status != wanted) {
                Thread.sleep(200);
            }
        } while (status != wanted && System.nanoTime() < deadline);
        return status;
    }

    /** One connection of its own per client (a shared client's pool is not under test here). */
    private void trackUntilStopped(Notification notification, AtomicBoolean running, List<Exchange> exchanges) {
        KeepAliveConnection connection = null;
        while (running.get()) {
            long sent = System.nanoTime();
            int status;
            try {
                if (connection == null) {
                    connection = new KeepAliveConnection(uri);
                }
                status = connection.postJson("/api/v1/public/track/" + notification.id(), "{\"type\":\"click\"}")
                        .status();
            } catch (IOException e) {
                status = -1;
                close(connection);
                connection = null;
            }
            exchanges.add(new Exchange(sent, System.nanoTime(), status));
        }
        close(connection);
    }

    private static void close(KeepAliveConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException ignored) {
                // closing a connection that failed
            }
        }
    }

    /** One request: when it was sent and answered (nanoTime), and its status (-1: no answer). */
    private record Exchange(long sent, long answered, int status) {
    }

    private Http1ClientResponse track(Notification notification) {
        return client.post("/api/v1/public/track/" + notification.id())
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"click\"}");
    }

    private static Duration elapsed(long startedNanos) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }
}
