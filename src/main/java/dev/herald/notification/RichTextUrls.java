package dev.herald.notification;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
 * mark's {@code attrs.href}, an image node's {@code attrs.src}, an embed's {@code attrs.url}. The walk does not depend on node or mark types: a client's renderer may know types
 * Herald does not, and a custom node's {@code src} ends up in a page just the same. A null member is no link.
 */
final class RichTextUrls {

    private static final Set<String> URL_MEMBERS = Set.of("href", "src", "url", "xlink:href", "poster", "formaction",
                                                          "background");
    private static final String SRCSET = "srcset";
    /**
     * HTML's other attributes that hold URLs (a form's {@code action}, an object's {@code data}, {@code ping}'s
     * list): a renderer that copies a node's attributes onto an element makes them live too. A string there is
     * one URL or a list of them; an object or an array (a custom node's own data) is walked as any member is.
     */
    private static final Set<String> HTML_URL_ATTRIBUTES = Set.of("action", "archive", "cite", "classid", "codebase",
                                                                  "data", "icon", "longdesc", "manifest", "ping",
                                                                  "profile", "usemap");
    /** An iframe's document, HTML in an attribute: no URL rule can hold it. */
    private static final String SRCDOC = "srcdoc";

    private RichTextUrls() {
    }

    /**
     * @param path where the document is in the request ({@code message}); a refused URL is named below it, e.g.
     *             {@code message.content[0].content[1].marks[0].attrs.href}
     */
    static void requireHttpUrls(JsonValue document, String path) {
        if (document instanceof JsonObject object) {
            for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                String memberPath = path + "." + member.getKey();
                String name = member.getKey().toLowerCase(Locale.ROOT);
                if (URL_MEMBERS.contains(name)) {
                    requireUrl(member.getValue(), memberPath);
                } else if (name.equals(SRCSET)) {
                    requireSrcset(member.getValue(), memberPath);
                } else if (HTML_URL_ATTRIBUTES.contains(name) && member.getValue() instanceof JsonString urls) {
                    for (String url : urls.getString().strip().split("[\\s,]+")) {
                        HttpUrls.require(url, memberPath);
                    }
                } else if (name.equals(SRCDOC) && member.getValue() != JsonValue.NULL) {
                    throw ApiException.validation(memberPath, memberPath + " is not allowed: it holds HTML, not a URL");
                } else {
                    requireHttpUrls(member.getValue(), memberPath);
                }
            }
        } else if (document instanceof JsonArray array) {
            for (int i = 0; i < array.size(); i++) {
                requireHttpUrls(array.get(i), path + "[" + i + "]");
            }
        }
    }

    /** {@code "a.png 1x, b.png 2x"}: each candidate's URL, the text before its descriptor. */
    private static void requireSrcset(JsonValue value, String path) {
        if (value == JsonValue.NULL) {
            return;
        }
        if (!(value instanceof JsonString srcset)) {
            throw ApiException.validation(path, path + " must be a list of absolute http or https URLs");
        }
        for (String candidate : srcset.getString().split(",")) {
            String url = candidate.strip().split("\\s+", 2)[0];
            HttpUrls.require(url, path);
        }
    }

    private static void requireUrl(JsonValue value, String path) {
        if (value == JsonValue.NULL) {
            return;
        }
        if (!(value instanceof JsonString url)) {
            throw ApiException.validation(path, path + " must be an absolute http or https URL");
        }
        HttpUrls.require(url.getString(), path);
    }
}
