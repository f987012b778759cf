package dev.herald.tracking;

import java.net.URI;
import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

/**
 * The slow twin: every rule of tracking holds with one transaction per request and no cached notifications.
 */
@ServerTest
class TrackingUnbatchedH2Test extends TrackingContract {

    TrackingUnbatchedH2Test(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.batch.enabled", "false"));
    }
}
