package dev.herald.notification;

/**
 * What a client does when the notification is used (docs/api.md#objects).
 *
 * @param url    for LINK: absolute http(s) URL; otherwise null
 * @param target for LINK: {@code _blank} or {@code _self}; otherwise null
 * @param label  for LINK: the button's text, 1 to {@value #MAX_LABEL_CHARACTERS} characters, or null for the
 *               client's own (the widget's {@code action-text}); otherwise null
 */
public record Action(Type type, String url, String target, String label) {

    public static final Action NONE = new Action(Type.NO_ACTION, null, null);
    /** A button's text, on one line of a 360 px panel (about two lines at 60). */
    public static final int MAX_LABEL_CHARACTERS = 60;

    /** An action without a label of its own. */
    public Action(Type type, String url, String target) {
        this(type, url, target, null);
    }

    public enum Type {
        NO_ACTION,
        LINK,
        CLOSE
    }
}
