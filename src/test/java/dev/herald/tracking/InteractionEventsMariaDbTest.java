package dev.herald.tracking;

import java.net.URI;
import java.util.Map;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

@RequiresMariaDb
@ServerTest
class InteractionEventsMariaDbTest extends InteractionEventsContract {

    InteractionEventsMariaDbTest(URI uri) {
        super(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.mariadb(), server, Map.of("tracking.batch.max-in-flight", "8"));
    }
}
