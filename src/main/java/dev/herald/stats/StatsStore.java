package dev.herald.stats;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.herald.admin.Ids;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.logging.FailureLog;
import dev.herald.storage.Reports;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementQuery;
import io.helidon.http.Status;

/**
 * The stats queries: they add up the daily totals that tracking keeps, in the database. A {@code locale} restricts
 * them to the totals recorded in that language (null: every language); totals written before languages were recorded
 * (locale '') count in their notification's language. Each statement runs on the stats' pool ({@link Reports}),
 * bounded there: one past its bound is answered 503 {@code STATS_TIMEOUT}, never 500.
 */
final class StatsStore {

    private static final Function<DbRow, Long> DAY = row -> Rows.longValue(row, "day_number");

    private final Reports reports;
    private final FailureLog timeouts;

    StatsStore(Reports reports) {
        this.reports = reports;
        this.timeouts = new FailureLog("stats statement(s) ended by the database past their bound of "
                + seconds(reports.bound()) + " (half of limits.read-timeout, less when that leaves under 3 s), "
                + "answered 503 STATS_TIMEOUT: a shorter range of days, a less busy database or a longer "
                + "limits.read-timeout lets them finish (docs/api.md#stats)", System.Logger.Level.WARNING);
    }

    /** The notification's project and its language (its own, or its project's default), while it exists. */
    Optional<NotificationLanguage> notificationLanguage(String notificationId) {
        if (!Ids.isWellFormed(notificationId)) {
            return Optional.empty();
        }
        return bounded(() -> db().execute().namedGet("select-notification-stats-language", notificationId)
                .map(row -> new NotificationLanguage(Rows.string(row, "project_id"), Rows.string(row, "locale"))));
    }

    /**
     * A notification's counts per UTC day number (days since 1970-01-01), days with activity only, ascending.
     *
     * @param own the notification's language: its totals of before languages were recorded are in it
     */
    Map<Long, Counts> dailyCounts(String notificationId, StatsRange range, String locale, String own) {
        if (locale == null) {
            return addUp(() -> rows("select-notification-daily-counts", range, "id", notificationId), DAY,
                         new TreeMap<>());
        }
        return addUp(() -> rows("select-notification-daily-counts-in-locale", range, "id", notificationId, "locale",
                                locale, "legacy", locale.equals(own) ? "" : locale), DAY, new TreeMap<>());
    }

    /** The same for a whole project, deleted notifications included. */
    Map<Long, Counts> projectDailyCounts(String projectId, StatsRange range, String locale) {
        return addUp(() -> rows(locale == null ? "select-project-daily-counts" : "select-project-daily-counts-in-locale",
                                range, "id", projectId, "locale", locale), DAY, new TreeMap<>());
    }

    /** A notification's counts per language, those of before languages were recorded in {@code own}. */
    Map<String, Counts> localeCounts(String notificationId, StatsRange range, String own) {
        return addUp(() -> rows("select-notification-locale-counts", range, "id", notificationId),
                     row -> inLanguage(Rows.string(row, "locale"), own), new HashMap<>());
    }

    /** A project's counts per language, deleted notifications included. */
    Map<String, Counts> projectLocaleCounts(String projectId, StatsRange range) {
        return addUp(() -> rows("select-project-locale-counts", range, "projectId", projectId),
                     row -> inLanguage(Rows.string(row, "locale"), Rows.string(row, "own")), new HashMap<>());
    }

    /**
     * Up to {@code limit} of the project's notifications with activity in the range (deleted ones included), most
     * impressions first, then by id, after {@code after} (its impressions and id; empty: from the first). Added up
     * and ordered by the database: a project of 90,000 such notifications held as a map here, six answers at once,
     * ended the process at the launcher's 80 MB heap.
     */
    List<NotificationActivity> notificationPage(String projectId, StatsRange range, String locale,
                                                Optional<PageRequest.Cursor> after, int limit) {
        return bounded(() -> page(projectId, range, locale, after, limit));
    }

