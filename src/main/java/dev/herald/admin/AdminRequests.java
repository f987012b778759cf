package dev.herald.admin;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.MediaTypes;
import dev.herald.api.Timestamps;
import dev.herald.wire.RequestBodies;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Reads management API bodies and their fields, refusing bad input with 400 VALIDATION_ERROR naming the field.
 */
public final class AdminRequests {

    /** Rich-text messages can be long; this still keeps one request from filling the heap. */
    static final int MAX_BODY_BYTES = RequestBodies.MAX_ADMIN_BYTES;
    private static final List<String> MEDIA_TYPES = List.of("application/json");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");
    /** A limit's form: ASCII digits, few enough for an int. */
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

    private AdminRequests() {
    }

    /**
     * The JSON object body; an empty body is an empty object.
     *
     * @param fields the members this route takes: any other is refused, before any value is read; then a control
     *               character in any string ({@link ControlCharacters}), before any field's own rules
     */
    public static JsonObject body(ServerRequest request, BodyFields fields) {
        return body(request, fields, MAX_BODY_BYTES);
    }

    /** The same, for a route that reads at most {@code maxBytes}: past them 413. */
    public static JsonObject body(ServerRequest request, BodyFields fields, int maxBytes) {
        JsonObject body = fields.requireKnown(object(request, maxBytes));
        ControlCharacters.refuseIn(body, fields.path());
        return body;
    }

    /**
     * The same without the control-character rule, for a route whose strings are neither stored nor shown but matched
     * as a client sent them elsewhere (a token's {@code sub}, which may hold any character).
     */
    public static JsonObject bodyAsSent(ServerRequest request, BodyFields fields, int maxBytes) {
        return fields.requireKnown(object(request, maxBytes));
    }

