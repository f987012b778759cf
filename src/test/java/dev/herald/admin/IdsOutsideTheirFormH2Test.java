package dev.herald.admin;

import java.net.URI;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

@ServerTest
class IdsOutsideTheirFormH2Test extends IdsOutsideTheirFormContract {

    IdsOutsideTheirFormH2Test(Http1Client http, URI uri) {
        super(http, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        start(TestDatabase.h2(), server);
    }
}
