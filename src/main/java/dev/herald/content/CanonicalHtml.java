package dev.herald.content;

import org.jsoup.nodes.Entities;

/**
 * How {@link HtmlMessages} writes text and attribute values: escaped where a browser would otherwise read markup or a
 * character reference, and nowhere else.
 */
final class CanonicalHtml {

    /** The longest name HTML reads without its semicolon ({@code &frac34}, {@code &middot}). */
    private static final int LONGEST_LEGACY_NAME = 6;

    private CanonicalHtml() {
    }

    /** {@code <} where a tag, an end tag, a comment or a declaration would start; {@code &} where a reference would. */
    static void text(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '<' && i + 1 < text.length() && startsMarkup(text.charAt(i + 1))) {
                out.append("&lt;");
            } else if (c == '&' && startsReference(text, i + 1)) {
                out.append("&amp;");
            } else {
                out.append(c);
            }
        }
    }

    /** {@code name="value"}, the value with {@code & " < >} escaped. */
    static void attribute(StringBuilder out, String name, String value) {
        out.append(' ').append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append(startsReference(value, i + 1) ? "&amp;" : "&");
                case '"' -> out.append("&quot;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    private static boolean startsMarkup(char next) {
        return next == '/' || next == '!' || next == '?' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z');
    }

    /**
     * Whether a browser would read a character reference after an {@code &}: a number, a name with its semicolon, or
     * one of the legacy names it reads even without one ({@code &copy2025} is {@code ©2025}).
     */
    private static boolean startsReference(String text, int from) {
        if (from < text.length() && text.charAt(from) == '#') {
            return true;
        }
        int end = from;
        while (end < text.length() && Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) < 128) {
            end++;
        }
        if (end == from) {
            return false;
        }
        if (end < text.length() && text.charAt(end) == ';' && Entities.isNamedEntity(text.substring(from, end))) {
            return true;
        }
        for (int length = 1; length <= Math.min(LONGEST_LEGACY_NAME, end - from); length++) {
            if (Entities.isBaseNamedEntity(text.substring(from, from + length))) {
                return true;
            }
        }
        return false;
    }
}
