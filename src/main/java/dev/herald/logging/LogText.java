package dev.herald.logging;

/**
 * What a client sent, made safe for one log line: control characters (an escape sequence would recolour or rewrite
 * an operator's terminal; a line break would forge a log line) are written as {@code \xNN}, and the text is cut
 * at a length that keeps one request to one short line: {@value #MAX_CHARS} characters at most, an ellipsis included.
 */
public final class LogText {

    static final int MAX_CHARS = 200;

    private LogText() {
    }

    public static String of(String fromClient) {
        if (isPlainAndShort(fromClient)) {
            return fromClient;
        }
        StringBuilder safe = new StringBuilder(Math.min(fromClient.length(), MAX_CHARS) + 16);
        for (int i = 0; i < fromClient.length() && safe.length() < MAX_CHARS; i++) {
            char c = fromClient.charAt(i);
            if (isControl(c)) {
                safe.append(String.format("\\x%02x", (int) c));
            } else {
                safe.append(c);
            }
        }
        if (safe.length() >= MAX_CHARS) {
            // MAX_CHARS in all, the "..." included: what an attempt's detail promises (docs/webhooks.md).
            int end = MAX_CHARS - 3;
            safe.setLength(Character.isLowSurrogate(safe.charAt(end)) ? end - 1 : end);
            safe.append("...");
        }
        return safe.toString();
    }

    /**
     * Text of any length on one line: a line break becomes a space (H2 puts the statement on a line of its own in its
     * messages), any other control character {@code \xNN}. For a cause's message, which may quote what a client sent
     * (MariaDB's "Duplicate entry" names the value) and could otherwise forge a log line.
     */
    public static String oneLine(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder line = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isControl(c)) {
                if (line != null) {
                    line.append(c);
                }
                continue;
            }
            if (line == null) {
                line = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029') {
                if (line.isEmpty() || line.charAt(line.length() - 1) != ' ') {
                    line.append(' ');
                }
            } else {
                line.append(String.format("\\x%02x", (int) c));
            }
        }
        return line == null ? text : line.toString();
    }

    private static boolean isPlainAndShort(String text) {
        if (text.length() > MAX_CHARS) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** C0, DEL and C1, and the Unicode line and paragraph separators. */
    private static boolean isControl(char c) {
        return c < 0x20 || c >= 0x7f && c <= 0x9f || c == '\u2028' || c == '\u2029';
    }
}
