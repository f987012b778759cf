package dev.herald.changes;

/**
 * What one management write changed, as far as anything cached from it is concerned: a project's keys, settings
 * or notifications, and when a notification was deleted, which one.
 *
 * @param notificationId the deleted notification, or null
 */
public record Change(String projectId, String notificationId) {

    public static Change ofProject(String projectId) {
        return new Change(projectId, null);
    }

    public static Change deletedNotification(String projectId, String notificationId) {
        return new Change(projectId, notificationId);
    }
}
