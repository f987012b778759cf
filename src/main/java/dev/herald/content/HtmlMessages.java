package dev.herald.content;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * An HTML message brought into the allow-list ({@link HtmlAllowList}) and written in its canonical form.
 *
 * <p>The message is parsed as browsers parse HTML (jsoup follows the WHATWG algorithm) and written anew from the
 * parsed tree: only allowed elements and attributes, each attribute double-quoted with {@code & " < >} escaped,
 * every element closed. Whatever a parser makes of that text, it finds nothing but those elements, so no difference
 * between parsers (the mutation XSS family) can bring anything else back. In text every {@code <} and {@code &} is a
 * reference ({@link CanonicalHtml}): text that only joins into markup with what follows it, once a comment or an
 * element between them went, stays text.
 */
public final class HtmlMessages {

    /** Enough for an editor to show; past it the author fixes those and saves again. */
    public static final int MAX_REMOVALS = 100;
    /**
     * Passes of parsing and writing again, at most, before the text alone is kept. A tree the parser would not build
     * from its own writing takes more than one: up to three in 100,000 generated messages of misnested elements.
     */
    private static final int MAX_PASSES = 4;
    /**
     * Elements nested deeper than this keep their text only. No message needs more; the walk that writes them is
     * recursive, and the launcher's stack (512 KiB) held some 450 levels.
     */
    static final int MAX_DEPTH = 64;

    private HtmlMessages() {
    }

    /**
     * The canonical form of {@code html}, and what did not pass (the first {@link #MAX_REMOVALS}). The form is a fixed
     * point: cleaned again, it is the same, and nothing is removed.
     */
    public static Cleaned clean(String html) {
        return clean(html, MAX_PASSES);
    }

    static Cleaned clean(String html, int maxPasses) {
        Writer first = Writer.write(html);
        String canonical = first.out.toString();
        // A tree the parser would not build from its own writing (a p the parser put in another p through an element
        // that went) is written again from what the parser builds, until it builds the same; stored, that is what a
        // browser reads from it. Past the bound, only the text: a fixed point whatever the tree.
        for (int pass = 1; ; pass++) {
            String again = Writer.write(canonical).out.toString();
            if (again.equals(canonical)) {
                break;
            }
            if (pass == maxPasses) {
                canonical = Writer.text(again);
                break;
            }
            canonical = again;
        }
        return new Cleaned(canonical, List.copyOf(first.removals));
    }

    public record Cleaned(String html, List<ContentRemoval> removals) {
    }

    private static final class Writer {

        private final StringBuilder out = new StringBuilder();
        private final List<ContentRemoval> removals = new ArrayList<>();

        /** Only the text of {@code html}'s tree, escaped: a fixed point, whatever the tree was. */
        static String text(String html) {
            StringBuilder out = new StringBuilder();
            CanonicalHtml.text(out, Jsoup.parseBodyFragment(html).body().wholeText());
            return out.toString();
        }

        static Writer write(String html) {
            Writer writer = new Writer();
            writer.children(Jsoup.parseBodyFragment(html).body(), "", 0);
            return writer;
        }

        private void children(Element parent, String at, int depth) {
            Map<String, Integer> positions = new HashMap<>();
            for (Node child : parent.childNodes()) {
                if (child instanceof TextNode text) {
                    text(text.getWholeText(), at);
                } else if (child instanceof DataNode data) {
                    // The raw text of an element that went but left its text (xmp): text, escaped as any.
                    text(data.getWholeData(), at);
                } else if (child instanceof Comment) {
                    removed(ContentRemoval.Reason.COMMENT_REMOVED, null, null, at, null);
                } else if (child instanceof Element element) {
                    String name = element.normalName();
                    int position = positions.merge(name, 1, Integer::sum);
                    element(element, name, (at.isEmpty() ? "" : at + "/") + name + "[" + position + "]", depth + 1);
                }
            }
        }

        private void text(String text, String at) {
            if (CanonicalHtml.text(out, text)) {
                removed(ContentRemoval.Reason.CONTROL_CHARACTER_REMOVED, null, null, at, null);
            }
        }

        private void element(Element element, String name, String at, int depth) {
            if (depth > MAX_DEPTH) {
                // Its text alone, read by jsoup without recursion: walking 480 nested elements overflowed the
                // launcher's 512 KiB stack (a 500 and a thousand lines of trace in the log, from one message).
                removed(ContentRemoval.Reason.NESTED_TOO_DEEP, name, null, at, null);
                text(element.wholeText(), at);
                return;
            }
            boolean html = element.tag().namespace().equals(org.jsoup.parser.Parser.NamespaceHtml);
            if (!html || HtmlAllowList.REMOVED_WITH_CONTENT.contains(name)) {
                removed(ContentRemoval.Reason.ELEMENT_REMOVED, name, null, at, null);
                return;
            }
            Set<String> allowed = HtmlAllowList.ELEMENTS.get(name);
            if (allowed == null) {
                removed(ContentRemoval.Reason.ELEMENT_NOT_ALLOWED, name, null, at, null);
                children(element, at, depth);
                return;
            }
            StringBuilder attributes = new StringBuilder();
            String url = null;
            for (Attribute attribute : element.attributes()) {
                String key = attribute.getKey();
                String value = attribute.getValue();
                if (!allowed.contains(key)) {
                    removed(ContentRemoval.Reason.ATTRIBUTE_NOT_ALLOWED, name, key, at, value);
                } else if (key.equals("href") || key.equals("src")) {
                    Optional<String> read = HttpUrls.asBrowsersRead(value);
                    if (read.isEmpty()) {
                        removed(ContentRemoval.Reason.URL_NOT_ALLOWED, name, key, at, value);
                    } else {
                        url = read.get();
                        attribute(attributes, key, url, name, at);
                    }
                } else if (key.equals("start") && !HtmlAllowList.isStart(value)) {
                    removed(ContentRemoval.Reason.ATTRIBUTE_NOT_ALLOWED, name, key, at, value);
                } else {
                    attribute(attributes, key, value, name, at);
                }
            }
            if (url == null && (name.equals("a") || name.equals("img"))) {
                // A link without a URL is its text; an image without one is nothing (a refused URL is reported already).
                if (!element.hasAttr(name.equals("a") ? "href" : "src")) {
                    removed(name.equals("a") ? ContentRemoval.Reason.ELEMENT_NOT_ALLOWED : ContentRemoval.Reason.ELEMENT_REMOVED,
                            name, null, at, null);
                }
                if (name.equals("a")) {
                    children(element, at, depth);
                }
                return;
            }
            out.append('<').append(name).append(attributes).append('>');
            if (HtmlAllowList.VOID.contains(name)) {
                return;
            }
            int contentStart = out.length();
            children(element, at, depth);
            // A parser drops the first line break just inside <pre>: one more keeps the text's own.
            if (name.equals("pre") && out.length() > contentStart && out.charAt(contentStart) == '\n') {
                out.insert(contentStart, '\n');
            }
            out.append("</").append(name).append('>');
        }

        private void attribute(StringBuilder attributes, String key, String value, String element, String at) {
            if (CanonicalHtml.attribute(attributes, key, value)) {
                removed(ContentRemoval.Reason.CONTROL_CHARACTER_REMOVED, element, key, at, null);
            }
        }

        private void removed(ContentRemoval.Reason reason, String element, String attribute, String at, String value) {
            if (removals.size() < MAX_REMOVALS) {
                removals.add(new ContentRemoval(reason, element, attribute, at, value));
            }
        }
    }
}
