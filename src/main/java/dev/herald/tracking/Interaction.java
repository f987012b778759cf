package dev.herald.tracking;

/**
 * One recorded interaction. No client IP address is kept (docs/behaviour.md#storage).
 *
 * @param occurredAt epoch millis: the client's timestamp (enhanced) or the server's time
 * @param receivedAt epoch millis: always the server's time
 * @param metadata   serialized JSON object (enhanced) or null
 * @param userKey    the user of a valid token of the notification's project ({@code UserIdentity.userKey()}), whose
 *                   state the interaction also records (an impression: seen; a click: read), or null
 * @param locale     the language it is recorded in: one of the notification's ({@link NotificationLanguages})
 * @param eventId    the client's idempotency key, or null: stored once per project ({@link EventIds})
 */
record Interaction(String notificationId,
                   String projectId,
                   InteractionType type,
                   long occurredAt,
                   long receivedAt,
                   TrackingEndpoint endpoint,
                   String metadata,
                   String userKey,
                   String locale,
                   String eventId) {

    /** An interaction sent without a user token or an event id, in {@code locale}. */
    Interaction(String notificationId, String projectId, InteractionType type, long occurredAt, long receivedAt,
                TrackingEndpoint endpoint, String metadata, String locale) {
        this(notificationId, projectId, type, occurredAt, receivedAt, endpoint, metadata, null, locale, null);
    }
}
