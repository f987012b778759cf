package dev.herald.notification;

import java.util.SortedMap;

import dev.herald.audience.Audience;
import dev.herald.project.Project;

/**
 * A notification as stored. Instants are epoch milliseconds; null start or end means open-ended.
 *
 * @param title         plain text, the widget's heading for it; null when it has none
 * @param message       the rich-text document (or plain text) exactly as it is served: a string
 * @param imageAlt      the image described for those who cannot see it (its alt text); null when none is given
 * @param audience      who it is for; null: everyone, anonymous clients included
 * @param locale        the language of its own text, a canonical tag; null: its project's default
 * @param translations  its text in other languages, by canonical tag, in tag order (docs/api.md#languages)
 * @param projectLocale its project's default language as read with it, for {@link #effectiveLocale}
 */
public record Notification(String id,
                           String projectId,
                           NotificationStatus status,
                           String title,
                           String message,
                           String image,
                           String imageAlt,
                           Action action,
                           String preset,
                           Long startAt,
                           Long endAt,
                           long createdAt,
                           long updatedAt,
                           Audience audience,
                           String locale,
                           SortedMap<String, Translation> translations,
                           String projectLocale) {

    public Notification {
        translations = Translations.of(translations);
        projectLocale = projectLocale == null ? Project.DEFAULT_LOCALE : projectLocale;
    }

    /** In its project's default language, without translations: what every notification was before languages. */
    public Notification(String id, String projectId, NotificationStatus status, String title, String message,
                        String image, Action action, String preset, Long startAt, Long endAt, long createdAt,
                        long updatedAt, Audience audience) {
        this(id, projectId, status, title, message, image, null, action, preset, startAt, endAt, createdAt, updatedAt,
             audience, null, Translations.NONE, null);
    }

    /** For everyone: what every notification was before audiences, and what most still are. */
    public Notification(String id, String projectId, NotificationStatus status, String title, String message,
                        String image, Action action, String preset, Long startAt, Long endAt, long createdAt,
                        long updatedAt) {
        this(id, projectId, status, title, message, image, action, preset, startAt, endAt, createdAt, updatedAt, null);
    }

    /** The language of its own text: its own, or its project's default. */
    public String effectiveLocale() {
        return locale == null ? projectLocale : locale;
    }

    /** The same notification as its project's default language is now. */
    Notification inProjectLocale(String defaultLocale) {
        return new Notification(id, projectId, status, title, message, image, imageAlt, action, preset, startAt, endAt,
                                createdAt, updatedAt, audience, locale, translations, defaultLocale);
    }
}
