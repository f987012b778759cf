package dev.herald.feed;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import dev.herald.api.Json;
import dev.herald.content.ServedMessages;
import dev.herald.locale.LanguageTag;
import dev.herald.notification.Action;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * One translation of a notification as the feed serves it (docs/api.md#languages): its message, and a title, image or
 * action where it has its own (null: the notification's own is served in that language too); its image's description
 * where it has one (null: the notification's, when the image is the notification's too; none with its own image).
 */
record FeedTranslation(String title, String message, String image, String imageAlt, Action action) {

    /**
     * The stored translations ({@code notifications.translations}) that can be served: parsed once per load, never per
     * request. The management API writes only servable ones; a translation without a message (being written), with a
     * tag that is not a canonical one, with the notification's own tag, or of another shape was written past it, and
     * is left out rather than served half.
     *
     * @param ownLocale the notification's own effective tag: its text, never a translation's, is served in it
     */
    static Map<String, FeedTranslation> parse(String stored, String ownLocale) {
        if (stored == null || stored.isEmpty()) {
            return Map.of();
        }
        JsonObject all = Json.parseObject(stored.getBytes(StandardCharsets.UTF_8)).orElse(null);
        if (all == null) {
            return Map.of();
        }
        Map<String, FeedTranslation> servable = new TreeMap<>();
        all.forEach((tag, value) -> {
            if (tag.equals(ownLocale) || !LanguageTag.parseStored(tag).map(tag::equals).orElse(false)
                    || value.getValueType() != JsonValue.ValueType.OBJECT) {
                return;
            }
            FeedTranslation translation = of(value.asJsonObject());
            if (translation != null) {
                servable.put(tag, translation);
            }
        });
        return servable.isEmpty() ? Map.of() : Collections.unmodifiableMap(servable);
    }

    /** Null when it has no message, or a member of another type than the management API writes. */
    private static FeedTranslation of(JsonObject translation) {
        try {
            String message = string(translation, "message");
            if (message == null) {
                return null;
            }
            // Served in the allow-list's form whatever was stored, as the notification's own message is (FeedStore).
            return new FeedTranslation(string(translation, "title"), ServedMessages.served(message),
                                       string(translation, "image"), string(translation, "imageAlt"),
                                       action(translation.get("action")));
        } catch (Malformed e) {
            return null;
        }
    }

    /** The string, or null when absent or null. */
    private static String string(JsonObject object, String name) {
        JsonValue value = object.get(name);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.STRING) {
            throw Malformed.INSTANCE;
        }
        return object.getString(name);
    }

    /** {@code {"type":"LINK","data":{"url","target","label"?}}} or a type without data; null when absent. */
    private static Action action(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return null;
        }
        if (value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw Malformed.INSTANCE;
        }
        JsonObject action = value.asJsonObject();
        String type = string(action, "type");
        if (type == null) {
            throw Malformed.INSTANCE;
        }
        return switch (type) {
            case "NO_ACTION" -> Action.NONE;
            case "CLOSE" -> new Action(Action.Type.CLOSE, null, null);
            case "LINK" -> link(action.get("data"));
            default -> throw Malformed.INSTANCE;
        };
    }

    private static Action link(JsonValue value) {
        if (value == null || value.getValueType() != JsonValue.ValueType.OBJECT) {
            throw Malformed.INSTANCE;
        }
        JsonObject data = value.asJsonObject();
        String url = string(data, "url");
        String target = string(data, "target");
        if (url == null || target == null) {
            throw Malformed.INSTANCE;
        }
        return new Action(Action.Type.LINK, url, target, string(data, "label"));
    }

    /** A translation of another shape than the management API writes: left out. Thrown only while parsing a load. */
    private static final class Malformed extends RuntimeException {
        private static final Malformed INSTANCE = new Malformed();

        private Malformed() {
            super(null, null, false, false);
        }
    }
}
