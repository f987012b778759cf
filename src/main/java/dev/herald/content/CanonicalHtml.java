package dev.herald.content;

/**
 * How {@link HtmlMessages} writes text and attribute values: every {@code <} and {@code &} as a reference, so that no
 * character of one text node can start markup or a reference with what follows it. Escaping only where the node's
 * own next character would (issue 29) let a {@code <} at a node's end meet the {@code !} or letter of the text
 * after a removed comment, and be a tag one reading later.
 */
final class CanonicalHtml {

    private CanonicalHtml() {
    }

    /** {@code <} as {@code &lt;}, {@code &} as {@code &amp;}; {@code >} and everything else as itself. */
    static void text(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '&' -> out.append("&amp;");
                default -> out.append(c);
            }
        }
    }

    /** {@code name="value"}, the value with {@code & " < >} escaped. */
    static void attribute(StringBuilder out, String name, String value) {
        out.append(' ').append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        out.append('"');
    }
}
