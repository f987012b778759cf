package dev.herald.userstate;

/**
 * A user's state of one notification as stored: epoch millis of the first time each happened, or null.
 */
record StoredState(Long seenAt, Long readAt, Long dismissedAt, Long archivedAt) {

    static final StoredState NONE = new StoredState(null, null, null, null);

    /** Dismissed and archived notifications are out of the badge's counts. */
    boolean counted() {
        return dismissedAt == null && archivedAt == null;
    }
}
