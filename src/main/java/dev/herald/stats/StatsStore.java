package dev.herald.stats;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * The stats queries: they add up the daily totals that tracking keeps, in the database. A {@code locale} restricts
 * them to the totals recorded in that language (null: every language); totals written before languages were recorded
 * (locale '') count in their notification's language.
 */
final class StatsStore {

    private final DbClient db;

    StatsStore(DbClient db) {
        this.db = db;
    }

    /** The notification's project and its language (its own, or its project's default), while it exists. */
    Optional<NotificationLanguage> notificationLanguage(String notificationId) {
        return db.execute().namedGet("select-notification-stats-language", notificationId)
                .map(row -> new NotificationLanguage(Rows.string(row, "project_id"), Rows.string(row, "locale")));
    }

    /**
     * A notification's counts per UTC day number (days since 1970-01-01), days with activity only, ascending.
     *
     * @param own the notification's language: its totals of before languages were recorded are in it
     */
    Map<Long, Counts> dailyCounts(String notificationId, StatsRange range, String locale, String own) {
        if (locale == null) {
            return daily("select-notification-daily-counts", notificationId, range, null, null);
        }
        return daily("select-notification-daily-counts-in-locale", notificationId, range, locale,
                     locale.equals(own) ? "" : locale);
    }

    /** The same for a whole project, deleted notifications included. */
    Map<Long, Counts> projectDailyCounts(String projectId, StatsRange range, String locale) {
        return locale == null
                ? daily("select-project-daily-counts", projectId, range, null, null)
                : daily("select-project-daily-counts-in-locale", projectId, range, locale, null);
    }

    /** A notification's counts per language, those of before languages were recorded in {@code own}. */
    Map<String, Counts> localeCounts(String notificationId, StatsRange range, String own) {
        Map<String, Counts> locales = new HashMap<>();
        db.execute().createNamedQuery("select-notification-locale-counts")
                .addParam("id", notificationId)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay())
                .execute()
                .forEach(row -> locales.merge(inLanguage(Rows.string(row, "locale"), own),
                                              Counts.NONE.plus(Rows.string(row, "type"), Rows.longValue(row, "total")),
                                              Counts::plus));
        return locales;
    }

    /** A project's counts per language, deleted notifications included. */
    Map<String, Counts> projectLocaleCounts(String projectId, StatsRange range) {
        Map<String, Counts> locales = new HashMap<>();
        db.execute().createNamedQuery("select-project-locale-counts")
                .addParam("projectId", projectId)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay())
                .execute()
                .forEach(row -> locales.merge(inLanguage(Rows.string(row, "locale"), Rows.string(row, "own")),
                                              Counts.NONE.plus(Rows.string(row, "type"), Rows.longValue(row, "total")),
                                              Counts::plus));
        return locales;
    }

    private static String inLanguage(String recorded, String own) {
        return recorded.isEmpty() ? own : recorded;
    }

    private Map<Long, Counts> daily(String statement, String id, StatsRange range, String locale, String legacy) {
        Map<Long, Counts> days = new TreeMap<>();
        var query = db.execute().createNamedQuery(statement)
                .addParam("id", id)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay());
        if (locale != null) {
            query.addParam("locale", locale);
        }
        if (legacy != null) {
            query.addParam("legacy", legacy);
        }
        query.execute()
                .forEach(row -> days.merge(Rows.longValue(row, "day_number"),
                                           Counts.NONE.plus(Rows.string(row, "type"), Rows.longValue(row, "total")),
                                           Counts::plus));
        return days;
    }

    /** Counts per notification of the project, deleted notifications included. */
    Map<String, Counts> notificationCounts(String projectId, StatsRange range, String locale) {
        Map<String, Counts> notifications = new LinkedHashMap<>();
        var query = db.execute()
                .createNamedQuery(locale == null ? "select-project-notification-counts"
                                          : "select-project-notification-counts-in-locale")
                .addParam("projectId", projectId)
                .addParam("fromDay", range.fromDay())
                .addParam("toDay", range.toDay());
        if (locale != null) {
            query.addParam("locale", locale);
        }
        query.execute()
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

    /** @param locale the notification's own language, or its project's default */
    record NotificationLanguage(String projectId, String locale) {
    }
}
