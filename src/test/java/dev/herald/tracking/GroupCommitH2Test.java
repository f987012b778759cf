package dev.herald.tracking;

import java.net.URI;
import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

@ServerTest
class GroupCommitH2Test extends GroupCommitContract {

    GroupCommitH2Test(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.batch.min-in-flight", "8", "tracking.batch.max-in-flight", "8"));
    }
}
