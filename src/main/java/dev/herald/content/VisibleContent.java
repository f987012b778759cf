package dev.herald.content;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * Whether a stored message shows anything: a character that is not white space or a format character (U+200B, a
 * BOM), an image (an HTML {@code <img>} or a rich-text {@code image} node), or a rich-text node of a type Herald does
 * not know, which the client renders as it will. A message without either is a blank
 * item in the widget that still counts as unread.
 */
public final class VisibleContent {

    private VisibleContent() {
    }

    /** @param message a message in the form the management API stores ({@link MessageContent#written}) */
    public static boolean shows(String message) {
        int start = StringDocuments.documentStart(message);
        if (start >= 0) {
            return Json.parseObject(message.substring(start).getBytes(StandardCharsets.UTF_8))
                    .map(VisibleContent::shows)
                    .orElse(hasVisibleCharacter(message));
        }
        if (message.indexOf('<') < 0 && message.indexOf('&') < 0) {
            return hasVisibleCharacter(message);
        }
        Element body = Jsoup.parseBodyFragment(message).body();
        return hasVisibleCharacter(body.wholeText()) || !body.select("img[src]").isEmpty();
    }

    /** Walked without recursion: a document's depth is the sender's choice. */
    public static boolean shows(JsonObject document) {
        Deque<JsonValue> nodes = new ArrayDeque<>();
        nodes.push(document);
        while (!nodes.isEmpty()) {
            if (!(nodes.pop() instanceof JsonObject node)) {
                continue;
            }
            String type = node.get("type") instanceof JsonString name ? name.getString() : "";
            if (!RichTextSchema.NODES.containsKey(type) && node != document) {
                // A type Herald does not know (a mention, a chart) is the client's own to render: it may show.
                return true;
            }
            if (type.equals("image") && node.get("attrs") instanceof JsonObject attrs
                && attrs.get("src") instanceof JsonString src && !src.getString().isBlank()) {
                return true;
            }
            if (type.equals("text") && node.get("text") instanceof JsonString text
                && hasVisibleCharacter(text.getString())) {
                return true;
            }
            if (node.get("content") instanceof JsonArray children) {
                children.forEach(nodes::push);
            }
        }
        return false;
    }

    private static boolean hasVisibleCharacter(String text) {
        return text.codePoints().anyMatch(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                && Character.getType(c) != Character.FORMAT && !Character.isISOControl(c));
    }
}
