package dev.herald.tracking;

/**
 * Whether a notification has an id cannot be told from memory yet: its ids are still loading after
 * {@link KnownNotifications#LOAD_WAIT}, or the change log could not be read in time. Answered 503 with
 * {@code Retry-After}, as a burst is elsewhere, rather than sent to the database (issue 33).
 */
final class IdsNotReady extends RuntimeException {

    IdsNotReady() {
        // Expected under a flood at a start: no stack trace to fill.
        super("The notification ids are not ready", null, false, false);
    }
}
