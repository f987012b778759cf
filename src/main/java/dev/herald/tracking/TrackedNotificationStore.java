package dev.herald.tracking;

import java.util.Optional;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * Reads a notification's project and languages, by primary key: the one read tracking makes when memory does not
 * know the notification ({@link KnownNotifications}).
 */
final class TrackedNotificationStore {

    private final DbClient db;

    TrackedNotificationStore(DbClient db) {
        this.db = db;
    }

    /** While the notification exists (any status). */
    Optional<TrackedNotification> find(String notificationId) {
        return db.execute().namedGet("select-tracked-notification", notificationId)
                .map(row -> new TrackedNotification(Rows.string(row, "project_id"),
                                                    NotificationLanguages.of(Rows.string(row, "locale"),
                                                                             Rows.string(row, "translations"))));
    }
}
