package dev.herald.storage;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * decisions §1: with the database unreachable, requests that need it answer 500 within 2 seconds, readiness
 * reports down, and service resumes by itself when it returns. MariaDB is reached through a relay that the test takes down and brings back,
 * with the driver time-outs of config/prod.yaml.
 */
@RequiresMariaDb
@ServerTest
class DatabaseOutageMariaDbTest extends HeraldServerTest {

    private static TcpRelay relay;

    private final Http1Client client;

    DatabaseOutageMariaDbTest(Http1Client client) {
        this.client = client;
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
        try (Http1ClientResponse response = client.get("/observe/health/ready").request()) {
            assertThat("readiness reports down", response.status(), is(Status.SERVICE_UNAVAILABLE_503));
            assertThat(response.as(String.class),
                       is("{\"status\":\"DOWN\",\"checks\":[{\"name\":\"database\",\"status\":\"DOWN\"}]}"));
        }
        try (Http1ClientResponse response = client.get("/observe/health/live").request()) {
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
        try (Http1ClientResponse response = client.get("/observe/health/ready").request()) {
            assertThat("ready again", response.status(), is(Status.OK_200));
        }
        // One before the outage, one after it: nothing answered 204 went missing, nothing refused was kept.
        assertThat(herald.interactions(notification.id()), hasSize(2));
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
