package dev.herald.content;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The URLs inside a rich-text message (a ProseMirror-style document: nodes with {@code attrs}, text with
 * {@code marks}) are held to {@link HttpUrls}' rule. Every member named {@code href}, {@code src}, {@code url},
 * or as HTML names its other URL attributes ({@code xlink:href}, {@code poster}, {@code formaction},
 * {@code background}, and each candidate of a {@code srcset}), in any case, at any depth, is such a URL: a link
 * mark's {@code attrs.href}, an image node's {@code attrs.src}, an embed's {@code attrs.url}. The walk does not depend
 * on node or mark types: a client's renderer may know types Herald does not, and a custom node's {@code src} ends up
 * in a page just the same. A null member is no link. In any {@code attrs} object, which renderers copy onto elements,
 * an event handler ({@code on…}) or a {@code style} is no content either, whatever its value (an array is a string to
 * {@code setAttribute}), and an HTML URL attribute is a string of URLs. The attributes of the nodes and marks of the
 * document itself are held to their types' besides ({@link RichTextSchema}); this walk covers the rest of it.
 *
 * <p>The management API refuses such a document ({@link #requireHttpUrls}); what is already stored is served
 * {@link #neutralised} instead: each such member null, the rest unchanged.
 */
final class RichTextUrls {

    private static final Set<String> URL_MEMBERS = Set.of("href", "src", "url", "xlink:href", "poster", "formaction",
                                                          "background");
    private static final String SRCSET = "srcset";
    /**
     * HTML's other attributes that hold URLs (a form's {@code action}, an object's {@code data}, {@code ping}'s
     * list): a renderer that copies a node's attributes onto an element makes them live too. A string there is
     * one URL or a list of them; outside {@code attrs}, an object or an array (a custom node's own data) is walked as
     * any member is.
     */
    private static final Set<String> HTML_URL_ATTRIBUTES = Set.of("action", "archive", "cite", "classid", "codebase",
                                                                  "data", "icon", "longdesc", "manifest", "ping",
                                                                  "profile", "usemap");
    /** An iframe's document, HTML in an attribute: no URL rule can hold it. */
    private static final String SRCDOC = "srcdoc";
    private static final String ATTRS = "attrs";
    private static final Pattern EVENT_HANDLER = Pattern.compile("on[a-z]+");

    private RichTextUrls() {
    }

    /**
     * @param path where the document is in the request ({@code message}); a refused URL is named below it, e.g.
     *             {@code message.content[0].content[1].marks[0].attrs.href}
     */
    static void requireHttpUrls(JsonValue document, String path) {
        requireHttpUrls(document, path, false);
    }

    /** The document with each member {@link #requireHttpUrls} would refuse set to null; the same object if none. */
    static JsonValue neutralised(JsonValue document) {
        return neutralised(document, false);
    }

    private static void requireHttpUrls(JsonValue document, String path, boolean inAttrs) {
        if (document instanceof JsonObject object) {
            for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                String memberPath = path + "." + member.getKey();
                String refusal = refusal(member.getKey(), member.getValue(), inAttrs, memberPath);
                if (refusal != null) {
                    throw ApiException.validation(memberPath, refusal);
                }
                requireHttpUrls(member.getValue(), memberPath, member.getKey().equals(ATTRS));
            }
        } else if (document instanceof JsonArray array) {
            for (int i = 0; i < array.size(); i++) {
                requireHttpUrls(array.get(i), path + "[" + i + "]", false);
            }
        }
    }

    private static JsonValue neutralised(JsonValue document, boolean inAttrs) {
        if (document instanceof JsonObject object) {
            return JsonCopies.members(object, (name, value) -> refusal(name, value, inAttrs, name) != null
                    ? JsonValue.NULL : neutralised(value, name.equals(ATTRS)));
        }
        if (document instanceof JsonArray array) {
            return JsonCopies.elements(array, element -> neutralised(element, false));
        }
        return document;
    }

    /** Why the member may not be served, or null when it may (its own members still to be walked). */
    private static String refusal(String key, JsonValue value, boolean inAttrs, String path) {
        if (value == JsonValue.NULL) {
            return null;
        }
        String name = key.toLowerCase(Locale.ROOT);
        if (URL_MEMBERS.contains(name)) {
            return value instanceof JsonString url ? urlRefusal(url.getString(), path)
                    : path + " must be an absolute http or https URL";
        }
        if (name.equals(SRCSET)) {
            return value instanceof JsonString srcset ? srcsetRefusal(srcset.getString(), path)
                    : path + " must be a list of absolute http or https URLs";
        }
        if (inAttrs && HTML_URL_ATTRIBUTES.contains(name) && !(value instanceof JsonString)) {
            return path + " must be a string of absolute http or https URLs";
        }
        if (HTML_URL_ATTRIBUTES.contains(name) && value instanceof JsonString urls) {
            for (String url : urls.getString().strip().split("[\\s,]+")) {
                String refusal = urlRefusal(url, path);
                if (refusal != null) {
                    return refusal;
                }
            }
            return null;
        }
        if (name.equals(SRCDOC)) {
            return path + " is not allowed: it holds HTML, not a URL";
        }
        // Whatever the value: a renderer that copies attrs with setAttribute makes ["alert(1)"] the text alert(1).
        if (inAttrs && EVENT_HANDLER.matcher(name).matches()) {
            return path + " is not allowed: an event handler is script, not content";
        }
        if (inAttrs && name.equals("style")) {
            return path + " is not allowed: inline style is not content (pages with a strict policy report it)";
        }
        return null;
    }

    /** Length first, as {@link HttpUrls#require} tells it. */
    static String urlRefusal(String url, String path) {
        int characters = url.codePointCount(0, url.length());
        if (characters > HttpUrls.MAX_CHARACTERS) {
            return String.format(Locale.ROOT, "%s is too long: %,d characters, more than the %,d allowed", path,
                                 characters, HttpUrls.MAX_CHARACTERS);
        }
        return HttpUrls.isAbsoluteHttp(url) ? null : path + " must be an absolute http or https URL";
    }

    /** {@code "a.png 1x, b.png 2x"}: each candidate's URL, the text before its descriptor. */
    private static String srcsetRefusal(String srcset, String path) {
        for (String candidate : srcset.split(",")) {
            String refusal = urlRefusal(candidate.strip().split("\\s+", 2)[0], path);
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }
}
