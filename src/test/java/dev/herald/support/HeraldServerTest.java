package dev.herald.support;

import java.sql.SQLException;
import java.util.Map;

import io.helidon.webserver.WebServerConfig;

import org.junit.jupiter.api.AfterAll;

/**
 * What every server test shares: Herald started on a fresh database for the class's server, and closed after it.
 * Test classes run one after another, so one static instance serves whichever class is running.
 */
public abstract class HeraldServerTest {

    protected static TestHerald herald;

    /** Call from a {@code @SetUpServer} method. */
    protected static void startServer(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of());
    }

    protected static void startServer(TestDatabase database, WebServerConfig.Builder server, Map<String, String> settings) {
        herald = TestHerald.start(database, settings);
        herald.server(server);
    }

    @AfterAll
    static void stopHerald() throws SQLException {
        if (herald != null) {
            herald.close();
            herald = null;
        }
    }
}
