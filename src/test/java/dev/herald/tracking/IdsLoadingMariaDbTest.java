package dev.herald.tracking;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.admin.Ids;
import dev.herald.notification.Notification;
import dev.herald.observe.ObserveSettings;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * Issue 33: right after a start (or a reset of the change log), before the notification ids are loaded, a flood of
 * made-up ids took every connection of the pool (80 answers 500 of 68,092 in the first second on MariaDB, readiness
 * 503 three times). The load is held here by a real lock on the notifications table, and the change log reset by a
 * real gap: the lookups wait for the load instead of the database, and readiness stays up meanwhile.
 */
@RequiresMariaDb
@ServerTest
class IdsLoadingMariaDbTest extends HeraldServerTest {

    private static final int MADE_UP = 40;

    private final Http1Client client;
    private final Http1Client observe;

    IdsLoadingMariaDbTest(Http1Client client, @Socket(ObserveSettings.SOCKET) Http1Client observe) {
        this.client = client;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.mariadb(), server, Map.of("rate-limit.requests", "1000000"));
    }

    @Test
    void madeUpIdsWaitForTheLoadNotForThePool() throws Exception {
        Notification real = herald.notification(herald.project()).save();
        assertThat(track(real.id()), is(204));
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
        List<Future<Integer>> madeUp = new ArrayList<>();
        Future<Integer> known;
        long fromDatabase;
        try (Connection lock = herald.database().connect(); Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES notifications WRITE");
            resetTheChangeLog();
            fromDatabase = lookups().fromDatabase();
            for (int i = 0; i < MADE_UP; i++) {
                madeUp.add(clients.submit(() -> track(Ids.newId())));
            }
            known = clients.submit(() -> track(real.id()));
            Thread.sleep(1_100); // readiness answers from its last check for a second
            assertThat("not one made-up id asked the database while the ids load",
                       lookups().fromDatabase() - fromDatabase, is(0L));
            assertThat("readiness while the ids load", ready(), is(Status.OK_200));
            statement.execute("UNLOCK TABLES");
        }
        List<Integer> answers = new ArrayList<>();
        for (Future<Integer> answer : madeUp) {
            answers.add(answer.get());
        }
        assertThat(answers, everyItem(is(404)));
        assertThat("the notification that exists, found once the ids are loaded", known.get(), is(204));
        // The one that exists is a "maybe" of the filter and read; a made-up one rarely is.
        assertThat(lookups().fromDatabase() - fromDatabase, lessThanOrEqualTo(3L));
        clients.close();
    }

    @Test
    void aLoadLongerThanTheWaitIsAnswered503WithRetryAfter() throws Exception {
        try (Connection lock = herald.database().connect(); Statement statement = lock.createStatement()) {
            statement.execute("LOCK TABLES notifications WRITE");
            resetTheChangeLog();
            long fromDatabase = lookups().fromDatabase();
            try (Http1ClientResponse response = post(Ids.newId())) {
                assertThat(response.status(), is(Status.SERVICE_UNAVAILABLE_503));
                assertThat(response.headers().get(HeaderNames.RETRY_AFTER).get(), is("1"));
                assertThat(response.as(String.class),
                           is("{\"message\":\"Server busy; retry shortly\",\"code\":\"SERVER_BUSY\"}"));
            }
            assertThat(lookups().fromDatabase() - fromDatabase, is(0L));
            statement.execute("UNLOCK TABLES");
        }
        awaitLoaded();
    }

    /**
     * A gap in the change log, as after an instance fell an hour behind: the next read drops the caches and loads
     * the ids again (held by the caller's lock). Returns once that read happened.
     */
    private static void resetTheChangeLog() throws Exception {
        String projectId = "gap-" + Ids.newId();
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            gap(statement, projectId);
        }
        assertThat("the change log read", herald.services().changes().awaitRead(Duration.ofSeconds(5)), is(true));
    }

    private static void gap(Statement statement, String projectId) throws Exception {
        long version;
        try (ResultSet row = statement.executeQuery("SELECT version FROM change_counter WHERE id = 1")) {
            row.next();
            version = row.getLong(1);
        }
        statement.execute("UPDATE change_counter SET version = " + (version + 2) + " WHERE id = 1");
        statement.execute("INSERT INTO change_log (version, project_id, notification_id, changed_at) VALUES ("
                                  + (version + 2) + ", '" + projectId + "', NULL, " + herald.clock().millis() + ")");
    }

    private void awaitLoaded() throws InterruptedException {
        for (int i = 0; i < 100 && track(Ids.newId()) != 404; i++) {
            Thread.sleep(50);
        }
    }

    private Status ready() {
        try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
            return response.status();
        }
    }

    private LookupFigures lookups() {
        return herald.services().tracking().lookupFigures();
    }

    private int track(String id) {
        try (Http1ClientResponse response = post(id)) {
            return response.status().code();
        }
    }

    private Http1ClientResponse post(String id) {
        return client.post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"impression\"}");
    }
}
