package dev.herald.notification;

import java.util.List;
import java.util.Optional;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.feed.FeedBound;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementDml;

/**
 * Notifications in the database. Every write is announced through the change log: the public API serves the feed
 * and checks tracked ids from memory. A write that can make the project's feed answers larger is refused when they
 * could exceed {@code limits.feed-bytes} ({@link FeedBound}); one that cannot (unpublishing, deleting, shrinking) is
 * never refused, so a project over a lowered limit can always be brought back under it.
 */
public final class NotificationStore {

    private final DbClient db;
    private final ChangeLog changes;
    private final FeedBound feedBound;

    public NotificationStore(DbClient db, ChangeLog changes, FeedBound feedBound) {
        this.db = db;
        this.changes = changes;
        this.feedBound = feedBound;
    }

    /** @throws dev.herald.api.ApiException 409 when a published one would make the feed too large */
    public void create(Notification notification) {
        int feedBytes = FeedBound.entryBytes(notification);
        changes.write(Change.createdNotification(notification.projectId(), notification.id()), transaction -> {
            feedBound.lockProject(transaction, notification.projectId());
            withFields(transaction.createNamedInsert("insert-notification"), notification, feedBytes)
                    .addParam("projectId", notification.projectId())
                    .addParam("createdAt", notification.createdAt())
                    .execute();
            if (notification.status() == NotificationStatus.PUBLISHED) {
                feedBound.require(transaction, notification.projectId());
            }
        });
    }

    /** @throws dev.herald.api.ApiException 409 when the change would make the feed too large */
    public void update(Notification notification) {
        int feedBytes = FeedBound.entryBytes(notification);
        changes.write(Change.ofProject(notification.projectId()), transaction -> {
            feedBound.lockProject(transaction, notification.projectId());
            boolean grows = feedBound.grows(transaction, notification, feedBytes);
            withFields(transaction.createNamedUpdate("update-notification"), notification, feedBytes).execute();
            if (grows) {
                feedBound.require(transaction, notification.projectId());
            }
        });
    }

    /** Deletes the notification; its interactions stay (they have no foreign key to it). */
    public void delete(Notification notification) {
        changes.write(Change.deletedNotification(notification.projectId(), notification.id()),
                      transaction -> transaction.namedDelete("delete-notification", notification.id()));
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

    /** How many notifications the database holds, of every project and status. */
    public long count() {
        return db.execute().namedGet("count-notifications")
                .map(row -> Rows.longValue(row, "notifications"))
                .orElse(0L);
    }

    /** The ids of the project's notifications created at or after {@code since} (epoch milliseconds). */
    public List<String> idsCreatedSince(String projectId, long since) {
        return db.execute().namedQuery("select-project-notification-ids-since", projectId, since)
                .map(row -> Rows.string(row, "id"))
                .toList();
    }

    /** Up to {@code limit} ids after {@code after} in id order ({@code ""}: from the first). */
    public List<String> idsAfter(String after, int limit) {
        return db.execute().namedQuery("select-notification-ids-after", after, limit)
                .map(row -> Rows.string(row, "id"))
                .toList();
    }

    /** The project a notification belongs to, while the notification exists (any status). */
    public Optional<String> projectOf(String notificationId) {
        return db.execute().namedGet("select-notification-project", notificationId)
                .map(row -> Rows.string(row, "project_id"));
    }

    private static DbStatementDml withFields(DbStatementDml statement, Notification notification, int feedBytes) {
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
                .addParam("updatedAt", notification.updatedAt())
                .addParam("feedBytes", feedBytes);
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
