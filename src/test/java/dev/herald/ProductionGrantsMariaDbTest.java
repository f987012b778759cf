package dev.herald;

import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.herald.support.ChildHerald;
import dev.herald.support.RawHttp;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * The README's Production section creates the database and a user with only the rights Herald needs. Its SQL, as
 * written there, must be enough for every migration and for the API's reads and writes, deletes included.
 */
@RequiresMariaDb
class ProductionGrantsMariaDbTest {

    private static final String TOKEN = "grants-0123456789abcdef0123456789abcdef";

    @TempDir
    Path directory;

    @Test
    void theReadmesGrantsAreEnoughForMigrationsAndTheApi() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String database = "herald_grants_" + suffix;
        String user = "herald_" + suffix;
        List<String> statements = readmeSql().stream()
                .map(sql -> sql.replace("DATABASE herald ", "DATABASE " + database + " ")
                        .replace("herald.*", database + ".*")
                        .replace("'herald'@", "'" + user + "'@"))
                .toList();
        assertThat("CREATE DATABASE, CREATE USER, GRANT", statements, hasSize(3));
        String password = statements.get(1).replaceAll(".*IDENTIFIED BY '([^']+)'.*", "$1");
        try (Connection administrator = TestDatabase.mariadbAdministrator();
             Statement statement = administrator.createStatement()) {
            try {
                for (String sql : statements) {
                    statement.execute(sql);
                }
                try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase(
                        "jdbc:" + TestDatabase.mariadbServer() + database) + """
                            username: "%s"
                            password: "%s"
                        admin:
                          tokens: ["%s"]
                        """.formatted(user, password, TOKEN), Map.of())) {
                    firstFiveMinutes(URI.create("http://127.0.0.1:" + herald.port()));
                }
            } finally {
                statement.execute("DROP USER IF EXISTS '" + user + "'@'%'");
                statement.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    private static void firstFiveMinutes(URI server) throws Exception {
        String project = post(server, "/api/v1/admin/projects", "{\"name\":\"Web shop\"}", 201).getString("id");
        String key = post(server, "/api/v1/admin/projects/" + project + "/api-keys", "", 201).getString("key");
        String notification = post(server, "/api/v1/admin/projects/" + project + "/notifications",
                                    "{\"message\":\"Winter sale\",\"status\":\"PUBLISHED\"}", 201).getString("id");
        assertThat(RawHttp.exchange(server, "GET /api/v1/public/" + key + "/notifications HTTP/1.1\r\nHost: x").body(),
                   containsString(notification));
        RawHttp.Response tracked = RawHttp.exchange(server, "POST /api/v1/public/track/" + notification
                + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 21",
                "{\"type\":\"impression\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(tracked.body(), tracked.status(), is(204));
        JsonObject stats = json(admin(server, "GET", "/api/v1/admin/notifications/" + notification + "/stats", "",
                                      200));
        assertThat(stats.getInt("impression"), is(1));
        admin(server, "DELETE", "/api/v1/admin/notifications/" + notification, "", 204);
    }

    private static JsonObject post(URI server, String path, String body, int status) throws Exception {
        return json(admin(server, "POST", path, body, status));
    }

    private static String admin(URI server, String method, String path, String body, int status) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response answer = RawHttp.exchange(server, method + " " + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + TOKEN + "\r\n"
                + (bytes.length > 0 ? "Content-Type: application/json\r\n" : "")
                + "Content-Length: " + bytes.length, bytes);
        assertThat(method + " " + path + ": " + answer.body(), answer.status(), is(status));
        return answer.body();
    }

    private static JsonObject json(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    /** The statements of the first sql block under "## Production" in README.md. */
    private static List<String> readmeSql() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("\n## Production\n");
        assertThat("README.md has a Production section", section >= 0, is(true));
        int start = readme.indexOf("```sql\n", section) + "```sql\n".length();
        String block = readme.substring(start, readme.indexOf("```", start));
        return Arrays.stream(block.split(";")).map(String::strip).filter(sql -> !sql.isEmpty()).toList();
    }
}
