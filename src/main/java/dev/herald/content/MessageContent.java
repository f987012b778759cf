package dev.herald.content;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import dev.herald.api.Json;

import jakarta.json.JsonValue;

/**
 * A stored message as clients may be given it, whatever is in the database: rows written before the content rules
 * (migration 10 brings them into line) or past the management API. The feed serves only this form.
 *
 * <ul>
 *   <li>A rich-text document, alone in the string past what lenient parsers skip: the document alone, each URL,
 *       event handler or inline style that the management API would refuse set to null ({@link RichTextUrls}).</li>
 *   <li>Text without {@code <} or {@code &}: as it is.</li>
 *   <li>Anything else is HTML: its canonical form ({@link HtmlMessages}). If it still starts as a document would
 *       (text such as a document followed by more, which the API refuses now), that first bracket is written as a
 *       character reference: the same text to an HTML reader, and no document to any JSON parser.</li>
 * </ul>
 */
public final class MessageContent {

    private MessageContent() {
    }

    /** @return {@code stored} itself when it is in that form already */
    public static String served(String stored) {
        int start = StringDocuments.documentStart(stored);
        if (start >= 0) {
            Optional<String> document = document(stored, start);
            if (document.isPresent()) {
                return document.get();
            }
        } else if (stored.indexOf('<') < 0 && stored.indexOf('&') < 0) {
            return stored;
        }
        String html = HtmlMessages.clean(stored).html();
        int bracket = StringDocuments.documentStart(html);
        if (bracket >= 0) {
            html = html.substring(0, bracket) + (html.charAt(bracket) == '{' ? "&#123;" : "&#91;")
                    + html.substring(bracket + 1);
        }
        return html.equals(stored) ? stored : html;
    }

    /** The document that starts at {@code start}, alone and neutralised, when it is one JSON object and nothing else. */
    private static Optional<String> document(String stored, int start) {
        int end = StringDocuments.endOfValue(stored, start);
        if (stored.charAt(start) != '{' || !StringDocuments.isLast(stored, end)) {
            return Optional.empty();
        }
        String text = stored.substring(start, end);
        return Json.parseObject(text.getBytes(StandardCharsets.UTF_8)).map(document -> {
            JsonValue safe = RichTextUrls.neutralised(document);
            return safe == document ? (text.length() == stored.length() ? stored : text) : Json.write(safe);
        });
    }
}
