package dev.herald.notification;

import java.util.List;
import java.util.Optional;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementDml;

/**
 * Notifications in the database.
 */
public final class NotificationStore {

    private final DbClient db;

    public NotificationStore(DbClient db) {
        this.db = db;
    }

    public void create(Notification notification) {
        withFields(db.execute().createNamedInsert("insert-notification"), notification)
                .addParam("projectId", notification.projectId())
                .addParam("createdAt", notification.createdAt())
                .execute();
    }

    public void update(Notification notification) {
        withFields(db.execute().createNamedUpdate("update-notification"), notification).execute();
    }

    /** Deletes the notification; its interactions stay (they have no foreign key to it). */
    public void delete(String id) {
        db.execute().namedDelete("delete-notification", id);
    }

    public Optional<Notification> find(String id) {
        return db.execute().namedGet("select-notification", id).map(NotificationStore::toNotification);
    }

    /** Newest first. */
    public List<Notification> listByProject(String projectId, Optional<NotificationStatus> status) {
        var rows = status.isPresent()
                ? db.execute().namedQuery("select-project-notifications-by-status", projectId, status.get().name())
                : db.execute().namedQuery("select-project-notifications", projectId);
        return rows.map(NotificationStore::toNotification).toList();
    }

    /** The project a notification belongs to, while the notification exists (any status). */
    public Optional<String> projectOf(String notificationId) {
        return db.execute().namedGet("select-notification-project", notificationId)
                .map(row -> Rows.string(row, "project_id"));
    }

    private static DbStatementDml withFields(DbStatementDml statement, Notification notification) {
        return statement.addParam("id", notification.id())
                .addParam("status", notification.status().name())
                .addParam("message", notification.message())
                .addParam("image", notification.image())
                .addParam("actionType", notification.action().type().name())
                .addParam("actionUrl", notification.action().url())
                .addParam("actionTarget", notification.action().target())
                .addParam("preset", notification.preset())
                .addParam("startAt", notification.startAt())
                .addParam("endAt", notification.endAt())
                .addParam("updatedAt", notification.updatedAt());
    }

    private static Notification toNotification(DbRow row) {
        return new Notification(Rows.string(row, "id"),
                                Rows.string(row, "project_id"),
                                NotificationStatus.valueOf(Rows.string(row, "status")),
                                Rows.string(row, "message"),
                                Rows.string(row, "image"),
                                new Action(Action.Type.valueOf(Rows.string(row, "action_type")),
                                           Rows.string(row, "action_url"),
                                           Rows.string(row, "action_target")),
                                Rows.string(row, "preset"),
                                Rows.nullableLong(row, "start_at"),
                                Rows.nullableLong(row, "end_at"),
                                Rows.longValue(row, "created_at"),
                                Rows.longValue(row, "updated_at"));
    }
}
