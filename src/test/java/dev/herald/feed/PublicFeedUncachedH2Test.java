package dev.herald.feed;

import java.net.URI;
import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

/**
 * The slow twin: every rule of Get Notifications holds with the cache off, every request read from the database.
 */
@ServerTest
class PublicFeedUncachedH2Test extends PublicFeedContract {

    PublicFeedUncachedH2Test(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("feed.cache.enabled", "false"));
    }
}
