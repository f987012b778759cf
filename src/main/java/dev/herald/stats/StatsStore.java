package dev.herald.stats;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * The stats queries: they add up the daily totals that tracking keeps, in the database.
 */
final class StatsStore {

    private final DbClient db;

    StatsStore(DbClient db) {
        this.db = db;
    }

    /**
     * A notification's counts per UTC day number (days since 1970-01-01), days with activity only, ascending.
     */
    Map<Long, Counts> dailyCounts(String notificationId, StatsRange range) {
        return daily("select-notification-daily-counts", notificationId, range);
    }

    /** The same for a whole project, deleted notifications included. */
    Map<Long, Counts> projectDailyCounts(String projectId, StatsRange range) {
        return daily("select-project-daily-counts", projectId, range);
    }

    private Map<Long, Counts> daily(String statement, String id, StatsRange range) {
        Map<Long, Counts> days = new TreeMap<>();
        db.execute().createNamedQuery(statement)
                .addParam("id", id)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay())
                .execute()
                .forEach(row -> days.merge(Rows.longValue(row, "day_number"),
                                           Counts.NONE.plus(Rows.string(row, "type"), Rows.longValue(row, "total")),
                                           Counts::plus));
        return days;
    }

    /** Counts per notification of the project, deleted notifications included. */
    Map<String, Counts> notificationCounts(String projectId, StatsRange range) {
        Map<String, Counts> notifications = new LinkedHashMap<>();
        db.execute().createNamedQuery("select-project-notification-counts")
                .addParam("projectId", projectId)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay())
                .execute()
                .forEach(row -> notifications.merge(Rows.string(row, "notification_id"),
                                                    Counts.NONE.plus(Rows.string(row, "type"), Rows.longValue(row, "total")),
                                                    Counts::plus));
        return notifications;
    }

    /**
     * Users whose first sight of the notification (their state's seenAt) lies in the range: unique users reached.
     */
    long uniqueUsers(String projectId, String notificationId, StatsRange range) {
        return db.execute().createNamedGet("count-notification-unique-users")
                .addParam("projectId", projectId)
                .addParam("id", notificationId)
                .addParam("from", range.fromMillis())
                .addParam("to", range.toMillis())
                .execute()
                .map(row -> Rows.longValue(row, "users"))
                .orElse(0L);
    }

    /** The same per notification of the project that has any. */
    Map<String, Long> uniqueUsers(String projectId, StatsRange range) {
        Map<String, Long> users = new HashMap<>();
        db.execute().createNamedQuery("select-project-unique-users")
                .addParam("projectId", projectId)
                .addParam("from", range.fromMillis())
                .addParam("to", range.toMillis())
                .execute()
                .forEach(row -> users.put(Rows.string(row, "notification_id"), Rows.longValue(row, "users")));
        return users;
    }
}
