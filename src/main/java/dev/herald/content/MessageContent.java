package dev.herald.content;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * A string message as the management API stores it ({@link #written}), and a stored message as clients may be given
 * it, whatever is in the database ({@link #served}): rows written before the content rules (migration 10 brings them
 * into line) or past the management API. The feed serves only this form, and what the API stores is in it already.
 *
 * <ul>
 *   <li>A rich-text document, alone in the string past what lenient parsers skip: the document alone, without what
 *       the management API would refuse ({@link RichTextDocuments#served}).</li>
 *   <li>Text without {@code <} or {@code &}: as it is.</li>
 *   <li>Anything else is HTML: its canonical form ({@link HtmlMessages}). If it still starts as a document would
 *       (text such as a document followed by more, which the API refuses now), that first bracket is written as a
 *       character reference: the same text to an HTML reader, and no document to any JSON parser.</li>
 * </ul>
 */
public final class MessageContent {

    private MessageContent() {
    }

    /**
     * A string message sent to the management API, as it is stored. Each of D after an empty comment, after U+0000 or
     * U+200B, D followed by "x" or ";", and D in brackets was once stored unchecked, while a lenient parser read the
     * document D and its javascript: link ({@link StringDocuments}). So a string such a parser reads as a document must
     * be exactly one JSON object with nothing around it but what they skip; it is checked as a document and stored
     * alone. One that begins as an array of objects is refused (an array is not a message). Text without {@code <}
     * or {@code &} is kept as it is; other text is HTML, stored in the allow-list's form.
     *
     * @throws ApiException naming the field {@code message}, or the path of a refused member of a document
     */
    public static Written written(String message) {
        int start = StringDocuments.documentStart(message);
        if (start < 0) {
            if (message.indexOf('<') < 0 && message.indexOf('&') < 0) {
                return new Written(message, List.of());
            }
            HtmlMessages.Cleaned cleaned = HtmlMessages.clean(message);
            return new Written(notADocument(cleaned.html()), cleaned.removals());
        }
        if (message.charAt(start) == '[') {
            throw ApiException.validation("message", "message starts with a JSON array: send a rich-text document"
                    + " as an object, or text that does not start with [ followed by { or [");
        }
        Found found = document(message, start).orElseThrow(MessageContent::notOneDocument);
        RichTextDocuments.require(found.document(), "message");
        boolean onlyWhiteSpaceAround = message.strip().equals(found.text());
        return new Written(found.text(), onlyWhiteSpaceAround ? List.of()
                : List.of(new ContentRemoval(ContentRemoval.Reason.OUTSIDE_DOCUMENT, null, null, "", null)));
    }

    /** @param removed what the allow-list did not keep, in document order, at most {@link HtmlMessages#MAX_REMOVALS} */
    public record Written(String message, List<ContentRemoval> removed) {
    }

    /** @return {@code stored} itself when it is in that form already */
    public static String served(String stored) {
        int start = StringDocuments.documentStart(stored);
        if (start >= 0) {
            Optional<Found> found = document(stored, start);
            if (found.isPresent()) {
                JsonValue safe = RichTextDocuments.served(found.get().document());
                String text = found.get().text();
                return safe != found.get().document() ? Json.write(safe)
                        : text.length() == stored.length() ? stored : text;
            }
        } else if (stored.indexOf('<') < 0 && stored.indexOf('&') < 0) {
            return stored;
        }
        String html = notADocument(HtmlMessages.clean(stored).html());
        return html.equals(stored) ? stored : html;
    }

    /**
     * HTML whose text begins as a document would ({@code <!-- -->{…}}, once the comment is gone) with that bracket as
     * a character reference: the same text to an HTML reader, no document to a JSON parser.
     */
    private static String notADocument(String html) {
        int bracket = StringDocuments.documentStart(html);
        if (bracket < 0) {
            return html;
        }
        return html.substring(0, bracket) + (html.charAt(bracket) == '{' ? "&#123;" : "&#91;")
                + html.substring(bracket + 1);
    }

    private static ApiException notOneDocument() {
        return ApiException.validation("message", "message starts with { but is not one JSON document and nothing else"
                + " that this server can read: send a valid rich-text document, or text that does not start with {");
    }

    /** The document that starts at {@code start}, when it is one JSON object with only what parsers skip after it. */
    private static Optional<Found> document(String message, int start) {
        int end = StringDocuments.endOfValue(message, start);
        if (message.charAt(start) != '{' || !StringDocuments.isLast(message, end)) {
            return Optional.empty();
        }
        String text = message.substring(start, end);
        return Json.parseObject(text.getBytes(StandardCharsets.UTF_8)).map(document -> new Found(text, document));
    }

    /** @param text the document as it was written, without what was around it */
    private record Found(String text, JsonObject document) {
    }
}
