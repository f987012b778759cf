package dev.herald.tracking;

import dev.herald.web.ApiException;

import io.helidon.http.Status;

/**
 * The tracking endpoints' error rows (docs/api.md, POST /api/v1/public/track/{notificationId} and /enhanced), all in
 * the {@code message} shape.
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
        return ApiException.message(Status.UNSUPPORTED_MEDIA_TYPE_415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type");
    }

    static ApiException invalidBody() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_BODY", "Invalid request body");
    }

    static ApiException missingType() {
        return ApiException.message(Status.BAD_REQUEST_400, "MISSING_PARAMETER", "Missing required parameter: type");
    }

    static ApiException invalidType() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_INTERACTION_TYPE", "Invalid interaction type");
    }

    static ApiException invalidTimestamp() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid timestamp");
    }

    static ApiException invalidMetadata() {
        return ApiException.message(Status.BAD_REQUEST_400, "INVALID_PARAMETER", "Invalid metadata");
    }

    /** The interaction is not committed (or may not be): never a 204. Its writer logged why. */
    static ApiException notStored() {
        return ApiException.message(Status.INTERNAL_SERVER_ERROR_500, "INTERNAL_ERROR", "Internal server error");
    }

    static ApiException notificationNotFound() {
        return ApiException.message(Status.NOT_FOUND_404, "NOTIFICATION_NOT_FOUND", "Notification not found");
    }
}
