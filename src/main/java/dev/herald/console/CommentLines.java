package dev.herald.console;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * The console's own scripts and style sheet as the browser gets them: each line that holds a comment and nothing
 * else sent empty. Their comments say why the code is as it is, for whoever changes it; a browser has no use for them,
 * and they were a fifth of the console's own bytes gzipped, which its budget counts (docs/console.md). Lines are
 * emptied, never removed, so a line number in the browser's console is the source's; nothing else changes, so no
 * build step is needed and the source is what is tested.
 *
 * <p>Only whole lines: a {@code //} comment that begins a line, or a block comment that begins a line and ends one,
 * each outside any string, template literal or regular expression, as a scan of the whole file finds them. A file
 * whose scan does not end outside all of those (a construct it misreads) is sent as it is.
 */
final class CommentLines {

    /** What the scan is inside of at a character: code, or one of the spans a comment line cannot begin in. */
    private enum Span { CODE, BLOCK_COMMENT, SINGLE_QUOTED, DOUBLE_QUOTED, TEMPLATE, REGEX, REGEX_CLASS }

    private CommentLines() {
    }

    /** A script's bytes (UTF-8) with its comment lines empty, or as they are when the scan cannot vouch for them. */
    static byte[] script(byte[] source) {
        return blanked(source, true);
    }

    /** A style sheet's: only block comments, CSS having no other. */
    static byte[] styleSheet(byte[] source) {
        return blanked(source, false);
    }

    private static byte[] blanked(byte[] source, boolean script) {
        String text = new String(source, StandardCharsets.UTF_8);
        String result = blanked(text, script);
        return result == null ? source : result.getBytes(StandardCharsets.UTF_8);
    }

    /** The text with its comment lines empty, or null when the scan ends inside a span. */
    static String blanked(String text, boolean script) {
        StringBuilder out = new StringBuilder(text.length());
        Scan scan = new Scan(script);
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            int next = end < 0 ? text.length() : end + 1;
            String line = text.substring(start, end < 0 ? text.length() : end);
            String trimmed = line.strip();
            boolean atCode = scan.span() == Span.CODE;
            if (atCode && script && trimmed.startsWith("//")) {
                scan.endOfLine();
            } else if (atCode && trimmed.startsWith("/*") && blockEnd(text, start) > 0) {
                // The block and the lines it spans, each sent empty.
                int last = blockEnd(text, start);
                out.append("\n".repeat((int) text.substring(start, last).chars().filter(c -> c == '\n').count()));
                start = last;
                continue;
            } else {
                scan.line(line);
                out.append(line);
            }
            if (end >= 0) {
                out.append('\n');
            }
            start = next;
        }
        return scan.balanced() ? out.toString() : null;
    }

    /**
     * Where the line that closes the block comment opened at the start of the line at {@code lineStart} ends (the
     * index of its newline, or the text's length); -1 when nothing closes it, or code follows its close.
     */
    private static int blockEnd(String text, int lineStart) {
        int close = text.indexOf("*/", text.indexOf("/*", lineStart) + 2);
        if (close < 0) {
            return -1;
        }
        int newline = text.indexOf('\n', close);
        int end = newline < 0 ? text.length() : newline;
        return text.substring(close + 2, end).isBlank() ? end : -1;
    }

    /**
     * A left-to-right scan of the code, enough to know at each line's start whether it is inside a block comment, a
     * template literal (which spans lines, and whose {@code ${…}} holds code, braces and templates of its own) or
     * nowhere. A {@code /} starts a regular expression where an operand is expected: after an operator, a bracket, a
     * comma, a semicolon, the start of the text or a keyword such as {@code return}; elsewhere it divides.
     */
    private static final class Scan {

        private final boolean script;
        private Span span = Span.CODE;
        /** For each template literal open around the scan: the depth of braces in its innermost {@code ${…}}. */
        private final Deque<int[]> templates = new ArrayDeque<>();
        /** The last character of code that was not white space, or 0 at the start. */
        private char lastSignificant;
        private final StringBuilder lastWord = new StringBuilder();

        Scan(boolean script) {
            this.script = script;
        }

        Span span() {
            return span;
        }

        /** Outside every span and template literal: the scan read the file as a whole. */
        boolean balanced() {
            return span == Span.CODE && templates.isEmpty();
        }

        void endOfLine() {
            line("");
        }

        void line(String line) {
            for (int i = 0; i < line.length(); i++) {
                i = character(line, i);
            }
            // Strings and regular expressions end with their line (a string's line continuation aside, which the
            // console's code does not use: the scan then ends inside a span and the file is sent as it is).
            if (span == Span.SINGLE_QUOTED || span == Span.DOUBLE_QUOTED || span == Span.REGEX
                    || span == Span.REGEX_CLASS) {
                if (!line.endsWith("\\")) {
                    span = Span.CODE;
                }
            }
        }

        /** Reads the character at {@code i}; returns the index of the last one it took. */
        private int character(String line, int i) {
            char c = line.charAt(i);
            char following = i + 1 < line.length() ? line.charAt(i + 1) : 0;
            switch (span) {
                case BLOCK_COMMENT -> {
                    if (c == '*' && following == '/') {
                        span = Span.CODE;
                        return i + 1;
                    }
                }
                case SINGLE_QUOTED, DOUBLE_QUOTED -> {
                    if (c == '\\') {
                        return i + 1;
                    }
                    if (c == (span == Span.SINGLE_QUOTED ? '\'' : '"')) {
                        span = Span.CODE;
                        lastSignificant = c;
                    }
                }
                case TEMPLATE -> {
                    if (c == '\\') {
                        return i + 1;
                    }
                    if (c == '`') {
                        templates.pop();
                        span = Span.CODE;
                        lastSignificant = c;
                    } else if (c == '$' && following == '{') {
                        templates.peek()[0] = 1;
                        span = Span.CODE;
                        lastSignificant = '{';
                        return i + 1;
                    }
                }
                case REGEX -> {
                    if (c == '\\') {
                        return i + 1;
                    }
                    if (c == '[') {
                        span = Span.REGEX_CLASS;
                    } else if (c == '/') {
                        span = Span.CODE;
                        lastSignificant = 'a';
                    }
                }
                case REGEX_CLASS -> {
                    if (c == '\\') {
                        return i + 1;
                    }
                    if (c == ']') {
                        span = Span.REGEX;
                    }
                }
                case CODE -> {
                    return code(line, i, c, following);
                }
            }
            return i;
        }

        private int code(String line, int i, char c, char following) {
            if (Character.isWhitespace(c)) {
                return i;
            }
            if (c == '/' && following == '*') {
                span = Span.BLOCK_COMMENT;
                return i + 1;
            }
            if (script && c == '/' && following == '/') {
                return line.length();
            }
            boolean word = isWordCharacter(c);
            if (!word && c == '/' && script && operandExpected()) {
                span = Span.REGEX;
                return i;
            }
            if (!word) {
                lastWord.setLength(0);
            } else if (i == 0 || !isWordCharacter(line.charAt(i - 1))) {
                lastWord.setLength(0);
                lastWord.append(c);
            } else {
                lastWord.append(c);
            }
            switch (c) {
                case '\'' -> span = Span.SINGLE_QUOTED;
                case '"' -> span = Span.DOUBLE_QUOTED;
                case '`' -> {
                    if (script) {
                        templates.push(new int[] {0});
                        span = Span.TEMPLATE;
                    }
                }
                case '{' -> {
                    if (!templates.isEmpty() && templates.peek()[0] > 0) {
                        templates.peek()[0]++;
                    }
                }
                case '}' -> {
                    if (!templates.isEmpty() && templates.peek()[0] > 0 && --templates.peek()[0] == 0) {
                        span = Span.TEMPLATE;
                    }
                }
                default -> {
                }
            }
            lastSignificant = c;
            return i;
        }

        private static boolean isWordCharacter(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '$';
        }

        private static final Set<String> BEFORE_AN_OPERAND = Set.of(
                "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield",
                "await", "instanceof");

        private boolean operandExpected() {
            if (lastSignificant == 0 || "(,=:[!&|?{};+-*%<>~^".indexOf(lastSignificant) >= 0) {
                return true;
            }
            return !lastWord.isEmpty() && BEFORE_AN_OPERAND.contains(lastWord.toString());
        }
    }
}
