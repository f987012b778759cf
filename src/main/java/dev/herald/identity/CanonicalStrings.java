package dev.herald.identity;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One instance of each short string that many verified tokens repeat (attribute names, values such as {@code "pro"}
 * or {@code "DE"}, locales), so that the verified-token cache holds each once, not once per user. Bounded: past
 * {@link #MOST} strings, or for a string longer than {@link #LONGEST} characters, a string is kept as it is. Only
 * strings of tokens that verified get here, so a client cannot fill it with made-up ones.
 */
final class CanonicalStrings {

    static final int MOST = 4096;
    static final int LONGEST = 64;

    private final Map<String, String> strings = new ConcurrentHashMap<>();

    String of(String string) {
        if (string == null || string.length() > LONGEST) {
            return string;
        }
        String known = strings.get(string);
        if (known != null) {
            return known;
        }
        if (strings.size() >= MOST) {
            return string;
        }
        known = strings.putIfAbsent(string, string);
        return known == null ? string : known;
    }
}
