package dev.herald.notification;

import java.util.Objects;

/**
 * A notification's text in one more language (docs/api.md#languages). What it leaves null, the notification's own
 * is used for: a translation may change the words and keep the picture.
 *
 * @param title    plain text, or null for the notification's own
 * @param message  as {@link Notification#message} is kept; null only while it is being written (not published)
 * @param image    an http(s) URL, or null for the notification's own
 * @param imageAlt the image it serves described: with the notification's image, null for the notification's own
 *                 description; with its own image, null for none (the notification's describes another picture)
 * @param action   its own action (a link to the page in its language), or null for the notification's own
 * @param basis    the notification's own text (its members a translation may replace) when this translation was
 *                 last written, as {@link Translations#basis} hashes it: the translation is out of date when that
 *                 has changed since; null when unknown (a translation as a request gives it, or one kept by a
 *                 version of Herald before out-of-date translations)
 */
public record Translation(String title, String message, String image, String imageAlt, Action action, String basis) {

    /** A translation as a request gives it: its basis is for the write to set. */
    public Translation(String title, String message, String image, String imageAlt, Action action) {
        this(title, message, image, imageAlt, action, null);
    }

    /** This language's text as a reader is served it: the translation over the notification. */
    public Translation over(Notification notification) {
        return new Translation(title == null ? notification.title() : title, message,
                               image == null ? notification.image() : image,
                               image == null && imageAlt == null ? notification.imageAlt() : imageAlt,
                               action == null ? notification.action() : action, basis);
    }

    /** The same title, message, image, description and action as {@code other}, whatever either's basis. */
    boolean sameAs(Translation other) {
        return Objects.equals(title, other.title) && Objects.equals(message, other.message)
               && Objects.equals(image, other.image) && Objects.equals(imageAlt, other.imageAlt)
               && Objects.equals(action, other.action);
    }

    Translation withBasis(String newBasis) {
        return new Translation(title, message, image, imageAlt, action, newBasis);
    }
}
