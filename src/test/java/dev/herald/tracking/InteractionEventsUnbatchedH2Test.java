package dev.herald.tracking;

import java.net.URI;
import java.util.Map;

import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
@ServerTest
/** The path without batching ({@code tracking.batch.enabled: false}): the same events. */
class InteractionEventsUnbatchedH2Test extends InteractionEventsContract {

    InteractionEventsUnbatchedH2Test(URI uri) {
        super(uri);
    }

    /**
     * One lane, which every request's transaction shares: one that finds the open event changed by another (the count
     * it expected is gone) opens a new one, so with 16 clients at once some 80 events of 400; still each interaction
     * in exactly one.
     */
    @Override
    int maxEvents() {
        return 200;
    }

    @Override
    boolean namesItsRows() {
        return false;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.batch.enabled", "false"));
    }
}
