package dev.herald.feed;

import java.net.URI;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TcpRelay;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A cached answer and an unknown key touch no database: with the database cut off (and the change log read within
 * its bound), both are still answered, 200 and 401, where anything that reached the database would be a 500.
 */
@RequiresMariaDb
@ServerTest
class FeedWithoutDatabaseMariaDbTest extends HeraldServerTest {

    private static TcpRelay relay;

    private final Http1Client client;

    FeedWithoutDatabaseMariaDbTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        TestDatabase database = TestDatabase.mariadb();
        URI mariadb = TestDatabase.mariadbServer();
        relay = new TcpRelay(mariadb.getHost(), mariadb.getPort());
        startServer(database, server, Map.of("db.connection.url", database.urlThroughPort(relay.port()),
                                             "db.connection.connectionTimeout", "800",
                                             "feed.cache.max-staleness", "PT30S",
                                             "rate-limit.requests", "100000"));
    }

    @AfterAll
    static void stopRelay() {
        relay.close();
    }

    @Test
    void hitsAndUnknownKeysAreAnsweredWithTheDatabaseCutOff() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        ApiKey neverAsked = herald.key(project);
        herald.notification(project).save();
        String cached = body(key.key());

        relay.down();
        try {
            for (int i = 0; i < 500; i++) {
                assertThat(body(key.key()), is(cached));
                assertThat(status("Unknown0123456789Unknown01234567" + String.format("%05d", i)), is(401));
            }
            assertThat("the database is really gone: a key's first answer needs it",
                       status(neverAsked.key()), is(500));
        } finally {
            relay.up();
        }
    }

    private String body(String key) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status().code(), is(200));
            return response.as(String.class);
        }
    }

    private int status(String key) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications").request()) {
            return response.status().code();
        }
    }
}
