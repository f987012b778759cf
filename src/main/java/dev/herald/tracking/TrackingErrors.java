package dev.herald.tracking;

import dev.herald.api.ApiException;

import io.helidon.http.Status;

/**
 * The tracking endpoints' error rows (docs/api.md, POST /api/v1/public/track/{notificationId} and /enhanced), all in
 * the {@code message} shape. Their texts are fixed by the public API, and clients compare them; what more a client
 * needs to mend its request goes to {@code details} (the error object's room for additional properties): the part
 * refused and what it may be.
 */
final class TrackingErrors {

    private TrackingErrors() {
    }

    static ApiException invalidNotificationId() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid notification id");
    }

    static ApiException bodyTooLarge() {
        return ApiException.message(Status.REQUEST_ENTITY_TOO_LARGE_413, "PAYLOAD_TOO_LARGE", "Request body too large");
    }

    static ApiException unsupportedMediaType() {
        return ApiException.message(Status.UNSUPPORTED_MEDIA_TYPE_415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type")
                .withDetails("Content-Type", TrackingBody.MEDIA_TYPES);
    }

    static ApiException invalidBody() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_BODY", "Invalid request body");
    }

    /** @param endpoint whose types the answer lists: the simple endpoint takes fewer */
    static ApiException missingType(TrackingEndpoint endpoint) {
        return ApiException.message(Status.BAD_REQUEST_400, "MISSING_PARAMETER", "Missing required parameter: type")
                .withDetails("type", endpoint.acceptedTypes());
    }

    /** @param endpoint whose types the answer lists: {@code conversion} sent to the simple one is told where it goes */
    static ApiException invalidType(TrackingEndpoint endpoint) {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_INTERACTION_TYPE", "Invalid interaction type")
                .withDetails("type", endpoint.acceptedTypes());
    }

    static ApiException invalidTimestamp() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid timestamp");
    }

    /** Past tracking.metadata.client-kib or project-kib in the window: sent again later, it is stored. */
    static ApiException metadataQuotaExceeded() {
        return ApiException.message(Status.TOO_MANY_REQUESTS_429, "METADATA_QUOTA_EXCEEDED",
                                    "Too much metadata from this client or for this project, please try again later.");
    }

    static ApiException invalidMetadata() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid metadata");
    }

    static ApiException invalidEventId() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid eventId");
    }

    /** The interaction is not committed (or may not be): never a 204. Its writer logged why. */
    static ApiException notStored() {
        return ApiException.message(Status.INTERNAL_SERVER_ERROR_500, "INTERNAL_ERROR", "Internal server error");
    }

    /** Memory cannot tell yet whether the notification exists, and the database is not asked ({@link IdsNotReady}). */
    static ApiException idsNotReady() {
        return ApiException.message(Status.SERVICE_UNAVAILABLE_503, "SERVER_BUSY", "Server busy; retry shortly");
    }

    static ApiException notificationNotFound() {
        return ApiException.message(Status.NOT_FOUND_404, "NOTIFICATION_NOT_FOUND", "Notification not found");
    }
}