    private static JsonObject object(ServerRequest request, int maxBytes) {
        if (!request.content().hasEntity()) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        String contentType = request.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!MediaTypes.isOneOf(contentType, MEDIA_TYPES)) {
            throw ApiException.error(Status.UNSUPPORTED_MEDIA_TYPE_415, "UNSUPPORTED_MEDIA_TYPE",
                                     "Content-Type must be application/json; a charset, if given, must be utf-8")
                    .withDetails("Content-Type", MEDIA_TYPES);
        }
        if (request.headers().contentLength().orElse(0) > maxBytes) {
            throw tooLarge();
        }
        byte[] bytes = RequestBodies.read(request, maxBytes, AdminRequests::unreadableBody);
        if (bytes.length > maxBytes) {
            throw tooLarge();
        }
        if (bytes.length == 0) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        return Json.parseRequestObject(bytes).orElseThrow(
                () -> ApiException.validation("body", "The body must be one JSON object: valid JSON, at most "
                        + Json.MAX_DEPTH + " levels deep, no name twice in one object, no surrogate escape without"
                        + " its pair"));
    }

    private static ApiException tooLarge() {
        return ApiException.error(Status.REQUEST_ENTITY_TOO_LARGE_413, "PAYLOAD_TOO_LARGE", "Request body too large");
    }

    private static ApiException unreadableBody() {
        return ApiException.validation("body", "The body could not be read: malformed chunked encoding, or shorter"
                + " than its Content-Length");
    }

    /**
     * A query parameter given at most once. Given twice ({@code limit=1&limit=abc}) it is refused rather than read
     * first-wins: the request says two things, and a client's later value, valid or not, was silently ignored.
     */
    public static Optional<String> queryParameter(ServerRequest request, String name) {
        List<String> values = request.query().all(name, List::of);
        // "?format" with no "=": Helidon lists no value for it, so it was read as absent (the default) where
        // "?format=" is refused, and "?limit&limit=2" passed as one limit (an outside review). Each counts as given.
        int given = Math.max(values.size(), timesNamed(request.query().rawValue(), name));
        if (given > 1) {
            throw ApiException.validation(name, name + " is given " + given + " times: give it once");
        }
        return given == 0 ? Optional.empty() : Optional.of(values.isEmpty() ? "" : values.getFirst());
    }

    /** How many of the raw query's parts name the parameter, with a value or without. */
    private static int timesNamed(String rawQuery, String name) {
        int times = 0;
        for (String part : rawQuery.split("&")) {
            int equals = part.indexOf('=');
            String key = equals < 0 ? part : part.substring(0, equals);
            try {
                if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                    times++;
                }
            } catch (IllegalArgumentException e) {
                // a malformed escape names no parameter of ours
            }
        }
        return times;
    }

    /**
     * {@code ?limit=}, given once: a whole number from 1 to {@code max} in ASCII digits; {@code defaultLimit} when
     * absent. {@code Integer.parseInt} alone took a sign ({@code +5}) and any script's digits ({@code ٥}, an
     * Arabic-Indic five) as 5 (an outside review): a client's typo or a filter in front reads them otherwise.
     */
    public static int limit(ServerRequest request, int defaultLimit, int max) {
        return queryParameter(request, "limit").map(text -> {
            if (DIGITS.matcher(text).matches()) {
                int limit = Integer.parseInt(text);
                if (limit >= 1 && limit <= max) {
                    return limit;
                }
            }
            throw ApiException.validation("limit", "limit must be a whole number from 1 to " + max);
        }).orElse(defaultLimit);
    }

    public static Optional<String> optionalString(JsonObject body, String field) {
        return optionalString(body.get(field), field);
    }

    /**
     * @param value a member's value, null when the member is absent
     * @param field the member's path in the request ({@code action.data.url}), as {@code details.field} names it
     */
    public static Optional<String> optionalString(JsonValue value, String field) {
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof JsonString text)) {
            throw ApiException.validation(field, field + " must be a string");
        }
        return Optional.of(text.getString());
    }

    /**
     * A value from a fixed set (a status, an ordering, an action type): anything else, a non-string or null
     * included, is refused with the set in the message and in {@code details.allowed}.
     *
     * @param value a member's value, null when the member is absent
     */
    public static Optional<String> optionalChoice(JsonValue value, String field, List<String> allowed) {
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof JsonString text && allowed.contains(text.getString())) {
            return Optional.of(text.getString());
        }
        throw notOneOf(field, allowed);
    }

    /** A query parameter, a body member or a header that takes one of a fixed set. */
    public static ApiException notOneOf(String field, List<String> allowed) {
        return ApiException.validation(field, field + " must be one of " + String.join(", ", allowed), allowed);
    }

    /** The wire names of an enum whose constants are named as they are sent. */
    public static List<String> names(Class<? extends Enum<?>> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
    }

    public static Optional<Boolean> optionalBoolean(JsonObject body, String field) {
        JsonValue value = body.get(field);
        if (value == null) {
            return Optional.empty();
        }
        if (value == JsonValue.TRUE || value == JsonValue.FALSE) {
            return Optional.of(value == JsonValue.TRUE);
        }
        throw ApiException.validation(field, field + " must be true or false");
    }

    /** An instant in the wire form of the public API: ISO 8601 with a zone. */
    public static long instant(String text, String field) {
        try {
            Instant instant = Timestamps.parseZoned(text);
            if (instant.isBefore(Instant.EPOCH) || instant.isAfter(LATEST)) {
                throw ApiException.validation(field, field + " is out of range: from " + Instant.EPOCH + " to "
                        + LATEST);
            }
            return instant.toEpochMilli();
        } catch (DateTimeParseException e) {
            // A query's unencoded + (2026-11-22T10:00:00+01:00) arrives as a space: say so, or the value looks right.
            throw ApiException.validation(field, field + " must be an ISO 8601 date-time with a zone"
                    + (text.indexOf(' ') >= 0 ? " (a space where its offset's + was: encode + as %2B in a query)" : ""));
        }
    }

    public static ApiException notFound(String what) {
        return ApiException.error(Status.NOT_FOUND_404, "NOT_FOUND", what + " not found");
    }
}
