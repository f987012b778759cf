package dev.herald.content;

import java.util.Map;

import dev.herald.api.ApiException;
import dev.herald.content.RichTextSchema.Kind;
import dev.herald.content.RichTextSchema.Part;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A rich-text document held to its schema ({@link RichTextSchema}) and its URLs to {@link HttpUrls}' rule
 * ({@link RichTextUrls}). From the top object down through {@code content} (nodes) and {@code marks}, each node's
 * and mark's {@code attrs} holds only what its type defines, each of its kind; {@code content} and {@code marks} are
 * arrays. The management API refuses any other document, naming the member ({@link #require}); a document already
 * stored is served without what it would refuse ({@link #served}), so that the feed never serves it.
 */
public final class RichTextDocuments {

    private static final String ATTRS = "attrs";
    private static final String CONTENT = "content";
    private static final String MARKS = "marks";

    private RichTextDocuments() {
    }

    /**
     * @param path where the document is in the request ({@code message}); a refused member is named below it, e.g.
     *             {@code message.content[0].attrs.onerror}
     * @throws ApiException naming the first member refused
     */
    public static void require(JsonObject document, String path) {
        requireNode(document, path, Part.NODE);
        RichTextUrls.requireHttpUrls(document, path);
    }

    /** The document without what {@link #require} would refuse; the same object if there is none. */
    public static JsonValue served(JsonObject document) {
        return RichTextUrls.neutralised(servedNode(document, Part.NODE));
    }

    private static void requireNode(JsonObject node, String path, Part part) {
        for (Map.Entry<String, JsonValue> member : node.entrySet()) {
            String memberPath = path + "." + member.getKey();
            JsonValue value = member.getValue();
            switch (member.getKey()) {
                case ATTRS -> requireAttributes(type(node), value, memberPath, part);
                case CONTENT -> requireChildren(value, memberPath, Part.NODE);
                case MARKS -> requireChildren(value, memberPath, Part.MARK);
                default -> {
                }
            }
        }
    }

    private static void requireAttributes(String type, JsonValue attrs, String path, Part part) {
        if (attrs == JsonValue.NULL) {
            return;
        }
        if (!(attrs instanceof JsonObject attributes)) {
            throw ApiException.validation(path, path + " must be an object");
        }
        Map<String, Kind> defined = part.attributes(type);
        for (Map.Entry<String, JsonValue> attribute : attributes.entrySet()) {
            String attributePath = path + "." + attribute.getKey();
            Kind kind = defined == null ? null : defined.get(attribute.getKey());
            if (kind == null) {
                throw ApiException.validation(attributePath, defined == null
                        ? attributePath + " is not allowed: " + (type == null ? "a " + part + " without a type"
                                : type + " is no " + part + " type Herald knows") + " and carries no attributes"
                          + " (docs/api.md#message-content)"
                        : attributePath + " is not an attribute of " + part + " type " + type + ", which has "
                          + RichTextSchema.listed(defined));
            }
            String refusal = kind.refusal(attribute.getValue(), attributePath);
            if (refusal != null) {
                throw ApiException.validation(attributePath, refusal);
            }
        }
    }

    private static void requireChildren(JsonValue children, String path, Part part) {
        if (children == JsonValue.NULL) {
            return;
        }
        // A renderer that wraps what it finds in an array ([].concat) would render an object here as a child.
        if (!(children instanceof JsonArray array)) {
            throw ApiException.validation(path, path + " must be an array of " + part + "s");
        }
        for (int i = 0; i < array.size(); i++) {
            if (array.get(i) instanceof JsonObject child) {
                requireNode(child, path + "[" + i + "]", part);
            }
        }
    }

    private static JsonObject servedNode(JsonObject node, Part part) {
        return JsonCopies.members(node, (name, value) -> switch (name) {
            case ATTRS -> servedAttributes(part.attributes(type(node)), value);
            case CONTENT -> servedChildren(value, Part.NODE);
            case MARKS -> servedChildren(value, Part.MARK);
            default -> value;
        });
    }

    /** Only the attributes the type defines; one of another kind null, as not set. */
    private static JsonValue servedAttributes(Map<String, Kind> defined, JsonValue attrs) {
        if (attrs == JsonValue.NULL) {
            return attrs;
        }
        if (!(attrs instanceof JsonObject attributes)) {
            return JsonValue.NULL;
        }
        return JsonCopies.members(attributes, (name, value) -> {
            Kind kind = defined == null ? null : defined.get(name);
            return kind == null ? null : kind.refusal(value, name) == null ? value : JsonValue.NULL;
        });
    }

    private static JsonValue servedChildren(JsonValue children, Part part) {
        if (children == JsonValue.NULL) {
            return children;
        }
        if (!(children instanceof JsonArray array)) {
            return JsonValue.NULL;
        }
        return JsonCopies.elements(array, child -> child instanceof JsonObject node ? servedNode(node, part) : child);
    }

    private static String type(JsonObject node) {
        return node.get("type") instanceof JsonString type ? type.getString() : null;
    }
}
