package dev.herald.export;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TcpRelay;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * docs/api.md#export: the database lost in the middle of an export, after its status and first rows went out. The
 * answer must end without its last chunk, so that a loader sees a failed transfer and pulls again with the same
 * cursor, never a shorter answer that looks complete (with a cursor past rows it never received).
 */
@RequiresMariaDb
@ServerTest
class ExportOutageMariaDbTest extends HeraldServerTest {

    private static final int ROWS = 10_000;
    private static TcpRelay relay;

    private final Http1Client http;
    private final URI uri;

    ExportOutageMariaDbTest(Http1Client http, URI uri) {
        this.http = http;
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        TestDatabase database = TestDatabase.mariadb();
        URI mariadb = TestDatabase.mariadbServer();
        relay = new TcpRelay(mariadb.getHost(), mariadb.getPort());
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                             "db.connection.url", database.urlThroughPort(relay.port()),
                                             "db.connection.connectionTimeout", "800",
                                             "tracking.export.settle-window", "PT10S"));
    }

    @AfterAll
    static void stopRelay() {
        relay.close();
    }

    @Test
    void anAnswerCutByTheDatabaseEndsWithoutItsLastChunk() throws Exception {
        String projectId = new AdminClient(http).created("/projects", "{\"name\":\"p\"}").getString("id");
        insertRows(projectId);
        herald.clock().advance(Duration.ofSeconds(11));

        String raw;
        try (Socket socket = new Socket()) {
            // Small buffers on the way: the server is still reading pages when the database goes.
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new java.net.InetSocketAddress(uri.getHost(), uri.getPort()));
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/admin/projects/" + projectId + "/export/interactions?limit=100000 HTTP/1.1\r\n"
                    + "Host: herald\r\nAuthorization: Bearer " + AdminClient.TOKEN + "\r\n\r\n")
                              .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] first = in.readNBytes(64 * 1024);
            relay.down();
            byte[] rest = in.readAllBytes();
            raw = new String(first, StandardCharsets.UTF_8) + new String(rest, StandardCharsets.UTF_8);
        } finally {
            relay.up();
        }

        assertThat(raw, startsWith("HTTP/1.1 200 OK"));
        assertThat(raw, not(endsWith("\r\n0\r\n\r\n")));
        long rows = raw.lines().filter(line -> line.startsWith("{\"id\":")).count();
        assertThat(rows, lessThan((long) ROWS));
    }

    /** Rows of a kilobyte each, straight into MariaDB (not through the relay). */
    private static void insertRows(String projectId) throws Exception {
        String metadata = "{\"pad\":\"" + "x".repeat(1000) + "\"}";
        long at = herald.clock().millis();
        try (Connection connection = herald.database().connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint,"
                            + " metadata) VALUES (?, ?, 'impression', ?, ?, 'enhanced', ?)")) {
                for (int i = 0; i < ROWS; i++) {
                    insert.setString(1, "n" + i);
                    insert.setString(2, projectId);
                    insert.setLong(3, at);
                    insert.setLong(4, at);
                    insert.setString(5, metadata);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            connection.commit();
        }
    }
}
