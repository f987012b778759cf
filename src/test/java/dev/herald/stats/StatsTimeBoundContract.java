package dev.herald.stats;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.JsonBodies;
import dev.herald.support.LoggerLines;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * The stats add up whole ranges on a pool of their own (storage.Reports), each statement bounded in the database to
 * half of {@code limits.read-timeout}: a statement past it is 503 {@code STATS_TIMEOUT} naming the bound, never 500,
 * and the connection serves on. Slow statements are made by replacing a named statement ({@code db.statements.*}).
 * An outside trial found a project's stats page 500 under config/prod.yaml's 1 s socket time-out, and without one
 * its connection closed unanswered at limits.read-timeout (20 s).
 */
abstract class StatsTimeBoundContract {

    /** limits.read-timeout: each stats statement may run half of it, 3 s. */
    static final String READ_TIMEOUT = "PT6S";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A replacement of select-notification-locale-counts, with its parameters, that runs for a minute or more. */
    abstract String endlessLocaleCounts();

    /** Settings beside the bound's and the replacement's. */
    abstract Map<String, String> settings();

    abstract TestDatabase database();

    MainBuiltServer start(Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(settings());
        settings.putAll(more);
        settings.put("admin.tokens.0", AdminClient.TOKEN);
        settings.put("limits.read-timeout", READ_TIMEOUT);
        settings.put("db.statements.select-notification-locale-counts", endlessLocaleCounts());
        return MainBuiltServer.start(database(), settings);
    }

    @Test
    void aStatementPastItsBoundIs503NamingTheBoundAndItsConnectionServesOn() throws Exception {
        try (MainBuiltServer server = start(Map.of());
             LoggerLines pool = new LoggerLines("com.zaxxer.hikari");
             LoggerLines failures = new LoggerLines("dev.herald.logging")) {
            Project project = server.herald().project();
            Notification notification = server.herald().notification(project).save();
            addDailyTotal(server, project, notification, 7);

            HttpResponse<String> slow = get(server, "/api/v1/admin/notifications/" + notification.id() + "/stats");
            assertThat(slow.body(), slow.statusCode(), is(503));
            JsonObject error = JsonBodies.object(slow.body());
            assertThat(error.getString("code"), is("STATS_TIMEOUT"));
            // Shown as it is by the console: no setting's name, the range in its users' words and the API's.
            assertThat(error.getString("error"), is("These stats took longer than 3 s to add up (a long range, or a "
                    + "busy database): choose a shorter range of days (from, to)"));
            // The operator's line names the setting.
            assertThat(failures.warnings().toString(), failures.warnings().stream().anyMatch(line -> line.startsWith(
                    "1 stats statement(s) ended by the database past their bound of 3 s (half of limits.read-timeout, "
                    + "less when that leaves under 3 s), answered 503 STATS_TIMEOUT: a shorter range of days, a less "
                    + "busy database or a longer limits.read-timeout lets them finish (docs/api.md#stats): ")),
                       is(true));

            for (int i = 0; i < 3; i++) {
                HttpResponse<String> project1 = get(server, "/api/v1/admin/projects/" + project.id() + "/stats");
                assertThat(project1.body(), project1.statusCode(), is(200));
                assertThat(JsonBodies.object(project1.body()).getJsonNumber("impression").longValue(), is(7L));
            }
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(server.observeUri().resolve(
                    "/observe/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(metrics.body(), containsString("\nherald_stats_timeouts_total 1\n"));
            assertThat(metrics.body(), containsString("\nherald_stats_pool_active_connections 0\n"));
            // A statement the database ended leaves its connection whole: HikariCP would otherwise take it for
            // broken, warn and open another.
            assertThat(pool.warnings(), is(empty()));
        }
    }

    void addDailyTotal(MainBuiltServer server, Project project, Notification notification, long total)
            throws Exception {
        try (Connection connection = database().connect(); Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, "
                    + "total, writer, locale) VALUES ('" + project.id() + "', 20000, '" + notification.id()
                    + "', 'impression', " + total + ", 1, 'en')");
        }
    }

    HttpResponse<String> get(MainBuiltServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(server.uri().resolve(path))
                                 .header("Authorization", "Bearer " + AdminClient.TOKEN)
                                 .timeout(Duration.ofSeconds(30))
                                 .build(), HttpResponse.BodyHandlers.ofString());
    }
}
