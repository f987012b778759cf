package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.herald.api.Json;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

/**
 * A notification's translations by canonical tag, in tag order, as the management API answers them and as
 * {@code notifications.translations} keeps them (migration 21):
 * {@code {"fr":{"title","message","image","imageAlt","action"}}}, every member present, null where the translation
 * keeps the notification's own ({@code imageAlt} only when set in the column, which also keeps each one's
 * {@code basis}; answers say {@code outdated} instead).
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
    /** Characters of a basis: 96 bits of SHA-256, base64url. Which text a translation was written against, no more. */
    private static final int BASIS_LENGTH = 16;
    /** A basis no text hashes to (it is not base64url): out of date until written again or marked up to date. */
    private static final String OUT_OF_DATE = "!";

    private Translations() {
    }

    /** An unmodifiable copy in tag order. */
    static SortedMap<String, Translation> of(Map<String, Translation> translations) {
        return translations == null || translations.isEmpty() ? NONE
                : Collections.unmodifiableSortedMap(new TreeMap<>(translations));
    }

    /**
     * As a draft of changes keeps them, every member present: the body of a write, which sets no basis and may not
     * say whether they are out of date.
     */
    public static JsonObject json(SortedMap<String, Translation> translations) {
        return json(translations, true);
    }

    /** As the management API answers a notification's: every member present, and whether each is out of date. */
    static JsonObject view(Notification notification) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder();
        notification.translations().forEach((tag, translation) -> json.add(tag, view(notification, translation)));
        return json.build();
    }

    /** One of a notification's translations as answered: every member, and {@code outdated}. */
    static JsonObject view(Notification notification, String tag) {
        return view(notification, notification.translations().get(tag));
    }

    private static JsonObject view(Notification notification, Translation translation) {
        return Json.builders().createObjectBuilder(json(translation, true))
                .add("outdated", outdated(notification, translation))
                .build();
    }

    /** Whether the translation was written against other text of the notification than it has now. */
    static boolean outdated(Notification notification, Translation translation) {
        return translation.basis() != null && !translation.basis().equals(basis(notification, translation));
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

    /** The column's value, each translation with its basis where known: null for none. */
    static String stored(SortedMap<String, Translation> translations) {
        if (translations.isEmpty()) {
            return null;
        }
        JsonObjectBuilder json = Json.builders().createObjectBuilder();
        translations.forEach((tag, translation) -> {
            JsonObject kept = json(translation, false);
            json.add(tag, translation.basis() == null ? kept
                    : Json.builders().createObjectBuilder(kept).add("basis", translation.basis()).build());
        });
        return Json.write(json.build());
    }

    /**
     * The notification's own text that a translation translates, hashed: title, message, image, description and
     * action, each as stored; the image and its description only where the translation shows them (it has no image
     * of its own, and the description only with an image: it is served with one alone). A translation written against
     * it keeps it as its basis ({@link #based}); once that text changes, the translation is out of date until it is
     * written again or marked up to date.
     */
    static String basis(Notification notification, Translation translation) {
        boolean ownImage = translation.image() != null;
        JsonArrayBuilder text = Json.builders().createArrayBuilder();
        for (String member : new String[] {notification.title(), notification.message(),
                                           ownImage ? null : notification.image(),
                                           ownImage || notification.image() == null ? null : notification.imageAlt()}) {
            if (member == null) {
                text.addNull();
            } else {
                text.add(member);
            }
        }
        text.add(NotificationJson.action(notification.action()));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Json.write(text.build())
                                                                                .getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, BASIS_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * The translations {@code after} a write, each with its basis: the text of {@code after} for one that is new,
     * that the write changed, or in {@code reviewed} (marked up to date through its own route); the one it had for
     * one the write left as it was, or, when it had none (kept by a version of Herald before bases), the text of
     * {@code before}, which it was written against at the latest.
     */
    static SortedMap<String, Translation> based(Notification before, Notification after, String reviewed) {
        if (after.translations().isEmpty()) {
            return after.translations();
        }
        TreeMap<String, Translation> based = new TreeMap<>();
        for (Map.Entry<String, Translation> entry : after.translations().entrySet()) {
            Translation translation = entry.getValue();
            Translation was = before.translations().get(entry.getKey());
            if (was == null || !was.sameAs(translation) || entry.getKey().equals(reviewed)) {
                based.put(entry.getKey(), translation.withBasis(basis(after, translation)));
            } else {
                based.put(entry.getKey(), translation.withBasis(was.basis() != null ? was.basis()
                        : basis(before, was)));
            }
        }
        return of(based);
    }

    /**
     * The translations a restore writes: as {@link #based}, but one whose text the restore changes or brings back is
     * out of date. Its words are older than the notification's own text now, whatever they were written against then
     * (versions keep no basis), so its translator is asked to read it again rather than told it is up to date.
     */
    static SortedMap<String, Translation> restored(Notification before, Notification after) {
        TreeMap<String, Translation> restored = new TreeMap<>(based(before, after, null));
        restored.replaceAll((tag, translation) -> {
            Translation was = before.translations().get(tag);
            return was == null || !was.sameAs(translation) ? translation.withBasis(OUT_OF_DATE) : translation;
        });
        return of(restored);
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
                                                      storedAction(member.get("action")), string(member, "basis")));
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
