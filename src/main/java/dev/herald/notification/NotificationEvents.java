package dev.herald.notification;

import java.util.List;
import java.util.Objects;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.outbox.Event;
import dev.herald.outbox.EventType;
import dev.herald.outbox.Outbox;

import io.helidon.dbclient.DbExecute;

import jakarta.json.JsonObject;
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
        write(transaction, EventType.NOTIFICATION_CREATED, notification, null, List.of());
        if (notification.status() == NotificationStatus.PUBLISHED) {
            write(transaction, EventType.NOTIFICATION_PUBLISHED, notification, null, List.of());
        }
    }

    /**
     * One write, one event: a change of status is that status's event, with the dates as written (a consumer rereads
     * the notification then); any other change of one that is published or archived is {@code notification.updated},
     * naming what changed. A draft's changes reach no feed, and are no event.
     */
    void updated(DbExecute transaction, Notification before, Notification after) {
        if (before.status() != after.status()) {
            EventType type = switch (after.status()) {
                case PUBLISHED -> EventType.NOTIFICATION_PUBLISHED;
                case ARCHIVED -> EventType.NOTIFICATION_ARCHIVED;
                case DRAFT -> EventType.NOTIFICATION_UNPUBLISHED;
            };
            write(transaction, type, after, before.status(), List.of());
            return;
        }
        if (after.status() == NotificationStatus.DRAFT) {
            return;
        }
        List<String> changed = changed(before, after);
        if (!changed.isEmpty()) {
            write(transaction, EventType.NOTIFICATION_UPDATED, after, null, changed);
        }
    }

    /** Whether the archiving of ended notifications must read which ones it archives. */
    boolean wantsArchived(String projectId) {
        return outbox.wants(projectId, EventType.NOTIFICATION_ARCHIVED);
    }

    /**
     * One of the ended ones archived at once: the same event, and shape, as a PATCH that archives it, its dates
     * read with its id.
     */
    void archivedEnded(DbExecute transaction, String projectId, String notificationId, Long startAt, Long endAt) {
        write(transaction, EventType.NOTIFICATION_ARCHIVED, new Subject(notificationId, projectId,
                NotificationStatus.ARCHIVED, startAt, endAt), NotificationStatus.PUBLISHED, List.of());
    }

    void deleted(DbExecute transaction, Notification before) {
        outbox.write(transaction, Event.of(before.projectId(), EventType.NOTIFICATION_DELETED,
                Event.notificationSource(before.id()), () -> Json.builders().createObjectBuilder()
                        .add("notificationId", before.id())
                        .add("projectId", before.projectId())
                        .add("previousStatus", wire(before.status()))
                        .build()));
    }

    /** @param changed the names of what changed, for {@code notification.updated} alone; empty otherwise */
    private void write(DbExecute transaction, EventType type, Notification notification,
                       NotificationStatus previous, List<String> changed) {
        write(transaction, type, new Subject(notification.id(), notification.projectId(), notification.status(),
                                             notification.startAt(), notification.endAt()), previous, changed);
    }

    private void write(DbExecute transaction, EventType type, Subject notification, NotificationStatus previous,
                       List<String> changed) {
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
                    if (type == EventType.NOTIFICATION_UPDATED) {
                        data.add("changed", Json.builders().createArrayBuilder(changed));
                    }
                    return data.build();
                }));
    }

    /**
     * The members of the management API's view that a PATCH may change (its names, so a consumer knows what to
     * reread), whose value the write changed; never their values, which are content.
     */
    private static List<String> changed(Notification before, Notification after) {
        JsonObject was = NotificationJson.compared(before);
        JsonObject is = NotificationJson.compared(after);
        return NotificationChanges.DRAFT_FIELDS.writable().stream()
                .filter(field -> !Objects.equals(was.get(field), is.get(field))).toList();
    }

    private static void instant(JsonObjectBuilder data, String name, Long millis) {
        if (millis == null) {
            data.addNull(name);
        } else {
            data.add(name, Timestamps.format(millis));
        }
    }

    /** What every event of a notification's status carries of it. */
    private record Subject(String id, String projectId, NotificationStatus status, Long startAt, Long endAt) {
    }

    /** As the management API spells it. */
    static String wire(NotificationStatus status) {
        return status.name();
    }
}
