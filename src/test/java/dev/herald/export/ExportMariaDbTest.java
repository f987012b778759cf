package dev.herald.export;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

@RequiresMariaDb
@ServerTest
class ExportMariaDbTest extends ExportContract {

    ExportMariaDbTest(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startWithExportSettings(TestDatabase.mariadb(), server);
    }

    /**
     * An answer's sizing reads the index from its cursor on, wherever that stands, at the candidates an answer of 8 MiB
     * takes. Asked for each candidate's metadata in the same read, MariaDB chose to read the project's index from its
     * first row (ref on project_id) and answered from the middle of 7 M rows in over a second, past the driver's socket
     * time-out of config/prod.yaml: 500 at every try. The plan, not a time: EXPLAIN of the statement as Herald sends it
     * (the driver writes the values into it), on a table where four rows in five are the project's.
     */
    @Test
    void anAnswersSizingReadsTheIndexFromItsCursorNotFromTheProjectsFirstRow() throws Exception {
        int rows = 125_000;
        long start = now - Duration.ofDays(10).toMillis();
        try (Connection connection = herald.database().connect(); Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at,"
                              + " endpoint) SELECT 'n', IF(seq % 5 = 0, 'another-project', '" + projectId + "'),"
                              + " 'click', " + start + " + seq, " + start + " + seq, 'simple' FROM seq_1_to_" + rows);
            sql.execute("ANALYZE TABLE interactions");
            String sizing = statement("select-export-interactions-last")
                    .replace(":projectId", "'" + projectId + "'")
                    .replace(":afterAt", String.valueOf(start + rows * 2L / 5))
                    .replace(":afterId", "0")
                    .replace(":before", String.valueOf(now))
                    .replace(":limit", String.valueOf(8 * 1024 * 1024 / 384 + 1))
                    .replace(":rowBytes", "384")
                    .replace(":budget", String.valueOf(8 * 1024 * 1024));
            List<String> reads = new ArrayList<>();
            try (ResultSet plan = sql.executeQuery("EXPLAIN " + sizing)) {
                while (plan.next()) {
                    if (plan.getString("key") != null && plan.getString("key").equals("idx_interactions_export")) {
                        reads.add(plan.getString("type"));
                    }
                }
            }
            assertThat("reads of idx_interactions_export", reads, is(List.of("range")));
        }
        Export export = export("since=" + Instant.ofEpochMilli(start + rows * 2L / 5) + "&limit=100");
        assertThat(export.status(), is(200));
        assertThat(export.lines().size(), is(100));
    }

    /** A statement of the bundled file by its name, as Herald reads it. */
    private static String statement(String name) throws IOException {
        try (InputStream file = ExportMariaDbTest.class.getResourceAsStream("/statements.sql")) {
            String text = new String(file.readAllBytes(), StandardCharsets.UTF_8);
            int from = text.indexOf("\n", text.indexOf("-- name: " + name + "\n")) + 1;
            int to = text.indexOf("\n-- ", from);
            return text.substring(from, to < 0 ? text.length() : to);
        }
    }
}
