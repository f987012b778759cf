package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A tracking body, validated in the order of docs/api.md, POST /api/v1/public/track/{notificationId}/enhanced (checks 5
 * to 7). Other fields are ignored.
 *
 * @param occurredAt the client's timestamp in epoch millis, or null when the server's time applies
 * @param metadata   the serialized metadata object, or null
 * @param metadataBytes its length in UTF-8 (0 without metadata), measured once here for the size check and the quota
 * @param locale     the language the client says it showed, as sent (either endpoint), or null: parsed only for a
 *                   notification with translations, and never refused (RecordedLanguage)
 */
record TrackingRequest(InteractionType type, Long occurredAt, String metadata, int metadataBytes, String locale) {

    private static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");
    static final int MAX_METADATA_BYTES = 16 * 1024;

    /**
     * @param window where a client timestamp may lie around {@code now}, the server's time of the request
     */
    static TrackingRequest parse(JsonObject body, TrackingEndpoint endpoint, TimestampWindow window, long now) {
        InteractionType type = type(body.get("type"), endpoint);
        String locale = body.get("locale") instanceof JsonString text ? text.getString() : null;
        if (endpoint == TrackingEndpoint.SIMPLE) {
            return new TrackingRequest(type, null, null, 0, locale);
        }
        Long occurredAt = timestamp(body, window, now);
        String metadata = metadata(body);
        if (metadata == null) {
            return new TrackingRequest(type, occurredAt, null, 0, locale);
        }
        int bytes = metadata.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_METADATA_BYTES) {
            throw TrackingErrors.invalidMetadata();
        }
        return new TrackingRequest(type, occurredAt, metadata, bytes, locale);
    }

    private static InteractionType type(JsonValue value, TrackingEndpoint endpoint) {
        if (value == null || value == JsonValue.NULL) {
            throw TrackingErrors.missingType(endpoint);
        }
        if (!(value instanceof JsonString text)) {
            throw TrackingErrors.invalidType(endpoint);
        }
        return InteractionType.fromWireName(text.getString())
                .filter(endpoint::accepts)
                .orElseThrow(() -> TrackingErrors.invalidType(endpoint));
    }

    /**
     * ISO 8601 with a zone (Z or an offset), within the window around the server's clock; a present null is not a
     * timestamp. Sub-millisecond digits are cut before the window is applied. One answer for malformed and out of
     * the window: the client's fault either way, and the window's bounds are no one's business.
     */
    private static Long timestamp(JsonObject body, TimestampWindow window, long now) {
        if (!body.containsKey("timestamp")) {
            return null;
        }
        if (!(body.get("timestamp") instanceof JsonString text)) {
            throw TrackingErrors.invalidTimestamp();
        }
        try {
            Instant instant = Timestamps.parseZoned(text.getString());
            if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST) || !window.contains(instant.toEpochMilli(), now)) {
                throw TrackingErrors.invalidTimestamp();
            }
            return instant.toEpochMilli();
        } catch (DateTimeParseException e) {
            throw TrackingErrors.invalidTimestamp();
        }
    }

    /**
     * Serialized; absent or null means none; anything but an object is refused, and one with a number no double holds
     * (one over 16 KiB by the caller).
     */
    private static String metadata(JsonObject body) {
        JsonValue value = body.get("metadata");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonObject object) || !numbersFitDoubles(object)) {
            throw TrackingErrors.invalidMetadata();
        }
        return Json.write(object);
    }

    /**
     * Whether every number in it is within a double's range, as JavaScript, Go or a warehouse reads numbers: JSON has no
     * bound, and {@code 1e400} sent by any anonymous client went into webhook batches and exports, where a strict
     * consumer refuses the whole batch of other clients' interactions with it (an outside review).
     */
    private static boolean numbersFitDoubles(JsonValue value) {
        return switch (value) {
            case JsonNumber number -> !Double.isInfinite(number.doubleValue());
            case JsonObject object -> {
                for (JsonValue member : object.values()) {
                    if (!numbersFitDoubles(member)) {
                        yield false;
                    }
                }
                yield true;
            }
            case JsonArray array -> {
                for (JsonValue item : array) {
                    if (!numbersFitDoubles(item)) {
                        yield false;
                    }
                }
                yield true;
            }
            default -> true;
        };
    }
}
