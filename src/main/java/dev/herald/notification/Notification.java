package dev.herald.notification;

import dev.herald.audience.Audience;

/**
 * A notification as stored. Instants are epoch milliseconds; null start or end means open-ended.
 *
 * @param title   plain text, the widget's heading for it; null when it has none
 * @param message the rich-text document (or plain text) exactly as it is served: a string
 * @param audience who it is for; null: everyone, anonymous clients included
 */
public record Notification(String id,
                           String projectId,
                           NotificationStatus status,
                           String title,
                           String message,
                           String image,
                           Action action,
                           String preset,
                           Long startAt,
                           Long endAt,
                           long createdAt,
                           long updatedAt,
                           Audience audience) {

    /** For everyone: what every notification was before audiences, and what most still are. */
    public Notification(String id, String projectId, NotificationStatus status, String title, String message,
                        String image, Action action, String preset, Long startAt, Long endAt, long createdAt,
                        long updatedAt) {
        this(id, projectId, status, title, message, image, action, preset, startAt, endAt, createdAt, updatedAt, null);
    }
}
