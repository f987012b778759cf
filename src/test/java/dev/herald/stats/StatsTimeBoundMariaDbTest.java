package dev.herald.stats;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.JsonBodies;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

@RequiresMariaDb
class StatsTimeBoundMariaDbTest extends StatsTimeBoundContract {

    private final TestDatabase database = TestDatabase.mariadb();

    @Override
    String endlessLocaleCounts() {
        return "SELECT locale, type, SUM(total) AS total FROM interaction_daily_totals WHERE notification_id = :id AND "
                + "day_number >= :fromDay AND day_number < :toDay AND (SELECT SLEEP(60)) = 0 GROUP BY locale, type";
    }

    @Override
    Map<String, String> settings() {
        // As config/prod.yaml: a request's statement that waits on the socket longer than this fails.
        return Map.of("db.connection.dataSource.socketTimeout", "1000");
    }

    @Override
    TestDatabase database() {
        return database;
    }

    /**
     * The project's daily counts as they are, after {@code seconds} of sleep for each row in the range: SLEEP is not
     * cached, and without a row it does not run.
     */
    private MainBuiltServer startWithSlowDailyCounts(String seconds) {
        return start(Map.of("db.statements.select-project-daily-counts", "SELECT day_number, type, SUM(total) AS total "
                + "FROM interaction_daily_totals WHERE project_id = :id AND day_number >= :fromDay AND day_number < "
                + ":toDay AND (SELECT SLEEP(" + seconds + ")) = 0 GROUP BY day_number, type ORDER BY day_number"));
    }

    /**
     * Half of the read turns (2 of limits.admin-reads-in-flight's 4) run a project's stats at once: a third is 503
     * SERVER_BUSY at once, and other reads keep their turns. In an outside trial, four slow ones held every turn for
     * their whole bound (other reads 503) and all four ran past it together.
     */
    @Test
    void twoProjectsStatsRunAtOnceAndOtherReadsKeepTheirTurns() throws Exception {
        try (MainBuiltServer server = startWithSlowDailyCounts("2")) {
            Project project = server.herald().project();
            addDailyTotal(server, project, server.herald().notification(project).save(), 3);
            String path = "/api/v1/admin/projects/" + project.id() + "/stats";
            // The first opens the stats' pool and readies both sides' code: the two below then start together.
            assertThat(get(server, path).statusCode(), is(200));
            ExecutorService askers = Executors.newFixedThreadPool(3);
            try {
                List<Future<HttpResponse<String>>> slow = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    slow.add(askers.submit(() -> get(server, path)));
                }
                Thread.sleep(700);
                HttpResponse<String> third = get(server, path);
                assertThat(third.body(), third.statusCode(), is(503));
                assertThat(JsonBodies.object(third.body()).getString("code"), is("SERVER_BUSY"));
                assertThat(JsonBodies.object(third.body()).getString("error"),
                           is("Too many project stats in flight; retry shortly"));
                assertThat(third.headers().firstValue("Retry-After").orElse(""), is("1"));
                HttpResponse<String> bad = get(server, path + "?from=2026-13-01");
                assertThat("a bad request is told so, not to retry: " + bad.body(), bad.statusCode(), is(400));
                HttpResponse<String> list = get(server, "/api/v1/admin/projects");
                assertThat("another read while two stats run: " + list.body(), list.statusCode(), is(200));
                for (Future<HttpResponse<String>> answer : slow) {
                    assertThat(answer.get(30, TimeUnit.SECONDS).statusCode(), is(200));
                }
                assertThat("a turn is given back", get(server, path).statusCode(), is(200));
            } finally {
                askers.shutdownNow();
            }
        }
    }

    /** Before the stats had a pool of their own, the serving socket time-out cut this statement: 500. */
    @Test
    void aStatementLongerThanTheServingSocketTimeOutAndWithinItsBoundIsAnswered() throws Exception {
        try (MainBuiltServer server = startWithSlowDailyCounts("1.5")) {
            Project project = server.herald().project();
            Notification notification = server.herald().notification(project).save();
            addDailyTotal(server, project, notification, 11);

            HttpResponse<String> stats = get(server, "/api/v1/admin/projects/" + project.id() + "/stats");
            assertThat(stats.body(), stats.statusCode(), is(200));
            assertThat(JsonBodies.object(stats.body()).getJsonNumber("impression").longValue(), is(11L));
            assertThat(JsonBodies.object(stats.body()).getJsonArray("daily").size(), is(1));
        }
    }
}
