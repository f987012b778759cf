package dev.herald.feed;

import java.util.Map;

import dev.herald.locale.LanguageTag;
import dev.herald.notification.Action;

/**
 * One notification as the public feed serves it, in its own language, with its translations.
 *
 * @param title        null when the notification has none: the answer then leaves the member out
 * @param imageAlt     the image described; served only with an image, and left out when null, as the title
 * @param sequence     creation order: breaks ties between equal sort keys, newer first
 * @param locale       its own language (its {@code locale}, else the project's default); null where languages are
 *                     not known (an entry then has no {@code locale} member in any answer)
 * @param translations its servable translations by canonical tag ({@link FeedTranslation#parse})
 */
record FeedEntry(String id,
                 String title,
                 String message,
                 String image,
                 String imageAlt,
                 Action action,
                 String preset,
                 Long startAt,
                 Long endAt,
                 long createdAt,
                 long sequence,
                 String locale,
                 Map<String, FeedTranslation> translations) {

    /** An entry whose languages are not known: served as it is in every answer. */
    FeedEntry(String id, String title, String message, String image, String imageAlt, Action action, String preset,
              Long startAt, Long endAt, long createdAt, long sequence) {
        this(id, title, message, image, imageAlt, action, preset, startAt, endAt, createdAt, sequence, null, Map.of());
    }

    /**
     * The language it is served in to a reader served {@code served} (docs/api.md#languages): RFC 4647 lookup of
     * {@code served} among its own language and its translations', else its own.
     */
    String languageFor(String served) {
        if (locale == null || served == null || served.equals(locale)) {
            return locale;
        }
        for (String tag = served; tag != null; tag = LanguageTag.truncate(tag)) {
            if (tag.equals(locale) || translations.containsKey(tag)) {
                return tag;
            }
        }
        return locale;
    }

    /** The entry as served in {@code language}, one of its own: a translation's text over its own where it has one. */
    FeedEntry in(String language) {
        FeedTranslation translation = language == null ? null : translations.get(language);
        if (translation == null) {
            return this;
        }
        return new FeedEntry(id,
                             translation.title() == null ? title : translation.title(),
                             translation.message(),
                             translation.image() == null ? image : translation.image(),
                             translation.image() == null && translation.imageAlt() == null ? imageAlt
                                     : translation.imageAlt(),
                             translation.action() == null ? action : translation.action(),
                             preset, startAt, endAt, createdAt, sequence, language, Map.of());
    }
}
