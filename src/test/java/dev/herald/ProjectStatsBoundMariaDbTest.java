package dev.herald;

import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.support.ChildHerald;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * A project's stats for a project of many notifications, asked by several at once, at the launcher's heap
 * (docs/api.md#stats). Tried on the runtime image: six asking at once for the stats of a project with 30,000
 * notifications active in the range (an answer of 3.4 MB) ended the process (OutOfMemoryError at 80 MB): the answer
 * was built as a tree, some 1.1 KB of heap a notification, before it was written. Written as it was made, 90,000
 * ended it still: every notification's counts were held to be sorted. They now come a page at a time, added up and
 * ordered by the database.
 */
@RequiresMariaDb
class ProjectStatsBoundMariaDbTest {

    private static final String TOKEN = "project-stats-bound-admin-token-0123456789ab";
    private static final int NOTIFICATIONS = 90_000;
    private static final int ASKING = 6;

    @TempDir
    Path directory;

    @Test
    void theStatsOfAProjectOfManyNotificationsAskedBySixAtOnceLeaveTheProcessAlive() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb();
             ChildHerald herald = ChildHerald.start(directory.resolve("run"), ChildHerald.onDatabase(database) + """
                admin:
                  tokens: ["%s"]
                """.formatted(TOKEN), List.of("-XX:+UseSerialGC", "-Xss512k", "-Xmx80m",
                                              "-XX:+ExitOnOutOfMemoryError"))) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            byte[] body = "{\"name\":\"many\"}".getBytes(StandardCharsets.UTF_8);
            RawHttp.Response created = RawHttp.exchange(api, "POST /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length, body);
            assertThat(created.body(), created.status(), is(201));
            String project = JsonBodies.object(created.body()).getString("id");
            long today = System.currentTimeMillis() / 86_400_000L;
            try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
                for (String type : List.of("impression", "click")) {
                    sql.executeUpdate("INSERT INTO interaction_daily_totals (project_id, day_number, notification_id,"
                            + " type, total, writer, locale) SELECT '" + project + "', " + today + " - seq % 700,"
                            + " CONCAT('n', LPAD(seq, 21, '0')), '" + type + "', 1 + seq % 97, 1, '' FROM seq_1_to_"
                            + NOTIFICATIONS);
                }
            }
            String stats = "GET /api/v1/admin/projects/" + project + "/stats?from=2020-01-01&to=2030-12-31 HTTP/1.1\r\n"
                    + "Host: x\r\nAuthorization: Bearer " + TOKEN;
            ExecutorService askers = Executors.newFixedThreadPool(ASKING);
            int answered = 0;
            try {
                List<Future<RawHttp.Response>> answers = new ArrayList<>();
                for (int i = 0; i < ASKING; i++) {
                    answers.add(askers.submit(() -> RawHttp.exchange(api, InetAddress.getLoopbackAddress(), stats, new byte[0],
                                                                       Duration.ofSeconds(60))));
                }
                for (Future<RawHttp.Response> future : answers) {
                    RawHttp.Response answer = future.get(90, TimeUnit.SECONDS);
                    // Past two project stats at once (half of limits.admin-reads-in-flight) a read is 503 at once; the
                    // rest are answered whole.
                    assertThat(answer.status(), anyOf(is(200), is(503)));
                    if (answer.status() == 200) {
                        answered++;
                        // At most a megabyte, the daily series of 700 days included.
                        assertThat(answer.body().length(), lessThanOrEqualTo(1 << 20));
                        assertThat(JsonBodies.object(answer.body()).getJsonArray("notifications").size(),
                                   greaterThan(8_000));
                    }
                }
            } finally {
                askers.shutdownNow();
            }
            assertThat(answered, greaterThan(0));
            assertThat(everyPage(api, stats), is(NOTIFICATIONS));
            assertThat("alive after the reads:\n" + herald.log(), herald.isAlive(), is(true));
            assertThat(herald.log().toLowerCase(Locale.ROOT).contains("outofmemory"), is(false));
        }
    }

    /** Follows the pages' links from the first: how many notifications in all, each once, most impressions first. */
    private static int everyPage(URI api, String firstRequest) throws Exception {
        Set<String> seen = new HashSet<>();
        long impressions = Long.MAX_VALUE;
        String request = firstRequest;
        while (request != null) {
            RawHttp.Response answer = RawHttp.exchange(api, InetAddress.getLoopbackAddress(), request, new byte[0],
                                                       Duration.ofSeconds(60));
            assertThat(answer.body(), answer.status(), is(200));
            for (JsonValue item : JsonBodies.object(answer.body()).getJsonArray("notifications")) {
                JsonObject notification = item.asJsonObject();
                assertThat(seen.add(notification.getString("notificationId")), is(true));
                long these = notification.getJsonNumber("impression").longValueExact();
                assertThat(these, lessThanOrEqualTo(impressions));
                impressions = these;
            }
            String link = answer.headers().get("link");
            request = link == null ? null : "GET " + link.substring(1, link.indexOf('>')) + " HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer " + TOKEN;
        }
        return seen.size();
    }
}
