package dev.herald.content;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import org.jsoup.Jsoup;

/**
 * The words of a stored message as a reader sees them, for the audit log's differences and labels: a rich-text
 * document's text (a space between blocks), an HTML message's text, or the text. The console reads a message the
 * same way (console.js, plainText): the JSON of a document is no one's words.
 */
public final class MessageText {

    private static final Set<String> BLOCKS = Set.of("paragraph", "heading", "listItem", "list_item", "blockquote",
                                                     "codeBlock", "code_block", "hardBreak", "hard_break");
    /**
     * Where a text node's text begins in a document that cannot be read whole (its beginning only, for a label). Its
     * end is found by {@link #stringEnd}: a pattern for the whole string recursed once a character and overflowed the
     * launcher's 512 KiB stack on a long text (the audit log answered 500 after every start until the JIT came).
     */
    private static final Pattern TEXT_NODE = Pattern.compile("\"text\"\\s*:\\s*\"");

    private MessageText() {
    }

    /** @param message a message in the form the management API stores ({@link MessageContent#written}) */
    public static String of(String message) {
        int start = StringDocuments.documentStart(message);
        if (start >= 0) {
            return Json.parseObject(message.substring(start).getBytes(StandardCharsets.UTF_8))
                    .map(MessageText::ofDocument)
                    .orElseGet(() -> textNodes(message));
        }
        if (message.indexOf('<') < 0 && message.indexOf('&') < 0) {
            return message;
        }
        return Jsoup.parseBodyFragment(message).body().text();
    }

    /**
     * At most {@code max} characters of the message's words, white space collapsed, cut after a whole word (mid-word
     * only for a word longer than half of them) with "…"; the beginning of a message is enough.
     */
    public static String excerpt(String message, int max) {
        String words = of(message).replaceAll("\\s+", " ").strip();
        if (words.length() <= max) {
            return words;
        }
        int space = words.lastIndexOf(' ', max - 1);
        return words.substring(0, space > max / 2 ? space : max - 1) + "…";
    }

    /** Walked without recursion, in document order: a document's depth is the sender's choice. */
    private static String ofDocument(JsonObject document) {
        StringBuilder words = new StringBuilder();
        Deque<Object> nodes = new ArrayDeque<>();
        nodes.push(document);
        while (!nodes.isEmpty()) {
            Object next = nodes.pop();
            if (next == BLOCK_END) {
                words.append(' ');
                continue;
            }
            if (!(next instanceof JsonObject node)) {
                continue;
            }
            String type = node.get("type") instanceof JsonString name ? name.getString() : "";
            if (type.equals("text") && node.get("text") instanceof JsonString text) {
                words.append(text.getString());
            }
            if (BLOCKS.contains(type)) {
                nodes.push(BLOCK_END);
            }
            if (node.get("content") instanceof JsonArray children) {
                for (int i = children.size() - 1; i >= 0; i--) {
                    nodes.push(children.get(i));
                }
            }
        }
        return words.toString().strip();
    }

    /** Marks the end of a block in the walk above. */
    private static final Object BLOCK_END = new Object();

    /** The text nodes of a document cut short (a label's beginning of a long one), a space between each. */
    private static String textNodes(String message) {
        StringBuilder words = new StringBuilder();
        Matcher text = TEXT_NODE.matcher(message);
        int from = 0;
        while (from < message.length() && text.find(from)) {
            int end = stringEnd(message, text.end());
            words.append(unescaped(message.substring(text.end(), end))).append(' ');
            from = end + 1;
        }
        return words.toString().strip();
    }

    /**
     * Where the JSON string whose content starts at {@code start} ends: at its closing quote, else (the last one, cut)
     * at the message's end, a lone backslash there left out.
     */
    private static int stringEnd(String message, int start) {
        int i = start;
        while (i < message.length()) {
            char c = message.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\' && i + 1 == message.length()) {
                return i;
            }
            i += c == '\\' ? 2 : 1;
        }
        return message.length();
    }

    /** A JSON string's content as written between its quotes, read (a broken escape is kept as it is). */
    private static String unescaped(String escaped) {
        StringBuilder text = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c != '\\' || i + 1 == escaped.length()) {
                text.append(c);
                continue;
            }
            char escape = escaped.charAt(++i);
            switch (escape) {
                case 'n', 'r', 't', 'b', 'f' -> text.append(' ');
                case 'u' -> {
                    if (i + 4 < escaped.length() && escaped.substring(i + 1, i + 5).matches("[0-9a-fA-F]{4}")) {
                        text.append((char) Integer.parseInt(escaped.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        text.append("\\u");
                    }
                }
                default -> text.append(escape);
            }
        }
        return text.toString();
    }
}
