package dev.herald.stats;

import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.KeepAliveConnection;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Stats (docs/api.md#stats), run against each database by a subclass. Interactions are recorded through the public
 * API with client timestamps, so they fall on known UTC days.
 */
abstract class StatsContract extends HeraldServerTest {

    private final Http1Client http;
    private final URI uri;
    private final AdminClient admin;
    private String projectId;
    private String first;
    private String second;

    StatsContract(Http1Client http, URI uri) {
        this.http = http;
        this.uri = uri;
        this.admin = new AdminClient(http);
    }

    static void startWithAdminToken(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @BeforeEach
    void interactionsOnThreeDays() {
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        first = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"a\"}").getString("id");
        second = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"b\"}").getString("id");
        track(first, "impression", "2026-11-20T08:00:00Z");
        track(first, "impression", "2026-11-20T23:59:59.999Z");
        track(first, "impression", "2026-11-21T00:00:00Z");
        track(first, "click", "2026-11-21T12:00:00+05:00");
        track(first, "conversion", "2026-11-22T00:30:00+01:00");   // 2026-11-21T23:30Z
        track(first, "conversion", "2026-11-22T09:00:00Z");
        track(second, "impression", "2026-11-21T10:00:00Z");
        track(second, "impression", "2026-11-21T11:00:00Z");
    }

    @Test
    void aNotificationsStatsCountEveryTypeWithDailyBucketsInUtc() {
        JsonObject stats = statsAt("/notifications/" + first + "/stats");
        assertThat(stats.keySet(), is(Set.of("notificationId", "impression", "click", "conversion", "ctr", "uniqueUsers",
                                             "daily", "locales")));
        // Interactions without user tokens reach no user that can be counted (userstate.UserStateContract).
        assertThat(stats.getJsonNumber("uniqueUsers").longValue(), is(0L));
        assertThat(stats.getString("notificationId"), is(first));
        assertThat(counts(stats), is(List.of(3L, 1L, 2L)));
        assertThat(stats.getJsonNumber("ctr").doubleValue(), is(1.0 / 3));
        JsonArray daily = stats.getJsonArray("daily");
        assertThat(daily.size(), is(3));
        assertThat(daily.getJsonObject(0).getString("date"), is("2026-11-20"));
        assertThat(counts(daily.getJsonObject(0)), is(List.of(2L, 0L, 0L)));
        assertThat(daily.getJsonObject(1).getString("date"), is("2026-11-21"));
        assertThat(counts(daily.getJsonObject(1)), is(List.of(1L, 1L, 1L)));
        assertThat(daily.getJsonObject(2).getString("date"), is("2026-11-22"));
        assertThat(counts(daily.getJsonObject(2)), is(List.of(0L, 0L, 1L)));
    }

    @Test
    void fromAndToAreUtcDaysBothIncluded() {
        JsonObject one = statsAt("/notifications/" + first + "/stats?from=2026-11-21&to=2026-11-21");
        assertThat(counts(one), is(List.of(1L, 1L, 1L)));
        assertThat(one.getJsonNumber("ctr").doubleValue(), is(1.0));
        assertThat(one.getJsonArray("daily").size(), is(1));

        assertThat(counts(statsAt("/notifications/" + first + "/stats?from=2026-11-21")),
                   is(List.of(1L, 1L, 2L)));
        assertThat(counts(statsAt("/notifications/" + first + "/stats?to=2026-11-20")),
                   is(List.of(2L, 0L, 0L)));
        JsonObject none = statsAt("/notifications/" + first + "/stats?from=2027-01-01");
        assertThat(counts(none), is(List.of(0L, 0L, 0L)));
        assertThat(none.getJsonNumber("ctr").doubleValue(), is(0.0));
        assertThat(none.getJsonArray("daily").size(), is(0));
    }

    @Test
    void aProjectsStatsListEveryNotificationMostSeenFirst() {
        JsonObject stats = statsAt("/projects/" + projectId + "/stats");
        assertThat(stats.keySet(), is(Set.of("projectId", "impression", "click", "conversion", "ctr", "notifications",
                                             "daily", "locales")));
        assertThat(counts(stats), is(List.of(5L, 1L, 2L)));
        assertThat(stats.getJsonNumber("ctr").doubleValue(), is(1.0 / 5));
        JsonArray notifications = stats.getJsonArray("notifications");
        assertThat(notifications.getJsonObject(0).getString("notificationId"), is(first));
        assertThat(notifications.getJsonObject(0).getJsonNumber("ctr").doubleValue(), is(1.0 / 3));
        assertThat(notifications.getJsonObject(1).getString("notificationId"), is(second));
        assertThat(counts(notifications.getJsonObject(1)), is(List.of(2L, 0L, 0L)));
        assertThat(notifications.getJsonObject(1).getJsonNumber("ctr").doubleValue(), is(0.0));
        assertThat(notifications.getJsonObject(1).getJsonNumber("uniqueUsers").longValue(), is(0L));

        assertThat(counts(statsAt("/projects/" + projectId + "/stats?from=2026-11-21&to=2026-11-21")),
                   is(List.of(3L, 1L, 1L)));
    }

    /**
     * A project's notifications come a page at a time, most impressions first and then by id across pages (a tie
     * split by a page's end included), each page with the whole project's totals, daily and locales; the pages
     * together are the answer read at once.
     */
    @Test
    void aProjectsNotificationsComeAPageAtATimeMostSeenFirst() throws SQLException {
        String third = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"c\"}").getString("id");
        track(third, "impression", "2026-11-21T10:00:00Z");
        track(third, "impression", "2026-11-21T10:00:00Z");
        track(third, "click", "2026-11-21T10:00:00Z");
        long day = java.time.LocalDate.parse("2026-11-21").toEpochDay();
        sql("INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, writer, locale, total)"
                    + " VALUES ('" + projectId + "', " + day + ", 'deleted', 'click', 0, '', 1)");
        JsonObject whole = statsAt("/projects/" + projectId + "/stats");
        List<String> ids = whole.getJsonArray("notifications").stream()
                .map(n -> n.asJsonObject().getString("notificationId")).toList();
        List<String> tied = second.compareTo(third) < 0 ? List.of(second, third) : List.of(third, second);
        assertThat(ids, is(List.of(first, tied.get(0), tied.get(1), "deleted")));

        for (String query : List.of("?limit=1", "?limit=2&from=2026-11-20", "?limit=3", "?limit=1&locale=en")) {
            List<JsonValue> paged = new ArrayList<>();
            String path = "/projects/" + projectId + "/stats" + query;
            int pages = 0;
            while (path != null) {
                AdminClient.Answer answer = admin.call(Method.GET, path);
                assertThat(path, answer.status(), is(200));
                JsonObject page = answer.object();
                pages++;
                for (String member : List.of("impression", "click", "conversion", "ctr", "daily", "locales")) {
                    assertThat(query + " " + member, page.get(member), is(whole.get(member)));
                }
                paged.addAll(page.getJsonArray("notifications"));
                path = answer.link() == null ? null
                        : answer.link().substring("</api/v1/admin".length(), answer.link().indexOf('>'));
                assertThat(answer.link() == null || answer.link().endsWith(">; rel=\"next\""), is(true));
            }
            assertThat(query, paged, is(whole.getJsonArray("notifications")));
            int limit = Integer.parseInt(query.substring("?limit=".length(), query.indexOf('&') < 0 ? query.length()
                    : query.indexOf('&')));
            assertThat(query, pages, is((4 + limit - 1) / limit));
        }
        assertThat(admin.call(Method.GET, "/projects/" + projectId + "/stats?limit=10000").link(), is((String) null));
        for (String bad : List.of("limit=0", "limit=10001", "limit=-1", "limit=abc", "limit=1&limit=1", "cursor=abc",
                                  "cursor=")) {
            AdminClient.Answer answer = admin.call(Method.GET, "/projects/" + projectId + "/stats?" + bad);
            assertThat(bad, answer.status(), is(400));
            assertThat(bad, answer.object().getJsonObject("details").getString("field"),
                       is(bad.substring(0, bad.indexOf('='))));
        }
        assertThat(admin.call(Method.GET, "/projects/" + projectId + "/stats?limit=0").object().getString("error"),
                   is("limit must be a whole number from 1 to 10000"));
    }

    /** The console's chart of a project: its days, each the sum of its notifications' days. */
    @Test
    void aProjectsDailySeriesAddsUpItsNotificationsDays() {
        JsonArray projectDays = statsAt("/projects/" + projectId + "/stats").getJsonArray("daily");
        JsonArray firstDays = statsAt("/notifications/" + first + "/stats").getJsonArray("daily");
        JsonArray secondDays = statsAt("/notifications/" + second + "/stats").getJsonArray("daily");
        java.util.Map<String, List<Long>> expected = new java.util.TreeMap<>();
        for (JsonArray days : List.of(firstDays, secondDays)) {
            days.forEach(day -> expected.merge(day.asJsonObject().getString("date"), counts(day.asJsonObject()),
                    (a, b) -> List.of(a.get(0) + b.get(0), a.get(1) + b.get(1), a.get(2) + b.get(2))));
        }
        java.util.Map<String, List<Long>> actual = new java.util.LinkedHashMap<>();
        projectDays.forEach(day -> actual.put(day.asJsonObject().getString("date"), counts(day.asJsonObject())));
        assertThat(actual, is(expected));
        assertThat("ascending", List.copyOf(actual.keySet()), is(List.copyOf(expected.keySet())));
        assertThat(statsAt("/projects/" + projectId + "/stats?from=2026-11-21&to=2026-11-21")
                           .getJsonArray("daily").size(), is(1));
    }

    @Test
    void deletedNotificationsStayCountedInTheProject() {
        assertThat(admin.call(Method.DELETE, "/notifications/" + first).status(), is(204));
        assertThat(admin.call(Method.GET, "/notifications/" + first + "/stats").status(), is(404));
        JsonObject stats = statsAt("/projects/" + projectId + "/stats");
        assertThat(counts(stats), is(List.of(5L, 1L, 2L)));
        assertThat(stats.getJsonArray("notifications").size(), is(2));
    }

    /**
     * Interactions arriving at once, all the first of their day, race to create the same daily total: each is
     * counted once, and the totals agree with the interactions stored.
     */
    @Test
    void simultaneousInteractionsAreEachCountedOnce() throws Exception {
        List<String> types = List.of("impression", "click", "conversion");
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> answers = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String type = types.get(i % 3);
                // A connection each: a shared client's connection pool is not what this test is about.
                answers.add(clients.submit(() -> {
                    try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
                        RawHttp.Response answer = connection.postJson(
                                "/api/v1/public/track/" + second + "/enhanced",
                                "{\"type\":\"" + type + "\",\"timestamp\":\"2026-11-23T10:00:00Z\"}");
                        assertThat(answer.status(), is(204));
                    }
                    return null;
                }));
            }
            for (Future<?> answer : answers) {
                answer.get();
            }
        }
        JsonObject stats = statsAt("/notifications/" + second + "/stats?from=2026-11-23");
        assertThat(counts(stats), is(List.of(20L, 20L, 20L)));
        assertThat(herald.interactions(second).size(), is(2 + 60));
    }

    @ParameterizedTest
    @ValueSource(strings = {"from=2026-13-01", "from=21-11-2026", "to=2026-02-30", "from=today", "to=2026-11-21T00:00:00Z",
            "from=2026-11-22&to=2026-11-21"})
    void badDatesAreRefused(String query) {
        String field = query.contains("&") ? "to" : query.substring(0, query.indexOf('='));
        for (String path : List.of("/notifications/" + first + "/stats?", "/projects/" + projectId + "/stats?")) {
            AdminClient.Answer answer = admin.call(Method.GET, path + query);
            assertThat(query, answer.status(), is(400));
            assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
            assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
        }
    }

    /** Each language with interactions in the range, most impressions first, then by tag. */
    @Test
    void statsAreSplitByTheLanguageRecorded() throws SQLException {
        String translated = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"c\"}")
                .getString("id");
        sql("UPDATE notifications SET translations = '{\"de\":{\"title\":null,\"message\":\"Hallo\",\"image\":null,"
                    + "\"action\":null},\"fr\":{\"title\":null,\"message\":\"Salut\",\"image\":null,\"action\":null}}'"
                    + " WHERE id = '" + translated + "'");
        for (String locale : List.of("fr", "de-AT", "fr-CA", "de", "ja")) {
            track(translated, "impression", "2026-11-21T10:00:00Z", locale);
        }
        track(translated, "click", "2026-11-21T10:00:00Z", "fr");

        JsonObject stats = statsAt("/notifications/" + translated + "/stats");
        assertThat(locales(stats), is(List.of("de 2 0 0 0.0", "fr 2 1 0 0.5", "en 1 0 0 0.0")));
        assertThat(locales(statsAt("/projects/" + projectId + "/stats")),
                   is(List.of("en 6 1 2 0.16666666666666666", "de 2 0 0 0.0", "fr 2 1 0 0.5")));
        assertThat(locales(statsAt("/projects/" + projectId + "/stats?from=2026-11-22")), is(List.of("en 0 0 1 0.0")));
        assertThat(locales(statsAt("/projects/" + projectId + "/stats?from=2027-01-01")), is(List.of()));

        JsonObject french = statsAt("/notifications/" + translated + "/stats?locale=FR");
        assertThat(counts(french), is(List.of(2L, 1L, 0L)));
        assertThat(french.getJsonNumber("ctr").doubleValue(), is(0.5));
        assertThat(locales(french), is(List.of("fr 2 1 0 0.5")));
        JsonObject project = statsAt("/projects/" + projectId + "/stats?locale=de");
        assertThat(counts(project), is(List.of(2L, 0L, 0L)));
        assertThat(project.getJsonArray("notifications").size(), is(1));
        assertThat(project.getJsonArray("notifications").getJsonObject(0).getString("notificationId"), is(translated));
        assertThat(project.getJsonArray("daily").size(), is(1));
        assertThat(counts(project.getJsonArray("daily").getJsonObject(0)), is(List.of(2L, 0L, 0L)));
        assertThat(counts(statsAt("/projects/" + projectId + "/stats?locale=pt-BR")), is(List.of(0L, 0L, 0L)));
    }

    /**
     * Totals written before languages were recorded (locale '') count in their notification's language: its own, or
     * its project's default, which a deleted notification falls back to; the filter finds them there.
     */
    @Test
    void totalsOfBeforeLanguagesCountInTheNotificationsLanguage() throws SQLException {
        long day = java.time.LocalDate.parse("2026-11-21").toEpochDay();
        sql("UPDATE projects SET default_locale = 'de' WHERE id = '" + projectId + "'");
        sql("UPDATE notifications SET locale = 'fr' WHERE id = '" + second + "'");
        sql("INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, writer, locale, total)"
                    + " VALUES ('" + projectId + "', " + day + ", '" + first + "', 'impression', 0, '', 4),"
                    + " ('" + projectId + "', " + day + ", '" + second + "', 'impression', 0, '', 2),"
                    + " ('" + projectId + "', " + day + ", 'deleted', 'click', 0, '', 3)");

        assertThat(locales(statsAt("/notifications/" + first + "/stats")),
                   is(List.of("de 4 0 0 0.0", "en 3 1 2 0.3333333333333333")));
        assertThat(locales(statsAt("/notifications/" + second + "/stats")), is(List.of("en 2 0 0 0.0", "fr 2 0 0 0.0")));
        assertThat(locales(statsAt("/projects/" + projectId + "/stats")),
                   is(List.of("en 5 1 2 0.2", "de 4 3 0 0.75", "fr 2 0 0 0.0")));

        JsonObject german = statsAt("/projects/" + projectId + "/stats?locale=de");
        assertThat(counts(german), is(List.of(4L, 3L, 0L)));
        JsonArray notifications = german.getJsonArray("notifications");
        assertThat(notifications.size(), is(2));
        assertThat(notifications.getJsonObject(0).getString("notificationId"), is(first));
        assertThat(counts(notifications.getJsonObject(0)), is(List.of(4L, 0L, 0L)));
        assertThat(notifications.getJsonObject(1).getString("notificationId"), is("deleted"));
        assertThat(counts(notifications.getJsonObject(1)), is(List.of(0L, 3L, 0L)));
        assertThat(counts(statsAt("/notifications/" + first + "/stats?locale=de")), is(List.of(4L, 0L, 0L)));
        assertThat(counts(statsAt("/notifications/" + first + "/stats?locale=en")), is(List.of(3L, 1L, 2L)));
        JsonObject french = statsAt("/notifications/" + second + "/stats?locale=fr");
        assertThat(counts(french), is(List.of(2L, 0L, 0L)));
        assertThat(french.getJsonArray("daily").getJsonObject(0).getString("date"), is("2026-11-21"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"locale=", "locale=fr_FR", "locale=x", "locale=en-u-nu-latn", "locale=abcdefghi"})
    void aMalformedLocaleIsRefused(String query) {
        for (String path : List.of("/notifications/" + first + "/stats?", "/projects/" + projectId + "/stats?")) {
            AdminClient.Answer answer = admin.call(Method.GET, path + query);
            assertThat(query, answer.status(), is(400));
            assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
            assertThat(answer.object().getJsonObject("details").getString("field"), is("locale"));
        }
    }

    @Test
    void unknownNotificationsAndProjectsAreNotFound() {
        assertThat(admin.call(Method.GET, "/notifications/nope/stats").status(), is(404));
        assertThat(admin.call(Method.GET, "/projects/nope/stats").status(), is(404));
    }

    private void track(String notificationId, String type, String timestamp) {
        track(notificationId, type, timestamp, null);
    }

    private void track(String notificationId, String type, String timestamp, String locale) {
        try (Http1ClientResponse response = http.post("/api/v1/public/track/" + notificationId + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"" + type + "\",\"timestamp\":\"" + timestamp + "\""
                                + (locale == null ? "" : ",\"locale\":\"" + locale + "\"") + "}")) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
        }
    }

    /** Each element of {@code locales}: "tag impression click conversion ctr". */
    private static List<String> locales(JsonObject stats) {
        return stats.getJsonArray("locales").stream().map(JsonValue::asJsonObject)
                .map(locale -> locale.getString("locale") + " " + String.join(" ", counts(locale).stream()
                        .map(String::valueOf).toList()) + " " + locale.getJsonNumber("ctr").doubleValue())
                .toList();
    }

    /** As the management API will once it sets languages (lang-api): straight into the test's database. */
    private static void sql(String statement) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }

    private static List<Long> counts(JsonObject json) {
        return List.of(json.getJsonNumber("impression").longValue(), json.getJsonNumber("click").longValue(),
                       json.getJsonNumber("conversion").longValue());
    }

    private JsonObject statsAt(String path) {
        AdminClient.Answer answer = admin.call(Method.GET, path);
        assertThat(path, answer.status(), is(200));
        return answer.object();
    }
}
