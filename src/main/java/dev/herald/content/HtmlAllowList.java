package dev.herald.content;

import java.util.Map;
import java.util.Set;

/**
 * What an HTML message may hold: the elements and attributes the browser SDK renders (docs/browser.md), and nothing
 * it would not. One list, so that what the API stores, what the feed serves and what the widget shows agree.
 */
final class HtmlAllowList {

    /** Each element with the attributes it keeps; {@code href} and {@code src} must also pass {@link HttpUrls}. */
    static final Map<String, Set<String>> ELEMENTS = Map.ofEntries(
            Map.entry("p", Set.of()), Map.entry("h1", Set.of()), Map.entry("h2", Set.of()),
            Map.entry("h3", Set.of()), Map.entry("h4", Set.of()), Map.entry("h5", Set.of()), Map.entry("h6", Set.of()),
            Map.entry("blockquote", Set.of()), Map.entry("ul", Set.of()), Map.entry("ol", Set.of("start")),
            Map.entry("li", Set.of()), Map.entry("pre", Set.of()), Map.entry("hr", Set.of()), Map.entry("br", Set.of()),
            Map.entry("img", Set.of("src", "alt")),
            Map.entry("strong", Set.of()), Map.entry("b", Set.of()), Map.entry("em", Set.of()), Map.entry("i", Set.of()),
            Map.entry("u", Set.of()), Map.entry("s", Set.of()), Map.entry("del", Set.of()), Map.entry("code", Set.of()),
            Map.entry("a", Set.of("href")));

    static final Set<String> VOID = Set.of("br", "hr", "img");

    /**
     * Code, styles, embedded documents, foreign markup (SVG, MathML, whose parsing rules differ) and form controls:
     * their content is no text of the message, so it goes with them. Any other element outside the list goes and
     * leaves its text.
     */
    static final Set<String> REMOVED_WITH_CONTENT = Set.of(
            "script", "style", "template", "noscript", "noembed", "noframes", "iframe", "frame", "frameset", "object",
            "embed", "applet", "head", "title", "base", "link", "meta", "svg", "math", "input", "button", "select",
            "option", "optgroup", "textarea", "datalist", "output", "canvas", "audio", "video", "source", "track",
            "picture", "portal", "param", "dialog", "slot");

    /** {@code <ol start>}: a position, as the widget reads it. */
    static boolean isStart(String value) {
        return value.matches("[0-9]{1,9}");
    }

    private HtmlAllowList() {
    }
}
