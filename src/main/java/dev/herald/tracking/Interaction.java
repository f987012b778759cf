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
 * @param eventItemHead its item in a webhook event up to its metadata, written by the request's thread when an
 *                   endpoint may want it ({@link InteractionEvents#withItemHead}), or null: the writer's lane writes it
 *                   if needed. Without the metadata, which the interaction holds already: a waiting request holds
 *                   its metadata once, not twice
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
                   String eventItemHead) {

    /** An interaction whose event item, if any, the writer's lane writes. */
    Interaction(String notificationId, String projectId, InteractionType type, long occurredAt, long receivedAt,
                TrackingEndpoint endpoint, String metadata, String userKey, String locale) {
        this(notificationId, projectId, type, occurredAt, receivedAt, endpoint, metadata, userKey, locale, null);
    }

    /** An interaction sent without a user token, in {@code locale}. */
    Interaction(String notificationId, String projectId, InteractionType type, long occurredAt, long receivedAt,
                TrackingEndpoint endpoint, String metadata, String locale) {
        this(notificationId, projectId, type, occurredAt, receivedAt, endpoint, metadata, null, locale, null);
    }

    Interaction withEventItemHead(String head) {
        return new Interaction(notificationId, projectId, type, occurredAt, receivedAt, endpoint, metadata, userKey,
                               locale, head);
    }
}
