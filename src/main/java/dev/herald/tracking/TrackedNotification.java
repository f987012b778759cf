package dev.herald.tracking;

/**
 * What tracking needs to know of a notification: its project, and the languages it may be recorded in.
 */
record TrackedNotification(String projectId, NotificationLanguages languages) {
}
