package dev.herald.stats;

import java.net.http.HttpResponse;
import java.util.Map;

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

    /** Before the stats had a pool of their own, the serving socket time-out cut this statement: 500. */
    @Test
    void aStatementLongerThanTheServingSocketTimeOutAndWithinItsBoundIsAnswered() throws Exception {
        try (MainBuiltServer server = start(Map.of("db.statements.select-project-daily-counts",
                "SELECT day_number, type, SUM(total) AS total FROM interaction_daily_totals WHERE project_id = :id AND "
                        + "day_number >= :fromDay AND day_number < :toDay AND (SELECT SLEEP(1.5)) = 0 "
                        + "GROUP BY day_number, type ORDER BY day_number"))) {
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
