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

    /**
     * {@code <} as {@code &lt;}, {@code &} as {@code &amp;}; {@code >} and everything else as itself, but control
     * characters ({@link #isControl}), which are left out.
     *
     * @return whether a control character was left out
     */
    static boolean text(StringBuilder out, String text) {
        boolean dropped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '&' -> out.append("&amp;");
                default -> {
                    if (isControl(c)) {
                        dropped = true;
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return dropped;
    }

    /**
     * A control character other than tab and line feed (C0, DEL, C1). The management API refuses them raw, and a
     * character reference ({@code &#27;}, {@code &#13;}) is one once parsed: stored, it was an escape sequence for a
     * terminal, a lone carriage return, and a form the API refused when sent back.
     */
    static boolean isControl(char c) {
        return Character.getType(c) == Character.CONTROL && c != '\t' && c != '\n';
    }

    /** {@code name="value"}, the value with {@code & " < >} escaped. */
    static boolean attribute(StringBuilder out, String name, String value) {
        out.append(' ').append(name).append("=\"");
        boolean dropped = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (isControl(c)) {
                dropped = true;
                continue;
            }
            switch (c) {
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                default -> out.append(c);
            }
        }
        out.append('"');
        return dropped;
    }
}
