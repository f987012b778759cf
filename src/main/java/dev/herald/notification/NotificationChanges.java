package dev.herald.notification;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.Function;

import dev.herald.admin.AdminRequests;
import dev.herald.web.ApiException;
import dev.herald.web.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A create or update body of the management API applied to a notification (decisions §2). Absent fields keep
 * their value; {@code image}, {@code startDate} and {@code endDate} may be set to null; every rule is checked here,
 * so no {@code javascript:} link or malformed date ever reaches a client.
 */
final class NotificationChanges {

    static final int MAX_MESSAGE_CHARACTERS = 256 * 1024;
    static final int MAX_URL_CHARACTERS = 2048;
    static final int MAX_PRESET_CHARACTERS = 100;

    private NotificationChanges() {
    }

    /** The defaults of a new notification, before its body is applied. */
    static Notification draft(String id, String projectId, long now) {
        return new Notification(id, projectId, NotificationStatus.DRAFT, null, null, Action.NONE, "default",
                                null, null, now, now);
    }

    static Notification apply(JsonObject body, Notification current, long now) {
        String message = body.containsKey("message") ? message(body.get("message")) : current.message();
        if (message == null) {
            throw ApiException.validation("message", "message is required");
        }
        NotificationStatus status = AdminRequests.optionalString(body, "status").map(NotificationChanges::status)
                .orElse(current.status());
        String image = nullableField(body, "image", current.image(), url -> url(url, "image"));
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

    /** A string kept verbatim, or a rich-text document stored as its JSON serialization. */
    private static String message(JsonValue value) {
        String message;
        if (value instanceof JsonString text) {
            message = text.getString();
        } else if (value instanceof JsonObject document) {
            message = Json.write(document);
        } else {
            throw ApiException.validation("message", "message must be a non-empty string or a rich-text object");
        }
        if (message.isBlank() || message.length() > MAX_MESSAGE_CHARACTERS) {
            throw ApiException.validation("message", "message must be non-empty and at most "
                    + MAX_MESSAGE_CHARACTERS + " characters");
        }
        return message;
    }

    static NotificationStatus status(String name) {
        try {
            return NotificationStatus.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("status", "status must be DRAFT, PUBLISHED or ARCHIVED");
        }
    }

    private static String preset(String preset) {
        if (preset.isBlank() || preset.length() > MAX_PRESET_CHARACTERS) {
            throw ApiException.validation("preset", "preset must be non-empty, at most " + MAX_PRESET_CHARACTERS
                    + " characters");
        }
        return preset;
    }

    private static Action action(JsonValue value) {
        if (!(value instanceof JsonObject action)) {
            throw ApiException.validation("action", "action must be an object with a type");
        }
        Action.Type type = AdminRequests.optionalString(action, "type").map(name -> {
            try {
                return Action.Type.valueOf(name);
            } catch (IllegalArgumentException e) {
                throw ApiException.validation("action.type", "action.type must be NO_ACTION, LINK or CLOSE");
            }
        }).orElseThrow(() -> ApiException.validation("action.type", "action.type is required"));
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
        String url = url(AdminRequests.optionalString(link, "url").orElseThrow(
                () -> ApiException.validation("action.data.url", "action.data.url is required")), "action.data.url");
        String target = AdminRequests.optionalString(link, "target").filter(t -> t.equals("_blank") || t.equals("_self"))
                .orElseThrow(() -> ApiException.validation("action.data.target", "action.data.target must be _blank or _self"));
        return new Action(type, url, target);
    }

    /** Absolute http or https only: no javascript:, data: or relative links. */
    private static String url(String text, String field) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && text.length() <= MAX_URL_CHARACTERS) {
                return text;
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw ApiException.validation(field, field + " must be an absolute http or https URL");
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
