package dev.herald.tracking;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

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
 * @param eventId    the client's idempotency key (either endpoint), or null: an interaction whose project already
 *                   stored one with it is answered 204 and not stored again ({@link EventIds})
 */
record TrackingRequest(InteractionType type, Long occurredAt, String metadata, int metadataBytes, String locale,
                       String eventId) {

    private static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");
    static final int MAX_METADATA_BYTES = 16 * 1024;
    /** The largest exponent a metadata number may be written with, either side: PostgreSQL's numeric reads no more. */
    static final int MAX_EXPONENT = 1000;
    /** An event id's longest form: a UUID (36), a ULID (26) or an app's own key with its prefix fit. */
    static final int MAX_EVENT_ID_LENGTH = 64;

    /**
     * @param window where a client timestamp may lie around {@code now}, the server's time of the request
     */
    static TrackingRequest parse(JsonObject body, TrackingEndpoint endpoint, TimestampWindow window, long now) {
        InteractionType type = type(body.get("type"), endpoint);
        String locale = body.get("locale") instanceof JsonString text ? text.getString() : null;
        if (endpoint == TrackingEndpoint.SIMPLE) {
            return new TrackingRequest(type, null, null, 0, locale, eventId(body));
        }
        Long occurredAt = timestamp(body, window, now);
        String metadata = metadata(body);
        int bytes = metadata == null ? 0 : metadata.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_METADATA_BYTES) {
            throw TrackingErrors.invalidMetadata();
        }
        return new TrackingRequest(type, occurredAt, metadata, bytes, locale, eventId(body));
    }

    /**
     * Absent or null means none. Otherwise 1 to {@value #MAX_EVENT_ID_LENGTH} of {@code A-Z a-z 0-9 . _ : -}: what
     * UUIDs, ULIDs and an app's own keys are made of, compared byte for byte (case counts), and never anything a log
     * line, a header or a CSV cell would have to escape.
     */
    private static String eventId(JsonObject body) {
        JsonValue value = body.get("eventId");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString text) || !isEventId(text.getString())) {
            throw TrackingErrors.invalidEventId();
        }
        return text.getString();
    }

    static boolean isEventId(String id) {
        if (id.isEmpty() || id.length() > MAX_EVENT_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                              || c == '.' || c == '_' || c == ':' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
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
     * Serialized; absent or null means none; anything but an object is refused, and one that a consumer of webhooks
     * or exports could not read ({@link #readableEverywhere}); one over 16 KiB by the caller.
     */
    private static String metadata(JsonObject body) {
        JsonValue value = body.get("metadata");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonObject object) || !readableEverywhere(object)) {
            throw TrackingErrors.invalidMetadata();
        }
        return Json.write(object);
    }

    /**
     * Whether JavaScript, Go and a warehouse's JSON type read all of it: JSON bounds no number and allows U+0000, and
     * any anonymous client's {@code 1e400}, {@code 1e-99999}, {@code 0e2147483648} or a string holding U+0000 went into
     * the webhook batches and exports that carry everyone's interactions, where a strict consumer refuses the whole
     * batch (PostgreSQL's jsonb: "value overflows numeric format", "unsupported Unicode escape sequence"; two outside
     * reviews). Each number must be one a double holds, and its exponent as written within
     * {@value #MAX_EXPONENT} either side (PostgreSQL's bound); no string or name holds U+0000.
     */
    private static boolean readableEverywhere(JsonValue value) {
        return switch (value) {
            case JsonNumber number -> isReadable(number.bigDecimalValue());
            case JsonString text -> text.getString().indexOf('\0') < 0;
            case JsonObject object -> {
                for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                    if (member.getKey().indexOf('\0') >= 0 || !readableEverywhere(member.getValue())) {
                        yield false;
                    }
                }
                yield true;
            }
            case JsonArray array -> {
                for (JsonValue item : array) {
                    if (!readableEverywhere(item)) {
                        yield false;
                    }
                }
                yield true;
            }
            default -> true;
        };
    }

    /** Not beyond a double's range, not so small that it becomes 0, its exponent as written within the bound. */
    private static boolean isReadable(BigDecimal number) {
        if (Math.abs((long) number.scale()) > MAX_EXPONENT) {
            return false;
        }
        double value = number.doubleValue();
        return !Double.isInfinite(value) && (value != 0 || number.signum() == 0);
    }
}
