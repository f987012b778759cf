package dev.herald.webhook;

/**
 * One event on its way to one endpoint, as the API lists it.
 *
 * @param status        {@code PENDING} (waiting for its next attempt), {@code DELIVERED}, {@code FAILED} (given up,
 *                      or its endpoint answered 410)
 * @param attempts      attempts made since it was written or replayed
 * @param nextAttemptAt when it is tried next, while pending
 * @param lastStatus    the receiver's HTTP status at the last attempt, 0 when none was read
 */
record DeliveryRecord(String eventId, String eventType, String status, int attempts, Long nextAttemptAt,
                      Long lastAttemptAt, Integer lastStatus, Long lastLatencyMillis, String lastDetail,
                      long createdAt) {
}
