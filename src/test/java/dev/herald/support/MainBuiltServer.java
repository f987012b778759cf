package dev.herald.support;

import java.net.URI;
import java.sql.SQLException;
import java.util.Map;

import dev.herald.observe.ObserveSettings;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;

/**
 * Herald's server built as Main builds it, with its one connection selector. {@code @ServerTest} lists a server's
 * connection selectors twice, and Helidon then identifies each connection by its first bytes: tests of what a
 * connection meets as it is accepted (silent clients, a client's share) need the server as it runs.
 */
public final class MainBuiltServer implements AutoCloseable {

    private final TestHerald herald;
    private final WebServer server;

    private MainBuiltServer(TestHerald herald, WebServer server) {
        this.herald = herald;
        this.server = server;
    }

    public static MainBuiltServer start(TestDatabase database, Map<String, String> settings) {
        TestHerald herald = TestHerald.start(database, settings);
        WebServerConfig.Builder builder = WebServer.builder().host("127.0.0.1").port(0).shutdownHook(false);
        herald.server(builder);
        return new MainBuiltServer(herald, builder.build().start());
    }

    public TestHerald herald() {
        return herald;
    }

    /** The public listener. */
    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /** The operations listener. */
    public URI observeUri() {
        return URI.create("http://127.0.0.1:" + server.port(ObserveSettings.SOCKET));
    }

    /** Stops it and leaves the database as it is, for other instances on it. */
    public void stop() {
        server.stop();
        herald.stop();
    }

    @Override
    public void close() throws SQLException {
        server.stop();
        herald.close();
    }
}
