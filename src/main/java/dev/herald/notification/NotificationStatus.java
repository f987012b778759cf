package dev.herald.notification;

/**
 * Publication status; only PUBLISHED notifications reach clients (public-api.md §3).
 */
public enum NotificationStatus {
    DRAFT,
    PUBLISHED,
    ARCHIVED
}
