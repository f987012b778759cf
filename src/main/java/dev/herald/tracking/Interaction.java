package dev.herald.tracking;

/**
 * One recorded interaction. No client IP address is kept (docs/behaviour.md#storage).
 *
 * @param occurredAt epoch millis: the client's timestamp (enhanced) or the server's time
 * @param receivedAt epoch millis: always the server's time
 * @param metadata   serialized JSON object (enhanced) or null
 */
record Interaction(String notificationId,
                   String projectId,
                   InteractionType type,
                   long occurredAt,
                   long receivedAt,
                   TrackingEndpoint endpoint,
                   String metadata) {
}
