package dev.herald.stats;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.Map;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.api.Json;
import dev.herald.api.JsonAnswers;
import dev.herald.api.RouteFallbacks;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

/**
 * How notifications perform (docs/api.md#stats): counts by type and CTR, per notification with daily buckets and per
 * project, by when the interaction occurred, and by the language it was recorded in; {@code ?locale=} restricts an
 * answer to one language.
 */
public final class StatsService implements HttpService {

    private static final Comparator<Map.Entry<String, Counts>> MOST_IMPRESSIONS_FIRST =
            Comparator.<Map.Entry<String, Counts>>comparingLong(entry -> entry.getValue().impression())
                    .reversed()
                    .thenComparing(Map.Entry::getKey);

    private final ProjectStore projects;
    private final StatsStore stats;

    public StatsService(DbClient db) {
        this.projects = new ProjectStore(db);
        this.stats = new StatsStore(db);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/notifications/{id}/stats", this::notificationStats)
                .head("/notifications/{id}/stats", this::notificationStats)
                .get("/projects/{projectId}/stats", this::projectStats)
                .head("/projects/{projectId}/stats", this::projectStats)
                .any("/notifications/{id}/stats", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .any("/projects/{projectId}/stats", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    private void notificationStats(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        StatsStore.NotificationLanguage notification = stats.notificationLanguage(id)
                .orElseThrow(() -> AdminRequests.notFound("Notification"));
        StatsRange range = StatsRange.of(request);
        String locale = StatsLocale.of(request);
        Map<Long, Counts> days = stats.dailyCounts(id, range, locale, notification.locale());
        Counts total = days.values().stream().reduce(Counts.NONE, Counts::plus);
        JsonObject answer = total.addTo(Json.builders().createObjectBuilder().add("notificationId", id))
                .add("ctr", total.ctr())
                .add("uniqueUsers", stats.uniqueUsers(notification.projectId(), id, range))
                .add("daily", daily(days))
                .add("locales", locales(stats.localeCounts(id, range, notification.locale()), locale))
                .build();
        AdminResponses.ok(request, response, answer);
    }

    /** Days with activity only, ascending: {@code [{"date","impression","click","conversion"}]}. */
    private static JsonArrayBuilder daily(Map<Long, Counts> days) {
        JsonArrayBuilder daily = Json.builders().createArrayBuilder();
        days.forEach((day, counts) -> daily.add(
                counts.addTo(Json.builders().createObjectBuilder().add("date", LocalDate.ofEpochDay(day).toString()))));
        return daily;
    }

    /**
     * Languages with interactions, most impressions first, then by tag:
     * {@code [{"locale","impression","click","conversion","ctr"}]}; only {@code locale}'s when the answer is restricted.
     */
    private static JsonArrayBuilder locales(Map<String, Counts> byLocale, String locale) {
        JsonArrayBuilder locales = Json.builders().createArrayBuilder();
        byLocale.entrySet().stream()
                .filter(entry -> locale == null || entry.getKey().equals(locale))
                .sorted(MOST_IMPRESSIONS_FIRST)
                .forEach(entry -> locales.add(entry.getValue()
                                                      .addTo(Json.builders().createObjectBuilder()
                                                                     .add("locale", entry.getKey()))
                                                      .add("ctr", entry.getValue().ctr())));
        return locales;
    }

    /**
     * Written as it is made, member by member, never as a tree: an answer lists every notification with activity in the
     * range, and a tree held some 1.1 KB of heap for each (Parsson, measured) where the written answer takes some 115
     * bytes. Six asking at once for a project of 30,000 notifications ended the process at its 80 MB heap
     * (OutOfMemoryError, tried on the runtime image).
     */
    private void projectStats(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        StatsRange range = StatsRange.of(request);
        String locale = StatsLocale.of(request);
        Map<String, Counts> byNotification = stats.notificationCounts(project.id(), range, locale);
        Map<String, Long> uniqueUsers = stats.uniqueUsers(project.id(), range);
        // A notification seen only through the state routes (no tracking call) reached users all the same; the state
        // records no language, so an answer restricted to one lists only what was tracked in it.
        if (locale == null) {
            uniqueUsers.keySet().forEach(id -> byNotification.putIfAbsent(id, Counts.NONE));
        }
        Counts total = byNotification.values().stream().reduce(Counts.NONE, Counts::plus);
        response.status(Status.OK_200);
        JsonAnswers.sendWritten(request, response, 256 + 128 * byNotification.size(), json -> {
            total.writeTo(json.writeStartObject().write("projectId", project.id()))
                    .write("ctr", BigDecimal.valueOf(total.ctr()))
                    .writeStartArray("notifications");
            byNotification.entrySet().stream()
                    .sorted(MOST_IMPRESSIONS_FIRST)
                    .forEach(entry -> entry.getValue().writeTo(json.writeStartObject()
                                                                   .write("notificationId", entry.getKey()))
                            .write("ctr", BigDecimal.valueOf(entry.getValue().ctr()))
                            .write("uniqueUsers", uniqueUsers.getOrDefault(entry.getKey(), 0L))
                            .writeEnd());
            json.writeEnd()
                    .write("daily", daily(stats.projectDailyCounts(project.id(), range, locale)).build())
                    .write("locales", locales(stats.projectLocaleCounts(project.id(), range), locale).build())
                    .writeEnd();
        });
    }
}
