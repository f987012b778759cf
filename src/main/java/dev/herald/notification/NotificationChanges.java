package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;
import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A create or update body of the management API applied to a notification (docs/api.md#objects). Absent fields keep
 * their value; {@code image}, {@code startDate} and {@code endDate} may be set to null; every rule is checked here,
 * so no {@code javascript:} link (in the image, the action or the rich text) or malformed date ever reaches a client.
 */
final class NotificationChanges {

    /**
     * A preset is a name clients look a style up by, and often put in a CSS class or a file name: no spaces,
     * quotes, angle brackets, dots or slashes.
     */
    private static final Pattern PRESET = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** The create body and the update body alike (docs/api.md, PATCH /api/v1/admin/notifications/{id}: an update takes any field of the create body). */
    static final BodyFields FIELDS = BodyFields.of("message", "status", "image", "action", "preset", "startDate",
                                                   "endDate")
            .readOnly("id", "projectId", "createdAt", "updatedAt");
    private static final BodyFields ACTION_FIELDS = BodyFields.of("type", "data").at("action");
    private static final BodyFields LINK_FIELDS = BodyFields.of("url", "target").at("action.data");
    private static final List<String> STATUSES = AdminRequests.names(NotificationStatus.class);
    private static final List<String> ACTION_TYPES = AdminRequests.names(Action.Type.class);
    private static final List<String> TARGETS = List.of("_blank", "_self");

    private NotificationChanges() {
    }

    /** The defaults of a new notification, before its body is applied. */
    static Notification draft(String id, String projectId, long now) {
        return new Notification(id, projectId, NotificationStatus.DRAFT, null, null, Action.NONE, "default",
                                null, null, now, now);
    }

    /**
     * @param maxMessageBytes {@code limits.message-bytes}: checked when the body carries a message, so a message
     *                        stored under an older, higher limit can still be unpublished or have its dates changed
     */
    static Notification apply(JsonObject body, Notification current, long now, int maxMessageBytes) {
        String message = body.containsKey("message") ? message(body.get("message"), maxMessageBytes) : current.message();
        if (message == null) {
            throw ApiException.validation("message", "message is required");
        }
        NotificationStatus status = AdminRequests.optionalChoice(body.get("status"), "status", STATUSES)
                .map(NotificationStatus::valueOf)
                .orElse(current.status());
        String image = nullableField(body, "image", current.image(), url -> HttpUrls.require(url, "image"));
        Action action = body.containsKey("action") ? action(body.get("action")) : current.action();
        String preset = AdminRequests.optionalString(body, "preset").map(NotificationChanges::preset)
                .orElse(current.preset());
        Long startAt = nullableField(body, "startDate", current.startAt(), text -> AdminRequests.instant(text, "startDate"));
        Long endAt = nullableField(body, "endDate", current.endAt(), text -> AdminRequests.instant(text, "endDate"));
        if (startAt != null && endAt != null && endAt < startAt) {
            throw ApiException.validation("endDate", "endDate must not be before startDate");
        }
        return new Notification(current.id(), current.projectId(), status, message, image, action, preset,
                                startAt, endAt, current.createdAt(), now);
    }

    /**
     * A string kept verbatim, or a rich-text document stored as its JSON serialization. Clients get both as the same
     * string, so a string that is a serialized document has its URLs checked like an object's.
     */
    private static String message(JsonValue value, int maxBytes) {
        String message;
        if (value instanceof JsonString text) {
            message = text.getString();
        } else if (value instanceof JsonObject document) {
            message = Json.write(document);
        } else {
            throw ApiException.validation("message", "message must be a non-empty string or a rich-text object");
        }
        if (message.isBlank()) {
            throw ApiException.validation("message", "message must not be empty or blank");
        }
        // Bytes, not characters: memory, the database and the feed pay UTF-8 bytes, and an emoji is 4 of them.
        int bytes = message.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw ApiException.validation("message", String.format(
                    Locale.ROOT, "message is too long: %,d bytes in UTF-8, more than the %,d allowed"
                            + " (limits.message-bytes)", bytes, maxBytes));
        }
        JsonValue document = value instanceof JsonObject ? value : serializedDocument(message);
        RichTextUrls.requireHttpUrls(document, "message");
        return message;
    }

    /**
     * The document a string message holds, or null when it is text. Clients read a string message with parsers more
     * lenient than JSON.parse: Gson's lenient reader skips comments and reads the first value of several, Java's
     * strip() and Kotlin's trim() remove control characters, others a zero-width space. Each of D after an empty
     * comment, after U+0000 or U+200B, D followed by "x" or ";", and D in brackets was stored unchecked, while such a
     * parser read the document D and its javascript: link. So one rule: past what any of them skips at the start (white space of
     * every kind, control and format characters, comments), a string that begins with "{" must be exactly one JSON
     * object with nothing after it but more of the same, and is checked as a document; one that begins with "["
     * followed by "{" or "[" is refused (an array is not a message). Text that merely contains braces stays text.
     */
    private static JsonObject serializedDocument(String message) {
        int start = skipIgnorable(message, 0);
        if (start == message.length()) {
            return null;
        }
        if (message.charAt(start) == '[') {
            int next = skipIgnorable(message, start + 1);
            if (next < message.length() && (message.charAt(next) == '{' || message.charAt(next) == '[')) {
                throw ApiException.validation("message", "message starts with a JSON array: send a rich-text document"
                        + " as an object, or text that does not start with [ followed by { or [");
            }
            return null;
        }
        if (message.charAt(start) != '{') {
            return null;
        }
        int end = endOfObject(message, start);
        if (end < 0 || skipIgnorable(message, end) != message.length()) {
            throw notOneDocument();
        }
        return Json.parseObject(message.substring(start, end).getBytes(StandardCharsets.UTF_8))
                .orElseThrow(NotificationChanges::notOneDocument);
    }

    private static ApiException notOneDocument() {
        return ApiException.validation("message", "message starts with { but is not one JSON document and nothing else"
                + " that this server can read: send a valid rich-text document, or text that does not start with {");
    }

    /**
     * Where the parsers above would go on from {@code from}: past white space of every kind, control and format
     * characters (U+0000, U+001C, U+0085, U+200B, U+2060, U+FEFF…), and comments, block or line.
     */
    static int skipIgnorable(String text, int from) {
        int i = from;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            int type = Character.getType(c);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || type == Character.CONTROL
                    || type == Character.FORMAT) {
                i += Character.charCount(c);
            } else if (text.startsWith("/*", i)) {
                int close = text.indexOf("*/", i + 2);
                i = close < 0 ? text.length() : close + 2;
            } else if (text.startsWith("//", i)) {
                while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    i++;
                }
            } else {
                break;
            }
        }
        return i;
    }

    /** The index just after the JSON object that starts at {@code start}, or -1 if its braces never close. */
    private static int endOfObject(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    /** The {@code ?status=} of a list. */
    static NotificationStatus status(String name) {
        if (!STATUSES.contains(name)) {
            throw AdminRequests.notOneOf("status", STATUSES);
        }
        return NotificationStatus.valueOf(name);
    }

    private static String preset(String preset) {
        if (!PRESET.matcher(preset).matches()) {
            throw ApiException.validation("preset", "preset must be 1 to 64 letters, digits, _ or -");
        }
        return preset;
    }

    private static Action action(JsonValue value) {
        if (!(value instanceof JsonObject action)) {
            throw ApiException.validation("action", "action must be an object with a type");
        }
        ACTION_FIELDS.requireKnown(action);
        Action.Type type = AdminRequests.optionalChoice(action.get("type"), "action.type", ACTION_TYPES)
                .map(Action.Type::valueOf)
                .orElseThrow(() -> ApiException.validation("action.type", "action.type is required, one of "
                        + String.join(", ", ACTION_TYPES), ACTION_TYPES));
        JsonValue data = action.getOrDefault("data", JsonValue.NULL);
        if (type != Action.Type.LINK) {
            if (data != JsonValue.NULL) {
                throw ApiException.validation("action.data", "action.data must be null unless the type is LINK");
            }
            return new Action(type, null, null);
        }
        if (!(data instanceof JsonObject link)) {
            throw ApiException.validation("action.data", "a LINK action needs data with url and target");
        }
        LINK_FIELDS.requireKnown(link);
        String url = HttpUrls.require(AdminRequests.optionalString(link.get("url"), "action.data.url").orElseThrow(
                () -> ApiException.validation("action.data.url", "action.data.url is required")), "action.data.url");
        String target = AdminRequests.optionalChoice(link.get("target"), "action.data.target", TARGETS)
                .orElseThrow(() -> AdminRequests.notOneOf("action.data.target", TARGETS));
        return new Action(type, url, target);
    }

    /** Absent: unchanged. Null: cleared. A string: parsed. */
    private static <T> T nullableField(JsonObject body, String field, T current, Function<String, T> parse) {
        if (!body.containsKey(field)) {
            return current;
        }
        if (body.get(field) == JsonValue.NULL) {
            return null;
        }
        return parse.apply(AdminRequests.optionalString(body, field).orElseThrow());
    }
}
