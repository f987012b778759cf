package dev.herald.notification;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.outbox.Event;
import dev.herald.outbox.EventType;
import dev.herald.outbox.Outbox;

import io.helidon.dbclient.DbExecute;

import jakarta.json.JsonObjectBuilder;

/**
 * The events of a notification's life, written in the transaction of the write that causes them
 * (docs/webhooks.md#events-and-payloads): ids, status and dates, never its content, which the management API serves.
 * Their source is the notification, so a consumer orders them by {@code sequence}.
 */
final class NotificationEvents {

    private final Outbox outbox;

    NotificationEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    void created(DbExecute transaction, Notification notification) {
        write(transaction, EventType.NOTIFICATION_CREATED, notification, null);
        if (notification.status() == NotificationStatus.PUBLISHED) {
            write(transaction, EventType.NOTIFICATION_PUBLISHED, notification, null);
        }
    }

    /** A change of status to published or archived is an event; any other update is not. */
    void updated(DbExecute transaction, Notification before, Notification after) {
        if (before.status() == after.status()) {
            return;
        }
        if (after.status() == NotificationStatus.PUBLISHED) {
            write(transaction, EventType.NOTIFICATION_PUBLISHED, after, before.status());
        } else if (after.status() == NotificationStatus.ARCHIVED) {
            write(transaction, EventType.NOTIFICATION_ARCHIVED, after, before.status());
        }
    }

    /** Whether the archiving of ended notifications must read which ones it archives. */
    boolean wantsArchived(String projectId) {
        return outbox.wants(projectId, EventType.NOTIFICATION_ARCHIVED);
    }

    void archivedEnded(DbExecute transaction, String projectId, String notificationId) {
        outbox.write(transaction, Event.of(projectId, EventType.NOTIFICATION_ARCHIVED,
                Event.notificationSource(notificationId), () -> Json.builders().createObjectBuilder()
                        .add("notificationId", notificationId)
                        .add("projectId", projectId)
                        .add("status", wire(NotificationStatus.ARCHIVED))
                        .add("previousStatus", wire(NotificationStatus.PUBLISHED))
                        .build()));
    }

    void deleted(DbExecute transaction, Notification before) {
        outbox.write(transaction, Event.of(before.projectId(), EventType.NOTIFICATION_DELETED,
                Event.notificationSource(before.id()), () -> Json.builders().createObjectBuilder()
                        .add("notificationId", before.id())
                        .add("projectId", before.projectId())
                        .add("previousStatus", wire(before.status()))
                        .build()));
    }

    private void write(DbExecute transaction, EventType type, Notification notification,
                       NotificationStatus previous) {
        outbox.write(transaction, Event.of(notification.projectId(), type, Event.notificationSource(notification.id()),
                () -> {
                    JsonObjectBuilder data = Json.builders().createObjectBuilder()
                            .add("notificationId", notification.id())
                            .add("projectId", notification.projectId())
                            .add("status", wire(notification.status()));
                    if (previous != null) {
                        data.add("previousStatus", wire(previous));
                    }
                    instant(data, "startAt", notification.startAt());
                    instant(data, "endAt", notification.endAt());
                    return data.build();
                }));
    }

    private static void instant(JsonObjectBuilder data, String name, Long millis) {
        if (millis == null) {
            data.addNull(name);
        } else {
            data.add(name, Timestamps.format(millis));
        }
    }

    /** As the management API spells it. */
    static String wire(NotificationStatus status) {
        return status.name();
    }
}
