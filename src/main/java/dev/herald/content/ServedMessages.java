package dev.herald.content;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link MessageContent#served} remembered: the feed reads the same messages again after every change to a project
 * (and on every request with the cache off), and parsing each again cost 5 µs for a rich-text document and 16 µs for
 * HTML, where looking it up here costs a hash and a comparison. Bounded by the characters it holds: past
 * {@link #MAX_CHARACTERS} it starts again empty, which costs a parse per message once, and no more memory.
 */
public final class ServedMessages {

    /** Some 2 MiB of Latin-1 text, 4 of other (Java stores a String in one or two bytes a character). */
    static final long MAX_CHARACTERS = 2L * 1024 * 1024;

    private static final ConcurrentHashMap<String, String> SERVED = new ConcurrentHashMap<>();
    private static final AtomicLong CHARACTERS = new AtomicLong();

    private ServedMessages() {
    }

    /** @return as {@link MessageContent#served}: {@code stored} itself, equal if not the same, when in form */
    public static String served(String stored) {
        String served = SERVED.get(stored);
        if (served != null) {
            return served.equals(stored) ? stored : served;
        }
        served = MessageContent.served(stored);
        long held = stored.length() + (served == stored ? 0 : served.length());
        if (CHARACTERS.addAndGet(held) > MAX_CHARACTERS) {
            SERVED.clear();
            CHARACTERS.set(held);
        }
        SERVED.put(stored, served);
        return served;
    }

    /** The characters held now, for tests. */
    static long characters() {
        return SERVED.entrySet().stream()
                .mapToLong(e -> e.getKey().length() + (e.getValue() == e.getKey() ? 0 : e.getValue().length())).sum();
    }
}
