package dev.herald.notification;

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
 */
public record Translation(String title, String message, String image, String imageAlt, Action action) {

    /** This language's text as a reader is served it: the translation over the notification. */
    public Translation over(Notification notification) {
        return new Translation(title == null ? notification.title() : title, message,
                               image == null ? notification.image() : image,
                               image == null && imageAlt == null ? notification.imageAlt() : imageAlt,
                               action == null ? notification.action() : action);
    }
}
