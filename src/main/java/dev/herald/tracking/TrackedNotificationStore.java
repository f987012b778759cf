package dev.herald.tracking;

import java.time.Duration;
import java.util.Optional;

import dev.herald.storage.FailoverRead;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * Reads a notification's project and languages, by primary key: the one read tracking makes when memory does not
 * know the notification ({@link KnownNotifications}).
 */
final class TrackedNotificationStore {

    private final DbClient db;
    private final Duration within;

    /** @param within how long a read that a database node's failover interrupts is tried again: a request's wait */
    TrackedNotificationStore(DbClient db, Duration within) {
        this.db = db;
        this.within = within;
    }

    /** While the notification exists (any status). */
    Optional<TrackedNotification> find(String notificationId) {
        return FailoverRead.run(() -> db.execute().namedGet("select-tracked-notification", notificationId), within)
                .map(row -> new TrackedNotification(Rows.string(row, "project_id"),
                                                    NotificationLanguages.of(Rows.string(row, "locale"),
                                                                             Rows.string(row, "translations"))));
    }
}
