package dev.herald.config;

/**
 * A setting Herald cannot start with. Its message is the whole of what the operator reads: it names the setting,
 * what it holds and what it should hold.
 */
public final class BadSetting extends IllegalArgumentException {

    public BadSetting(String message) {
        super(message);
    }
}
