package dev.herald.export;

import java.net.URI;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

@ServerTest
class ExportH2Test extends ExportContract {

    ExportH2Test(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startWithExportSettings(TestDatabase.h2(), server);
    }
}
