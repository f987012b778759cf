package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * A notification's translations by canonical tag, in tag order, as the management API answers them and as
 * {@code notifications.translations} keeps them (migration 21):
 * {@code {"fr":{"title","message","image","imageAlt","action"}}}, every member present, null where the translation
 * keeps the notification's own ({@code imageAlt} only when set in the column).
 */
public final class Translations {

    /** A notification's languages besides its own (docs/api.md#languages). */
    public static final int MAX = 50;
    /**
     * All of a notification's translations, as stored, in multiples of {@code limits.message-bytes}: eight
     * translations of the longest message, or fifty of a fifth of it. Without it fifty translations of the longest
     * message made a notification of 1.6 MB (9.6 MB once escaped), and a page of them or of their versions far more.
     */
    static final int MAX_MESSAGE_BYTES_MULTIPLE = 8;

    public static final SortedMap<String, Translation> NONE = Collections.emptySortedMap();

    private Translations() {
    }

    /** An unmodifiable copy in tag order. */
    static SortedMap<String, Translation> of(Map<String, Translation> translations) {
        return translations == null || translations.isEmpty() ? NONE
                : Collections.unmodifiableSortedMap(new TreeMap<>(translations));
    }

    /** As the management API answers them: every member present. */
    public static JsonObject json(SortedMap<String, Translation> translations) {
        return json(translations, true);
    }

    /**
     * As the column and versions keep them: {@code imageAlt} only when set (migration 33), so that translations kept
     * before it read the same, and a change of status does not make a new version of every translated notification.
     */
    static JsonObject kept(SortedMap<String, Translation> translations) {
        return json(translations, false);
    }

    private static JsonObject json(SortedMap<String, Translation> translations, boolean everyMember) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder();
        translations.forEach((tag, translation) -> json.add(tag, json(translation, everyMember)));
        return json.build();
    }

    static JsonObject json(Translation translation) {
        return json(translation, true);
    }

    private static JsonObject json(Translation translation, boolean everyMember) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder();
        nullable(json, "title", translation.title());
        nullable(json, "message", translation.message());
        nullable(json, "image", translation.image());
        if (everyMember || translation.imageAlt() != null) {
            nullable(json, "imageAlt", translation.imageAlt());
        }
        if (translation.action() == null) {
            json.addNull("action");
        } else {
            json.add("action", NotificationJson.action(translation.action()));
        }
        return json.build();
    }

    /** The column's value: null for none. */
    static String stored(SortedMap<String, Translation> translations) {
        return translations.isEmpty() ? null : Json.write(kept(translations));
    }

    /** The column's value as written by {@link #stored}; null or unreadable: none. */
    public static SortedMap<String, Translation> parseStored(String stored) {
        if (stored == null || stored.isEmpty()) {
            return NONE;
        }
        JsonObject object = Json.parseObject(stored.getBytes(StandardCharsets.UTF_8)).orElse(JsonValue.EMPTY_JSON_OBJECT);
        TreeMap<String, Translation> translations = new TreeMap<>();
        object.forEach((tag, value) -> {
            if (value instanceof JsonObject member) {
                translations.put(tag, new Translation(string(member, "title"), string(member, "message"),
                                                      string(member, "image"), string(member, "imageAlt"),
                                                      storedAction(member.get("action"))));
            }
        });
        return of(translations);
    }

    private static Action storedAction(JsonValue value) {
        if (!(value instanceof JsonObject action)) {
            return null;
        }
        Action.Type type = Action.Type.valueOf(action.getString("type"));
        if (!(action.get("data") instanceof JsonObject data)) {
            return new Action(type, null, null);
        }
        return new Action(type, string(data, "url"), string(data, "target"), string(data, "label"));
    }

    private static String string(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value instanceof jakarta.json.JsonString text ? text.getString() : null;
    }

    private static void nullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }
}
