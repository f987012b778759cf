package dev.herald.changes;

/**
 * What one management write changed, as far as anything cached from it is concerned: a project's keys, settings
 * or notifications, and when a notification was created or deleted, which one.
 *
 * @param notificationId the created or deleted notification, or null (Herald before 0.2 wrote null for a creation)
 */
public record Change(String projectId, String notificationId) {

    public static Change ofProject(String projectId) {
        return new Change(projectId, null);
    }

    public static Change createdNotification(String projectId, String notificationId) {
        return new Change(projectId, notificationId);
    }

    public static Change deletedNotification(String projectId, String notificationId) {
        return new Change(projectId, notificationId);
    }
}
