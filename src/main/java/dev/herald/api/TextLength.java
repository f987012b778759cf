package dev.herald.api;

import java.util.Locale;

/**
 * The length of text as the person who wrote it counts: Unicode code points. {@code String.length()} counts UTF-16
 * units, in which an emoji (or any character outside the Basic Multilingual Plane) is two, so a limit of 200
 * characters would refuse a name of 101 emoji. Every character limit on text a client sends is checked here.
 * Byte limits (a message, tracking metadata) are another thing: they count what memory and the network pay.
 */
public final class TextLength {

    private TextLength() {
    }

    public static int of(String text) {
        return text.codePointCount(0, text.length());
    }

    /**
     * @param field the request field, as {@code details.field} names it when the text is refused
     * @return the text, unchanged
     */
    public static String requireAtMost(String text, int max, String field) {
        // No text has more code points than UTF-16 units: most never need counting.
        if (text.length() > max && of(text) > max) {
            throw ApiException.validation(field, String.format(
                    Locale.ROOT, "%s is too long: %,d characters, more than the %,d allowed", field, of(text), max));
        }
        return text;
    }

    /** At most {@code max} code points of {@code text}, the last of them an ellipsis when it was cut. */
    public static String cut(String text, int max) {
        if (text.length() <= max || of(text) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max - 1)) + "…";
    }
}
