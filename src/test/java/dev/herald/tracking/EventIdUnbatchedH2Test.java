package dev.herald.tracking;

import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

/** The same with one transaction per request: each repeat meets the id in the table or at its key. */
@ServerTest
class EventIdUnbatchedH2Test extends EventIdContract {

    EventIdUnbatchedH2Test(Http1Client client) {
        super(client);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.batch.enabled", "false"));
    }
}
