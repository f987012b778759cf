package dev.herald.stats;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

import dev.herald.admin.AdminReads;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.JsonAnswers;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;
import dev.herald.stats.StatsStore.NotificationActivity;
import dev.herald.storage.Reports;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonGenerator;

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

    /**
     * The most notifications a page of a project's stats lists, and how many unless {@code limit} says fewer: two
     * years of a busy project's (2,400) in one answer, as before pages.
     */
    private static final int NOTIFICATIONS_PER_PAGE = 10_000;
    /**
     * The most bytes one notification of a project's stats is written in: its id (64 characters at most) and four
     * numbers of up to 19 digits, a ratio of up to 24 characters and their names. A page ends before the one that
     * could take the answer past {@link AdminResponses#MAX_ANSWER_BYTES}.
     */
    private static final int MOST_BYTES_OF_ONE = 320;

    /** The statements one project stats request runs at once ({@link #projectStats}): connections it may hold. */
    private static final int STATEMENTS_AT_ONCE = 3;
    /** The least a statement may run, whatever limits.read-timeout leaves. */
    private static final Duration LEAST_BOUND = Duration.ofMillis(100);
    private static final Executor SIDE_BY_SIDE = Executors.newVirtualThreadPerTaskExecutor();

    private final ProjectStore projects;
    private final StatsStore stats;
    private final Semaphore projectTurns;

    /**
     * @param reports where the counts are added up, each statement bounded (the project's existence: {@code db})
     * @param adminReadsInFlight {@code limits.admin-reads-in-flight}
     */
    public StatsService(DbClient db, Reports reports, int adminReadsInFlight) {
        this.projects = new ProjectStore(db);
        this.stats = new StatsStore(reports);
        this.projectTurns = new Semaphore(projectsAtOnce(adminReadsInFlight));
    }

    /**
     * The most connections the stats hold at once: three for each project's stats running, one for each other read
     * (a notification's stats run one statement after the other).
     */
    public static int connectionsAtOnce(int adminReadsInFlight) {
        int projectsAtOnce = projectsAtOnce(adminReadsInFlight);
        return projectsAtOnce * STATEMENTS_AT_ONCE + adminReadsInFlight - projectsAtOnce;
    }

    /**
     * How many projects' stats run at once: half of the management reads' turns
     * ({@code limits.admin-reads-in-flight}), one at least. Each holds its read turn for as long as its statements
     * run, up to their bound: four at once, in an outside trial, left every other management read 503 for 10 s, and
     * all four ran past the bound together where each alone finished within it. The console asks for a comparison's
     * two ranges in turn: two people can look.
     */
    static int projectsAtOnce(int adminReadsInFlight) {
        return Math.max(1, adminReadsInFlight / 2);
    }

    /**
     * How long one statement may run: half of {@code limits.read-timeout}, and never so long that a request that
     * waited its whole turn ({@link AdminReads#MOST_WAIT}) and then met a silent database would pass the read
     * time-out, which closes its connection unanswered; {@link #LEAST_BOUND} at least (a time-out under 3 s leaves no
     * room: stats then need a short range).
     */
    public static Duration statementBound(Duration readTimeout) {
        Duration half = readTimeout.dividedBy(2);
        Duration room = readTimeout.minus(AdminReads.MOST_WAIT).minus(Reports.SOCKET_MARGIN);
        Duration bound = half.compareTo(room) < 0 ? half : room;
        return bound.compareTo(LEAST_BOUND) < 0 ? LEAST_BOUND : bound;
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

    /**
     * Waits for every one, so that none still holds a connection of the stats' pool once the request has ended, then
     * throws the first failure as it was thrown (a 503 of a statement past its bound among them).
     */
    private static void awaitAll(CompletableFuture<?>... statements) {
        RuntimeException failure = null;
        for (CompletableFuture<?> statement : statements) {
            try {
                statement.join();
            } catch (CompletionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException cause ? cause : e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
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
     * A page of the project's notifications with its totals, {@code daily} and {@code locales} (every page has them):
     * the notifications are added up and ordered by the database a page at a time, and the answer is written as it is
     * made, member by member, never as a tree (a tree held some 1.1 KB of heap a notification). Read whole, six asking
     * at once for a project of 90,000 notifications ended the process at its 80 MB heap.
     */
    private void projectStats(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        StatsRange range = StatsRange.of(request);
        String locale = StatsLocale.of(request);
        PageRequest page = PageRequest.of(request, NOTIFICATIONS_PER_PAGE, NOTIFICATIONS_PER_PAGE);
        // After every check of the request: a bad one is 400 whoever else is reading, never "retry".
        if (!projectTurns.tryAcquire()) {
            response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, "1"));
            throw ApiException.error(Status.SERVICE_UNAVAILABLE_503, "SERVER_BUSY",
                                     "Too many project stats in flight; retry shortly");
        }
        try {
            projectStats(request, response, project, range, locale, page);
        } finally {
            projectTurns.release();
        }
    }

    private void projectStats(ServerRequest request, ServerResponse response, Project project, StatsRange range,
                              String locale, PageRequest page) {
        // Each of the three adds up the whole range: side by side, the answer comes within one statement's bound
        // (one after the other, 14 s against 8 to 9.5 s on a project of 90,000 notifications, docs/performance.md).
        CompletableFuture<Map<Long, Counts>> dailyCounts = CompletableFuture.supplyAsync(
                () -> stats.projectDailyCounts(project.id(), range, locale), SIDE_BY_SIDE);
        CompletableFuture<Map<String, Counts>> localeCounts = CompletableFuture.supplyAsync(
                () -> stats.projectLocaleCounts(project.id(), range), SIDE_BY_SIDE);
        CompletableFuture<List<NotificationActivity>> pageCounts = CompletableFuture.supplyAsync(
                () -> stats.notificationPage(project.id(), range, locale, page.after(), page.limit() + 1),
                SIDE_BY_SIDE);
        awaitAll(dailyCounts, localeCounts, pageCounts);
        List<NotificationActivity> notifications = pageCounts.join();
        Map<Long, Counts> days = dailyCounts.join();
        Counts total = days.values().stream().reduce(Counts.NONE, Counts::plus);
        JsonArray daily = daily(days).build();
        JsonArray locales = locales(localeCounts.join(), locale).build();
        // What follows the notifications counts in the answer's megabyte too (a year of days: 26 KB). Dates, numbers
        // and language tags are ASCII: a character is a byte.
        int after = daily.toString().length() + locales.toString().length() + 64;
        response.status(Status.OK_200);
        JsonAnswers.sendWritten(request, response, 1024 + 120 * notifications.size(), answer -> {
            JsonGenerator json = answer.json();
            total.writeTo(json.writeStartObject().write("projectId", project.id()))
                    .write("ctr", BigDecimal.valueOf(total.ctr()))
                    .writeStartArray("notifications");
            int written = 0;
            for (NotificationActivity notification : notifications) {
                if (written == page.limit()
                        || written > 0
                           && answer.bytes() + MOST_BYTES_OF_ONE + after > AdminResponses.MAX_ANSWER_BYTES) {
                    AdminResponses.linkNextPage(request, response, notifications.get(written - 1).cursor());
                    break;
                }
                notification.counts().writeTo(json.writeStartObject().write("notificationId", notification.id()))
                        .write("ctr", BigDecimal.valueOf(notification.counts().ctr()))
                        .write("uniqueUsers", notification.uniqueUsers())
                        .writeEnd();
                written++;
            }
            json.writeEnd()
                    .write("daily", daily)
                    .write("locales", locales)
                    .writeEnd();
        });
    }
}
