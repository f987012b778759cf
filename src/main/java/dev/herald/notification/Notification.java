package dev.herald.notification;

/**
 * A notification as stored. Instants are epoch milliseconds; null start or end means open-ended.
 *
 * @param title   plain text, the widget's heading for it; null when it has none
 * @param message the rich-text document (or plain text) exactly as it is served: a string
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
                           long updatedAt) {
}
