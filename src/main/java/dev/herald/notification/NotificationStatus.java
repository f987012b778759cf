package dev.herald.notification;

/**
 * Publication status; only PUBLISHED notifications reach clients
 * (docs/api.md, GET /api/v1/public/{apiKey}/notifications, rule 1).
 */
public enum NotificationStatus {
    DRAFT,
    PUBLISHED,
    ARCHIVED
}
