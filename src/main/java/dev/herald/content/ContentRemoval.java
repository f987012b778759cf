package dev.herald.content;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * One thing of a message that the content allow-list did not let through (docs/api.md, "Message content"): what an
 * editor needs to show the author where it was and why it went.
 *
 * @param reason    one of {@link Reason}
 * @param element   the element it was, or was on (lower case), null for a comment or for text around a document
 * @param attribute the attribute, when one attribute went and its element stayed (or the element went for it)
 * @param at        where: element names from the top with their position among same-named siblings, from 1,
 *                  {@code p[2]/a[1]}; empty at the top
 * @param value     the attribute's value, cut at 200 characters, or null
 */
public record ContentRemoval(Reason reason, String element, String attribute, String at, String value) {

    private static final int MAX_VALUE = 200;

    public enum Reason {
        /** An element outside the allow-list: it went, its text stayed. */
        ELEMENT_NOT_ALLOWED,
        /** An element that is code or a control (script, style, iframe, svg, a form's inputs…): it went with all it held. */
        ELEMENT_REMOVED,
        /** An attribute outside the allow-list of its element. */
        ATTRIBUTE_NOT_ALLOWED,
        /** An href or src that is no absolute http or https URL as a browser reads it: the link went (its text stayed), or the image. */
        URL_NOT_ALLOWED,
        /** An HTML comment. */
        COMMENT_REMOVED,
        /** White space, control or format characters or comments around a rich-text document in a string. */
        OUTSIDE_DOCUMENT,
        /** A control character (other than tab and line feed) that a character reference such as {@code &#27;} made. */
        CONTROL_CHARACTER_REMOVED,
        /** An element nested deeper than {@value HtmlMessages#MAX_DEPTH} levels: it went, its text stayed. */
        NESTED_TOO_DEEP
    }

    public ContentRemoval {
        if (value != null && value.codePointCount(0, value.length()) > MAX_VALUE) {
            value = value.substring(0, value.offsetByCodePoints(0, MAX_VALUE)) + "…";
        }
    }

    /** @param field the request field the message was in: {@code message} */
    public JsonObject json(String field) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder().add("field", field).add("reason", reason.name());
        if (element != null) {
            json.add("element", element);
        }
        if (attribute != null) {
            json.add("attribute", attribute);
        }
        json.add("at", at);
        if (value != null) {
            json.add("value", value);
        }
        return json.build();
    }
}
