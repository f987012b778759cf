package dev.herald.notification;

/**
 * What a client does when the notification is used (docs/api.md#objects).
 *
 * @param url    for LINK: absolute http(s) URL; otherwise null
 * @param target for LINK: {@code _blank} or {@code _self}; otherwise null
 */
public record Action(Type type, String url, String target) {

    public static final Action NONE = new Action(Type.NO_ACTION, null, null);

    public enum Type {
        NO_ACTION,
        LINK,
        CLOSE
    }
}
