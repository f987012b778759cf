package dev.herald.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import dev.herald.account.Accounts;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#backups on an H2 file database, as Herald runs by default: an owner's backup is a zip in
 * {@code db.backup.directory} that opens as an H2 database holding every row the live one held, taken while it
 * serves; nobody else may take one; the backup is audited.
 */
@ServerTest
class BackupH2Test extends HeraldServerTest {

    static final String OLIVE_TOKEN = "olive-token-0123456789abcdef0123456789abcdef";

    private static Path directory;

    private final Http1Client http;

    BackupH2Test(Http1Client http) {
        this.http = http;
    }

    /** olive, an owner, beside alice (editor), victor (viewer) and the admin token (an editor). */
    @SetUpServer
    static void server(WebServerConfig.Builder server) throws IOException {
        directory = Files.createTempDirectory("herald-backup-test");
        Map<String, String> settings = new HashMap<>(Accounts.settings());
        settings.put("admin.accounts.2.name", "olive");
        settings.put("admin.accounts.2.role", "owner");
        settings.put("admin.accounts.2.token-sha256", Tokens.sha256(OLIVE_TOKEN));
        settings.put("db.backup.directory", backups().toString());
        startServer(TestDatabase.h2File(directory.resolve("db")), server, settings);
    }

    @Test
    void anOwnersBackupOpensAsAnH2DatabaseWithEveryRowOfTheLiveOne() throws Exception {
        Project project = herald.project();
        herald.key(project);
        String notification = herald.notification(project).status(NotificationStatus.PUBLISHED).save().id();
        try (Connection live = herald.database().connect(); Statement statement = live.createStatement()) {
            statement.execute("INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at,"
                    + " endpoint) VALUES ('" + notification + "', '" + project.id() + "', 'click', 1, 1, 'simple')");
        }
        Map<String, Long> before = rowCounts(herald.database().connect());

        Accounts.Answer answer = asOwner();

        assertThat(answer.body(), answer.status(), is(201));
        JsonObject taken = answer.object();
        String file = taken.getString("file");
        assertThat(file, file.matches("herald-\\d{8}T\\d{6}\\.\\d{3}Z\\.zip"), is(true));
        assertThat(taken.getJsonNumber("bytes").longValue(), is(Files.size(backups().resolve(file))));
        assertThat(taken.getJsonNumber("tookMs").longValue(), greaterThanOrEqualTo(0L));
        assertThat("nothing half written is left", partials(), is(empty()));
        Path restored = unzipped(backups().resolve(file));
        Map<String, Long> inBackup = rowCounts(DriverManager.getConnection(
                "jdbc:h2:file:" + restored.resolve("herald").toAbsolutePath() + ";DATABASE_TO_LOWER=TRUE", "sa", ""));
        assertThat(inBackup, is(before));
        assertThat(inBackup.get("interactions"), is(1L));

        Accounts.Answer audit = Accounts.send(http, Method.GET, "/audit?targetId=" + file, null,
                                              Map.of("Authorization", "Bearer " + OLIVE_TOKEN));
        JsonObject line = audit.array().getJsonObject(0);
        assertThat(line.getString("action"), is("database.backed-up"));
        assertThat(line.getString("actor"), is("olive"));
        assertThat(line.getJsonObject("target").getString("type"), is("backup"));
        assertThat(line.getJsonObject("details").getJsonNumber("bytes").longValue(),
                   is(taken.getJsonNumber("bytes").longValue()));
    }

    @Test
    void onlyAnOwnerMayBackUp() throws IOException {
        List<String> filesBefore = files();
        for (String token : List.of(Accounts.ALICE_TOKEN, Accounts.VICTOR_TOKEN, AdminClient.TOKEN)) {
            Accounts.Answer answer = Accounts.send(http, Method.POST, "/backups", null,
                                                   Map.of("Authorization", "Bearer " + token));
            assertThat(answer.body(), answer.status(), is(403));
            assertThat(answer.code(), is("FORBIDDEN"));
            if (!token.equals(Accounts.VICTOR_TOKEN)) {
                // A viewer is refused every change before the route, in words of its own.
                assertThat(answer.object().getString("error"), containsString("only an owner backs up the database"));
            }
        }
        assertThat(files(), is(filesBefore));
    }

    @Test
    void aBackupIsTakenWithPostAlone() {
        Accounts.Answer answer = Accounts.send(http, Method.GET, "/backups", null,
                                               Map.of("Authorization", "Bearer " + OLIVE_TOKEN));
        assertThat(answer.status(), is(405));
    }

    private Accounts.Answer asOwner() {
        return Accounts.send(http, Method.POST, "/backups", null, Map.of("Authorization", "Bearer " + OLIVE_TOKEN));
    }

    private static Path backups() {
        return directory.resolve("backups");
    }

    private static List<String> files() throws IOException {
        if (!Files.isDirectory(backups())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(backups())) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static List<String> partials() throws IOException {
        return files().stream().filter(name -> !name.endsWith(".zip")).toList();
    }

    /** Every table of Herald's schema and its rows; closes the connection. */
    static Map<String, Long> rowCounts(Connection connection) throws SQLException {
        try (connection; Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = 'public'")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
            Map<String, Long> counts = new TreeMap<>();
            for (String table : tables) {
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
                    rows.next();
                    counts.put(table, rows.getLong(1));
                }
            }
            return counts;
        }
    }

    private static Path unzipped(Path zip) throws IOException {
        Path target = Files.createTempDirectory(directory, "restored");
        try (InputStream in = Files.newInputStream(zip); ZipInputStream entries = new ZipInputStream(in)) {
            for (ZipEntry entry = entries.getNextEntry(); entry != null; entry = entries.getNextEntry()) {
                Path file = target.resolve(entry.getName()).normalize();
                if (!file.startsWith(target)) {
                    throw new IOException("An entry outside the directory: " + entry.getName());
                }
                Files.copy(entries, file);
            }
        }
        return target;
    }
}
