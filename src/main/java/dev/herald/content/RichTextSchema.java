package dev.herald.content;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The node and mark types of a rich-text document and the attributes each may carry: what the browser SDK renders
 * and the console's editor writes (docs/api.md, "Message content"), in the camelCase and ProseMirror spellings.
 * Renderers copy {@code attrs} onto elements, some with {@code setAttribute} for whatever is there: so a type carries
 * only the attributes listed here, each of its kind, and a type not listed carries none.
 */
final class RichTextSchema {

    /** What an attribute's value must be, null aside (null is an attribute not set). */
    enum Kind {
        /** An absolute http or https URL ({@link HttpUrls}). */
        URL,
        /** A string. */
        TEXT,
        /** A heading's level: an integer from 1 to 6. */
        LEVEL,
        /** An ordered list's first number: an integer of at most 9 digits, as {@code <ol start>}. */
        POSITION;

        /** Why {@code value} is no value of this kind, or null when it is one. */
        String refusal(JsonValue value, String path) {
            if (value == JsonValue.NULL) {
                return null;
            }
            return switch (this) {
                case URL -> value instanceof JsonString url ? RichTextUrls.urlRefusal(url.getString(), path)
                        : path + " must be an absolute http or https URL";
                case TEXT -> value instanceof JsonString ? null : path + " must be a string";
                case LEVEL -> isIntegerWithin(value, 1, 6) ? null : path + " must be an integer from 1 to 6";
                case POSITION -> isIntegerWithin(value, -999_999_999, 999_999_999) ? null
                        : path + " must be an integer of at most 9 digits";
            };
        }

        private static boolean isIntegerWithin(JsonValue value, long min, long max) {
            if (!(value instanceof JsonNumber number)) {
                return false;
            }
            BigDecimal decimal = number.bigDecimalValue();
            return decimal.stripTrailingZeros().scale() <= 0 && decimal.compareTo(BigDecimal.valueOf(min)) >= 0
                    && decimal.compareTo(BigDecimal.valueOf(max)) <= 0;
        }
    }

    private static final Map<String, Kind> NONE = Map.of();
    private static final Map<String, Kind> HEADING = Map.of("level", Kind.LEVEL);
    /** {@code start} as the editor and tiptap write it, {@code order} as prosemirror-schema-list does. */
    private static final Map<String, Kind> ORDERED_LIST = Map.of("start", Kind.POSITION, "order", Kind.POSITION);
    private static final Map<String, Kind> CODE_BLOCK = Map.of("language", Kind.TEXT);
    private static final Map<String, Kind> IMAGE = Map.of("src", Kind.URL, "alt", Kind.TEXT, "title", Kind.TEXT);
    private static final Map<String, Kind> LINK = Map.of("href", Kind.URL, "target", Kind.TEXT, "title", Kind.TEXT);

    static final Map<String, Map<String, Kind>> NODES = Map.ofEntries(
            Map.entry("doc", NONE), Map.entry("paragraph", NONE), Map.entry("text", NONE),
            Map.entry("heading", HEADING), Map.entry("blockquote", NONE),
            Map.entry("bulletList", NONE), Map.entry("bullet_list", NONE),
            Map.entry("orderedList", ORDERED_LIST), Map.entry("ordered_list", ORDERED_LIST),
            Map.entry("listItem", NONE), Map.entry("list_item", NONE),
            Map.entry("codeBlock", CODE_BLOCK), Map.entry("code_block", CODE_BLOCK),
            Map.entry("horizontalRule", NONE), Map.entry("horizontal_rule", NONE),
            Map.entry("hardBreak", NONE), Map.entry("hard_break", NONE),
            Map.entry("image", IMAGE));

    static final Map<String, Map<String, Kind>> MARKS = Map.ofEntries(
            Map.entry("bold", NONE), Map.entry("strong", NONE), Map.entry("italic", NONE), Map.entry("em", NONE),
            Map.entry("underline", NONE), Map.entry("strike", NONE), Map.entry("code", NONE), Map.entry("link", LINK));

    /** What a document is made of: nodes from the top down through {@code content}, and their {@code marks}. */
    enum Part {
        NODE, MARK;

        /** The attributes {@code type} defines; null for a type not listed, or none at all (a type that is no string). */
        Map<String, Kind> attributes(String type) {
            return type == null ? null : (this == NODE ? NODES : MARKS).get(type);
        }

        @Override
        public String toString() {
            return this == NODE ? "node" : "mark";
        }
    }

    /** How the attributes of a type are named in a refusal, in the order docs/api.md lists them. */
    static String listed(Map<String, Kind> attributes) {
        List<String> order = List.of("level", "start", "order", "language", "href", "src", "alt", "target", "title");
        List<String> names = order.stream().filter(attributes::containsKey).toList();
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    private RichTextSchema() {
    }
}
