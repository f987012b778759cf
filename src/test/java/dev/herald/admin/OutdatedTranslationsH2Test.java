package dev.herald.admin;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

@ServerTest
class OutdatedTranslationsH2Test extends OutdatedTranslationsContract {

    OutdatedTranslationsH2Test(Http1Client client) {
        super(client);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        start(TestDatabase.h2(), server);
    }
}
