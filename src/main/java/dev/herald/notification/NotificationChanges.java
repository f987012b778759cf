package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.TextLength;
import dev.herald.audience.Audience;
import dev.herald.content.ContentRemoval;
import dev.herald.content.HttpUrls;
import dev.herald.content.MessageContent;
import dev.herald.content.RichTextDocuments;
import dev.herald.content.VisibleContent;
import dev.herald.locale.LanguageTag;

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
    /** The widget's heading fits a line or two; the column holds as many (migration 15). */
    static final int MAX_TITLE_LENGTH = 200;
    /**
     * An image's description is a sentence or two (WCAG's alt text: what the picture says, not every detail), read
     * out by screen readers in full; the column holds as many (migration 33).
     */
    static final int MAX_IMAGE_ALT_LENGTH = 250;
    private static final Pattern PRESET = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /**
     * The create body and the update body alike (docs/api.md, PATCH /api/v1/admin/notifications/{id}: an update takes
     * any field of the create body).
     */
    static final BodyFields FIELDS = BodyFields.of("title", "message", "status", "image", "imageAlt", "action",
                                                   "preset", "startDate", "endDate", "audience", "locale",
                                                   "translations")
            .readOnly("id", "projectId", "createdAt", "updatedAt", "removed");
    /**
     * A draft of changes (docs/api.md, PUT /api/v1/admin/notifications/{id}/draft): the update body but its status,
     * which only a PATCH changes, so that publishing or archiving is never a draft's side effect.
     */
    static final BodyFields DRAFT_FIELDS = BodyFields.of("title", "message", "image", "imageAlt", "action", "preset",
                                                         "startDate", "endDate", "audience", "locale",
                                                         "translations")
            .readOnly("status", "id", "projectId", "createdAt", "updatedAt", "removed");
    private static final BodyFields ACTION_FIELDS = BodyFields.of("type", "data");
    private static final BodyFields LINK_FIELDS = BodyFields.of("url", "target", "label");
    /** A translation: the members of a notification's text that a language may change. */
    static final BodyFields TRANSLATION_FIELDS = BodyFields.of("title", "message", "image", "imageAlt", "action")
            .readOnly("outdated");
    private static final List<String> STATUSES = AdminRequests.names(NotificationStatus.class);
    private static final List<String> ACTION_TYPES = AdminRequests.names(Action.Type.class);
    private static final List<String> TARGETS = List.of("_blank", "_self");

    private NotificationChanges() {
    }

    /** The defaults of a new notification, before its body is applied. */
    static Notification draft(String id, String projectId, String projectLocale, long now) {
        return new Notification(id, projectId, NotificationStatus.DRAFT, null, null, null, null, Action.NONE,
                                "default", null, null, now, now, null, null, Translations.NONE, projectLocale);
    }

    /**
     * @param maxMessageBytes {@code limits.message-bytes}: checked when the body carries a message, so a message
     *                        stored under an older, higher limit can still be unpublished or have its dates changed
     */
    static Applied apply(JsonObject body, Notification current, long now, int maxMessageBytes) {
        return read(body, current.message() == null, maxMessageBytes).applyTo(current, now);
    }

    /**
     * The body's fields, each checked on its own in the order docs/api.md gives, to be applied once the write has
     * read the notification it changes ({@link Patch#applyTo}).
     *
     * @param messageRequired a create: the body must carry a message
     */
    static Patch read(JsonObject body, boolean messageRequired, int maxMessageBytes) {
        Content content = body.containsKey("message") ? message(body.get("message"), maxMessageBytes, "message")
                : null;
        if (content == null && messageRequired) {
            throw ApiException.validation("message", "message is required");
        }
        NotificationStatus status = AdminRequests.optionalChoice(body.get("status"), "status", STATUSES)
                .map(NotificationStatus::valueOf)
                .orElse(null);
        String title = nullableField(body, "title", text -> title(text, "title"));
        String image = nullableField(body, "image", url -> HttpUrls.require(url, "image"));
        String imageAlt = nullableField(body, "imageAlt", text -> imageAlt(text, "imageAlt"));
        Action action = body.containsKey("action") ? action(body.get("action"), "action") : null;
        String preset = AdminRequests.optionalString(body, "preset").map(NotificationChanges::preset).orElse(null);
        Long startAt = nullableField(body, "startDate", text -> AdminRequests.instant(text, "startDate"));
        Long endAt = nullableField(body, "endDate", text -> AdminRequests.instant(text, "endDate"));
        Audience audience = body.containsKey("audience") ? Audience.parse(body.get("audience"), "audience") : null;
        String locale = nullableField(body, "locale", NotificationChanges::locale);
        List<JsonObject> removed = new ArrayList<>();
        if (content != null) {
            content.removed().forEach(removal -> removed.add(removal.json("message")));
        }
        SortedMap<String, Translation> translations = body.containsKey("translations")
                ? translations(body.get("translations"), maxMessageBytes, removed) : null;
        return new Patch(body, content, status, title, image, imageAlt, action, preset, startAt, endAt, audience,
                         locale, translations, List.copyOf(removed));
    }

    /** A notification's own language: a canonical tag (docs/api.md#languages). */
    private static String locale(String tag) {
        return LanguageTag.parseStored(tag).orElseThrow(() -> ApiException.validation("locale", "locale must be a BCP 47"
                + " language tag of language, script, region and variants (en, pt-BR, zh-Hant-TW), at most "
                + LanguageTag.MAX_LENGTH + " characters, or null for the project's default"));
    }

    /** A {@code translations} member: every translation, by tag, replacing those the notification had. */
    private static SortedMap<String, Translation> translations(JsonValue value, int maxMessageBytes,
                                                               List<JsonObject> removed) {
        if (value == JsonValue.NULL) {
            return Translations.NONE;
        }
        if (!(value instanceof JsonObject members)) {
            throw ApiException.validation("translations", "translations must be an object of translations by BCP 47"
                    + " language tag");
        }
        if (members.size() > Translations.MAX) {
            throw tooManyTranslations();
        }
        SortedMap<String, Translation> translations = new TreeMap<>();
        members.forEach((name, member) -> {
            String tag = translationTag(name, "translations." + name);
            if (translations.containsKey(tag)) {
                throw ApiException.validation("translations." + name, "translations has " + tag + " twice");
            }
            if (!(member instanceof JsonObject translation)) {
                throw ApiException.validation("translations." + tag, "translations." + tag + " must be an object"
                        + " with a message, and title, image, imageAlt or action when they differ from the"
                        + " notification's");
            }
            translations.put(tag, translation(translation, tag, null, maxMessageBytes, removed));
        });
        return requireWithin(translations, maxMessageBytes);
    }

    /** A translation's tag, canonical, or 400 naming {@code field}. */
    static String translationTag(String tag, String field) {
        return LanguageTag.parseStored(tag).orElseThrow(() -> notATag(field));
    }

    static ApiException notATag(String field) {
        return ApiException.validation(field, "a translation's tag must be a BCP 47 language tag of language, script,"
                + " region and variants (fr, pt-BR, zh-Hant-TW), at most " + LanguageTag.MAX_LENGTH + " characters");
    }

    /**
     * A translation's body applied to {@code current} (null: a new one), each member checked as the notification's
     * own is; a member the body leaves out keeps the current value. The message's removals are added to
     * {@code removed}, named {@code translations.<tag>.message}.
     */
    static Translation translation(JsonObject body, String tag, Translation current, int maxMessageBytes,
                                   List<JsonObject> removed) {
        String at = "translations." + tag;
        TRANSLATION_FIELDS.at(at).requireKnown(body);
        String messageField = at + ".message";
        String message = current == null ? null : current.message();
        if (body.containsKey("message")) {
            Content content = body.get("message") == JsonValue.NULL ? null
                    : message(body.get("message"), maxMessageBytes, messageField);
            message = content == null ? null : content.message();
            if (content != null) {
                content.removed().forEach(removal -> removed.add(removal.json(messageField)));
            }
        }
        return new Translation(
                body.containsKey("title")
                        ? nullableField(body, "title", at + ".title", text -> title(text, at + ".title"))
                        : current == null ? null : current.title(),
                message,
                body.containsKey("image")
                        ? nullableField(body, "image", at + ".image", url -> HttpUrls.require(url, at + ".image"))
                        : current == null ? null : current.image(),
                body.containsKey("imageAlt")
                        ? nullableField(body, "imageAlt", at + ".imageAlt", text -> imageAlt(text, at + ".imageAlt"))
                        : current == null ? null : current.imageAlt(),
                !body.containsKey("action") ? current == null ? null : current.action()
                        : body.get("action") == JsonValue.NULL ? null : action(body.get("action"), at + ".action"));
    }

    /**
     * At most {@value Translations#MAX} translations, and at most {@link Translations#MAX_MESSAGE_BYTES_MULTIPLE}
     * times {@code limits.message-bytes} as stored: what a notification's answers and versions may hold stays bounded.
     */
    static SortedMap<String, Translation> requireWithin(SortedMap<String, Translation> translations,
                                                        int maxMessageBytes) {
        if (translations.size() > Translations.MAX) {
            throw tooManyTranslations();
        }
        long most = (long) maxMessageBytes * Translations.MAX_MESSAGE_BYTES_MULTIPLE;
        String stored = Translations.stored(Translations.of(translations));
        int bytes = stored == null ? 0 : stored.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > most) {
            throw ApiException.validation("translations", String.format(
                    Locale.ROOT, "translations are too long: %,d bytes as stored, more than the %,d allowed (%d times"
                            + " limits.message-bytes)", bytes, most, Translations.MAX_MESSAGE_BYTES_MULTIPLE));
        }
        return Translations.of(translations);
    }

    private static ApiException tooManyTranslations() {
        return ApiException.validation("translations", "a notification has at most " + Translations.MAX
                + " translations");
    }

    /**
     * The notification with these translations instead of its own, as a PATCH of them would write it, and the one in
     * {@code reviewed} (if not null) marked up to date with the notification's text.
     */
    static Applied withTranslations(Notification current, SortedMap<String, Translation> translations, long now,
                                    List<JsonObject> removed, int maxMessageBytes, String reviewed) {
        Notification changed = withTranslations(current, requireWithin(translations, maxMessageBytes), now);
        requireLanguages(changed, true);
        return new Applied(withTranslations(changed, Translations.based(current, changed, reviewed), now),
                           List.copyOf(removed));
    }

    /** A version restored as {@code applied}: each translation the restore changes is to be read again. */
    static Applied restored(Notification current, Applied applied) {
        Notification restored = applied.notification();
        return new Applied(withTranslations(restored, Translations.restored(current, restored), restored.updatedAt()),
                           applied.removed());
    }

    private static Notification withTranslations(Notification current, SortedMap<String, Translation> translations,
                                                 long now) {
        return new Notification(
                current.id(), current.projectId(), current.status(), current.title(), current.message(),
                current.image(), current.imageAlt(), current.action(), current.preset(), current.startAt(),
                current.endAt(), current.createdAt(), now, current.audience(), current.locale(), translations,
                current.projectLocale());
    }

    /**
     * What a notification's languages must be whatever its status, a draft of changes included: no translation in
     * its own language, and none that shows nothing ({@code checked}, as for its own message).
     */
    static void requireLanguages(Notification notification, boolean checked) {
        String own = notification.effectiveLocale();
        if (notification.translations().containsKey(own)) {
            throw ApiException.validation("translations." + own, "translations." + own + " is in the notification's"
                    + " own language (" + own + "): change the notification's own text, or its locale");
        }
        if (!checked) {
            return;
        }
        notification.translations().forEach((tag, translation) -> {
            if (translation.message() != null && translation.over(notification).image() == null
                && !VisibleContent.shows(translation.message())) {
                throw nothingToShow("translations." + tag + ".message");
            }
        });
    }

    /**
     * Of a write that makes or keeps the notification published: every translation has a message. A draft of
     * changes may hold one still being written; publishing it is checked.
     */
    static void requirePublishable(Notification notification) {
        if (notification.status() != NotificationStatus.PUBLISHED) {
            return;
        }
        notification.translations().forEach((tag, translation) -> {
            if (translation.message() == null) {
                throw ApiException.validation("translations." + tag + ".message", "translations." + tag
                        + " has no message: a published notification's every translation has one");
            }
        });
    }

    /**
     * A body's fields once checked; a member the body does not carry keeps the notification's value.
     *
     * @param body the body, for which members it carries (image, startDate and endDate may be null)
     */
    record Patch(JsonObject body, Content content, NotificationStatus status, String title, String image,
                 String imageAlt, Action action, String preset, Long startAt, Long endAt, Audience audience,
                 String locale, SortedMap<String, Translation> translations, List<JsonObject> removed) {

        /**
         * The body as a draft keeps it: a string message in the content allow-list's form, as a PATCH would store
         * it, so that what a draft shows is what publishing it gives.
         */
        JsonObject asStored() {
            var stored = Json.builders().createObjectBuilder(body);
            if (content != null && !(body.get("message") instanceof JsonObject)) {
                stored.add("message", content.message());
            }
            if (locale != null) {
                stored.add("locale", locale);
            }
            if (translations != null) {
                stored.add("translations", Translations.json(translations));
            }
            return stored.build();
        }

        /** @throws ApiException 400 when the resulting end is before the resulting start */
        Applied applyTo(Notification current, long now) {
            Long start = body.containsKey("startDate") ? startAt : current.startAt();
            Long end = body.containsKey("endDate") ? endAt : current.endAt();
            if (start != null && end != null && end < start) {
                throw ApiException.validation("endDate", "endDate must not be before startDate");
            }
            Notification changed = new Notification(
                    current.id(), current.projectId(), status == null ? current.status() : status,
                    body.containsKey("title") ? title : current.title(),
                    content == null ? current.message() : content.message(),
                    body.containsKey("image") ? image : current.image(),
                    body.containsKey("imageAlt") ? imageAlt : current.imageAlt(),
                    action == null ? current.action() : action, preset == null ? current.preset() : preset,
                    start, end, current.createdAt(), now,
                    body.containsKey("audience") ? audience : current.audience(),
                    body.containsKey("locale") ? locale : current.locale(),
                    translations == null ? current.translations() : translations, current.projectLocale());
            // Checked when the body changes what is shown, or publishes: a row stored before the rule (or past the
            // API) is not published blank either.
            boolean checked = content != null || body.containsKey("image") || status == NotificationStatus.PUBLISHED;
            if (checked && changed.image() == null && changed.message() != null
                && !VisibleContent.shows(changed.message())) {
                throw nothingToShow("message");
            }
            requireLanguages(changed, checked || translations != null);
            return new Applied(withTranslations(changed, Translations.based(current, changed, null), now), removed);
        }
    }

    /**
     * @param removed what of the messages the content allow-list did not keep, for the answer to show, each naming
     *                its message ({@code message}, {@code translations.fr.message})
     */
    record Applied(Notification notification, List<JsonObject> removed) {
    }

    record Content(String message, List<ContentRemoval> removed) {
    }

    /**
     * A string message as stored ({@link MessageContent#written}), or a rich-text document stored as its JSON
     * serialization, and what of it did not pass.
     */
    private static Content message(JsonValue value, int maxBytes, String field) {
        if (value instanceof JsonObject document) {
            RichTextDocuments.require(document, field);
            Content content = new Content(Json.write(document), List.of());
            requireSize(content.message(), maxBytes, "", field);
            return content;
        }
        if (!(value instanceof JsonString text)) {
            throw ApiException.validation(field, field + " must be a non-empty string or a rich-text object");
        }
        requireSize(text.getString(), maxBytes, "", field);
        MessageContent.Written written = MessageContent.written(text.getString());
        if (written.message().isBlank()) {
            throw ApiException.validation(field, field + " is empty once what the content allow-list does not keep"
                    + " is removed (docs/api.md#message-content)");
        }
        // Quoting attributes and closing elements can make HTML longer than it was sent.
        requireSize(written.message(), maxBytes, " once in the content allow-list's form (every element closed, every"
                + " attribute quoted)", field);
        return new Content(written.message(), written.removed());
    }

    /**
     * No text and no image, in the message or beside it ({@code image}): a blank item the widget counts unread.
     * Refused at any status: a draft that shows nothing is no announcement either, and one rule is simpler to state
     * than two (docs/api.md#message-content).
     */
    private static ApiException nothingToShow(String field) {
        return ApiException.validation(field, field + " shows nothing: no text and no image once what the content"
                + " allow-list does not keep is removed (docs/api.md#message-content)");
    }

    /** @param as how the message was measured, when not as sent */
    private static void requireSize(String message, int maxBytes, String as, String field) {
        if (message.isBlank()) {
            throw ApiException.validation(field, field + " must not be empty or blank");
        }
        // Bytes, not characters: memory, the database and the feed pay UTF-8 bytes, and an emoji is 4 of them.
        int bytes = message.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw ApiException.validation(field, String.format(
                    Locale.ROOT, "%s is too long%s: %,d bytes in UTF-8, more than the %,d allowed"
                            + " (limits.message-bytes)", field, as, bytes, maxBytes));
        }
    }

    /** The {@code ?status=} of a list. */
    static NotificationStatus status(String name) {
        if (!STATUSES.contains(name)) {
            throw AdminRequests.notOneOf("status", STATUSES);
        }
        return NotificationStatus.valueOf(name);
    }

    /**
     * A heading: one line of plain text, at most {@value #MAX_TITLE_LENGTH} characters once stripped; a blank one is
     * no title (null), as the console's empty field sends it. Markup is not read: the widget shows it as text.
     */
    private static String title(String title, String field) {
        return oneLine(title, MAX_TITLE_LENGTH, field);
    }

    /**
     * An image's description: one line of plain text, at most {@value #MAX_IMAGE_ALT_LENGTH} characters once
     * stripped; a blank one is none (the image is then shown as decoration, which screen readers pass over).
     */
    private static String imageAlt(String text, String field) {
        return oneLine(text, MAX_IMAGE_ALT_LENGTH, field);
    }

    private static String oneLine(String text, int maxLength, String field) {
        String stripped = text.strip();
        if (stripped.isEmpty()) {
            return null;
        }
        // U+2028 and U+2029 too: Unicode's line and paragraph separators break a line wherever text is laid out.
        if (stripped.indexOf('\n') >= 0 || stripped.indexOf('\r') >= 0 || stripped.indexOf('\t') >= 0
            || stripped.indexOf('\u2028') >= 0 || stripped.indexOf('\u2029') >= 0) {
            throw ApiException.validation(field, field + " must be one line: no line break or tab");
        }
        return TextLength.requireAtMost(stripped, maxLength, field);
    }

    private static String preset(String preset) {
        if (!PRESET.matcher(preset).matches()) {
            throw ApiException.validation("preset", "preset must be 1 to 64 letters, digits, _ or -");
        }
        return preset;
    }

    /** @param at the member's path in the request: {@code action}, {@code translations.fr.action} */
    private static Action action(JsonValue value, String at) {
        if (!(value instanceof JsonObject action)) {
            throw ApiException.validation(at, at + " must be an object with a type");
        }
        ACTION_FIELDS.at(at).requireKnown(action);
        Action.Type type = AdminRequests.optionalChoice(action.get("type"), at + ".type", ACTION_TYPES)
                .map(Action.Type::valueOf)
                .orElseThrow(() -> ApiException.validation(at + ".type", at + ".type is required, one of "
                        + String.join(", ", ACTION_TYPES), ACTION_TYPES));
        JsonValue data = action.getOrDefault("data", JsonValue.NULL);
        String dataField = at + ".data";
        if (type != Action.Type.LINK) {
            if (data != JsonValue.NULL) {
                throw ApiException.validation(dataField, dataField + " must be null unless the type is LINK");
            }
            return new Action(type, null, null);
        }
        if (!(data instanceof JsonObject link)) {
            throw ApiException.validation(dataField, "a LINK action needs data with url and target");
        }
        LINK_FIELDS.at(dataField).requireKnown(link);
        String urlField = dataField + ".url";
        String url = HttpUrls.require(AdminRequests.optionalString(link.get("url"), urlField).orElseThrow(
                () -> ApiException.validation(urlField, urlField + " is required")), urlField);
        String target = AdminRequests.optionalChoice(link.get("target"), dataField + ".target", TARGETS)
                .orElseThrow(() -> AdminRequests.notOneOf(dataField + ".target", TARGETS));
        return new Action(type, url, target, label(link.get("label"), dataField + ".label"));
    }

    /**
     * A button's text: one line (no control character, not even the tab and line feed a message may hold), not blank,
     * at most {@link Action#MAX_LABEL_CHARACTERS} characters. Absent or null: none, the client says its own.
     */
    private static String label(JsonValue value, String field) {
        if (value == JsonValue.NULL) {
            return null;
        }
        return AdminRequests.optionalString(value, field).map(label -> {
            if (label.isBlank()) {
                throw ApiException.validation(field, field + " must not be empty or blank: leave it out for the"
                        + " client's own text");
            }
            if (label.chars().anyMatch(NotificationChanges::breaksALine)) {
                throw ApiException.validation(field, field + " must be one line: no tab, line break or other control"
                        + " character");
            }
            return TextLength.requireAtMost(label, Action.MAX_LABEL_CHARACTERS, field);
        }).orElse(null);
    }

    private static boolean breaksALine(int c) {
        int type = Character.getType(c);
        return type == Character.CONTROL || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }

    /** Absent or null: null (the body says which). A string: parsed. */
    private static <T> T nullableField(JsonObject body, String field, Function<String, T> parse) {
        return nullableField(body, field, field, parse);
    }

    /** @param at the member's path in the request ({@code translations.fr.title}), as a refusal names it */
    private static <T> T nullableField(JsonObject body, String member, String at, Function<String, T> parse) {
        if (!body.containsKey(member) || body.get(member) == JsonValue.NULL) {
            return null;
        }
        return parse.apply(AdminRequests.optionalString(body.get(member), at).orElseThrow());
    }
}
