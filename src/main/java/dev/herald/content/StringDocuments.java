package dev.herald.content;

/**
 * Where a string message holds a rich-text document as lenient parsers read it. Clients read a string message with
 * parsers more lenient than JSON.parse: Gson's lenient reader skips comments and reads the first value of several,
 * Java's strip() and Kotlin's trim() remove control characters, others a zero-width space. So past what any of them
 * skips at the start (white space of every kind, control and format characters, comments), a string that begins
 * with {@code {}, or with {@code [} and then {@code {} or {@code [}, is a document to one of them.
 */
public final class StringDocuments {

    private StringDocuments() {
    }

    /** Where a document would begin, or -1 when the string is text to every such parser. */
    public static int documentStart(String message) {
        int start = skipIgnorable(message, 0);
        if (start == message.length()) {
            return -1;
        }
        char first = message.charAt(start);
        if (first == '{') {
            return start;
        }
        if (first == '[') {
            int next = skipIgnorable(message, start + 1);
            if (next < message.length() && (message.charAt(next) == '{' || message.charAt(next) == '[')) {
                return start;
            }
        }
        return -1;
    }

    /**
     * Where the parsers above would go on from {@code from}: past white space of every kind, control and format
     * characters (U+0000, U+001C, U+0085, U+200B, U+2060, U+FEFF…), and comments, block or line.
     */
    public static int skipIgnorable(String text, int from) {
        int i = from;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            int type = Character.getType(c);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || type == Character.CONTROL
                    || type == Character.FORMAT) {
                i += Character.charCount(c);
            } else if (text.startsWith("/*", i)) {
                int close = text.indexOf("*/", i + 2);
                i = close < 0 ? text.length() : close + 2;
            } else if (text.startsWith("//", i)) {
                while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
                    i++;
                }
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * The index just after the JSON object or array that starts at {@code start}, or -1 if its brackets never
     * close.
     */
    public static int endOfValue(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    /** Whether only what the parsers skip follows {@code end}, where a value ends ({@link #endOfValue}; -1: never). */
    public static boolean isLast(String message, int end) {
        return end > 0 && skipIgnorable(message, end) == message.length();
    }
}