    private List<NotificationActivity> page(String projectId, StatsRange range, String locale,
                                            Optional<PageRequest.Cursor> after, int limit) {
        DbStatementQuery query = db().execute()
                .createNamedQuery(locale == null ? "select-project-notification-page"
                                          : "select-project-notification-page-in-locale")
                .addParam("projectId", projectId)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay())
                .addParam("from", range.fromMillis())
                .addParam("to", range.toMillis())
                .addParam("afterImpression", after.map(PageRequest.Cursor::createdAt).orElse(Long.MAX_VALUE))
                .addParam("afterId", after.map(PageRequest.Cursor::tiebreak).orElse(""))
                .addParam("limit", limit);
        if (locale != null) {
            query.addParam("locale", locale);
        }
        return query.execute()
                .map(row -> new NotificationActivity(
                        Rows.string(row, "notification_id"),
                        new Counts(Rows.longValue(row, "impression"), Rows.longValue(row, "click"),
                                   Rows.longValue(row, "conversion")),
                        Rows.longValue(row, "users")))
                .toList();
    }

    private static String inLanguage(String recorded, String own) {
        return recorded.isEmpty() ? own : recorded;
    }

    /**
     * The rows of a counts query over the range.
     *
     * @param namesAndValues further named parameters, name then value; one whose value is null is left out (the
     *                       statement of every language names no locale)
     */
    private Stream<DbRow> rows(String statement, StatsRange range, Object... namesAndValues) {
        DbStatementQuery query = db().execute().createNamedQuery(statement)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay());
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                query.addParam((String) namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return query.execute();
    }

    /** Rows of (key..., type, total) added up into counts per key. */
    private <K> Map<K, Counts> addUp(Supplier<Stream<DbRow>> rows, Function<DbRow, K> key,
                                     Map<K, Counts> counts) {
        return bounded(() -> {
            rows.get().forEach(row -> counts.merge(key.apply(row), Counts.NONE.plus(Rows.string(row, "type"),
                                                                                  Rows.longValue(row, "total")),
                                                   Counts::plus));
            return counts;
        });
    }

    private DbClient db() {
        return reports.client();
    }

    /**
     * What {@code query} returns, read whole (a stream's rows come, and so may its failure, as it is consumed); a
     * statement that ran past the pool's bound is answered 503, naming the bound and what to ask instead.
     */
    private <T> T bounded(Supplier<T> query) {
        try {
            return query.get();
        } catch (RuntimeException e) {
            if (Reports.timedOut(e)) {
                reports.countTimedOut();
                timeouts.failed(1, e);
                // Read by the console's users as it is: no setting's name, the range in their words and the API's.
                throw ApiException.error(Status.SERVICE_UNAVAILABLE_503, "STATS_TIMEOUT", "These stats took longer "
                        + "than " + seconds(reports.bound()) + " to add up (a long range, or a busy database): choose "
                        + "a shorter range of days (from, to)");
            }
            throw e;
        }
    }

    /** {@code 10 s}, {@code 2.5 s}, {@code 0.1 s}. */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /**
     * Users whose first sight of the notification (their state's seenAt) lies in the range: unique users reached.
     */
    long uniqueUsers(String projectId, String notificationId, StatsRange range) {
        return bounded(() -> db().execute().createNamedGet("count-notification-unique-users")
                .addParam("projectId", projectId)
                .addParam("id", notificationId)
                .addParam("from", range.fromMillis())
                .addParam("to", range.toMillis())
                .execute()
                .map(row -> Rows.longValue(row, "users"))
                .orElse(0L));
    }

    /**
     * A notification's counts in its project's stats.
     *
     * @param uniqueUsers users whose first sight of it lies in the range, in every language
     */
    record NotificationActivity(String id, Counts counts, long uniqueUsers) {

        /** Where the page after this notification starts. */
        PageRequest.Cursor cursor() {
            return new PageRequest.Cursor(counts.impression(), id);
        }
    }

    /** @param locale the notification's own language, or its project's default */
    record NotificationLanguage(String projectId, String locale) {
    }
}
