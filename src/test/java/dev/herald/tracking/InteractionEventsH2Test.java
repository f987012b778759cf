package dev.herald.tracking;

import java.net.URI;
import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
@ServerTest
class InteractionEventsH2Test extends InteractionEventsContract {

    InteractionEventsH2Test(URI uri) {
        super(uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.batch.max-in-flight", "8"));
    }
}
