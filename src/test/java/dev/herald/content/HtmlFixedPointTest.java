package dev.herald.content;

import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * The allow-list's output is a fixed point: cleaned again, it comes out the same, with nothing removed, and a parser
 * that reads it finds only the allow-list's elements and attributes. Issue 29: text after a removed comment joined a
 * raw {@code <} into a tag one pass later ({@code &lt;&lt;&lt;<!---->!---->!---->img src=x onerror=…>}), and the
 * passes ran out before the tag appeared.
 */
class HtmlFixedPointTest {

    private static final Map<String, Set<String>> ATTRIBUTES = Map.of("a", Set.of("href"), "img", Set.of("src", "alt"),
                                                                     "ol", Set.of("start"));
    /**
     * In text, a {@code <} or an {@code &} only as the references the canonical form writes (and the feed's first
     * bracket of text that would read as a document, {@code &#123;} or {@code &#91;}).
     */
    private static final Pattern RAW_TEXT = Pattern.compile("<|&(?!lt;|amp;|#123;|#91;)");

    /** The issue's shape, for every depth of comments: never a tag, on the way in or on the way out. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 12})
    void textAroundARemovedCommentNeverBecomesATag(int k) {
        String message = "&lt;".repeat(k) + "<!---->" + "!---->".repeat(k - 1) + "img src=x onerror=alert(document.domain)>";
        String stored = HtmlMessages.clean(message).html();
        assertAllowListOnly(message, stored);
        assertAllowListOnly(message, MessageContent.served(stored));
        assertAllowListOnly(message, MessageContent.served(message));
        assertThat(HtmlMessages.clean(stored).html(), is(stored));
    }

    /**
     * 20,000 messages of entities, comments, elements that go with their content, elements that go and leave their
     * text, allowed ones and raw text: cleaning the output changes nothing and removes nothing, and jsoup, parsing it
     * as a browser does, finds only allowed elements and attributes, and no {@code <} or {@code &} left raw in text.
     */
    @Test
    void cleaningIsAFixedPointAndItsOutputHoldsOnlyTheAllowList() {
        String[] pieces = {
                // entities, complete, legacy without semicolon, numeric, broken
                "&lt;", "&amp;", "&gt;", "&#60;", "&#x3C;", "&#x3c", "&lt", "&amp", "&", "&#", "&copy", "&notit;", "&;",
                // comments, whole and in pieces, and what ends them
                "<!---->", "<!-- c -->", "<!--", "-->", "--!>", "<!->", "<!--->", "<!", "!---->", "!--", "<?x?>",
                "<![CDATA[x]]>", "<!doctype html>",
                // elements that go with their content
                "<script>", "</script>", "<style>", "</style>", "<template>", "</template>", "<svg>", "</svg>",
                "<math>", "<textarea>", "</textarea>", "<noscript>", "<title>", "<iframe>", "<select>", "<option>",
                // elements that go and leave their text
                "<div>", "</div>", "<span>", "<table>", "<td>", "<form>", "<xmp>", "</xmp>", "<plaintext>", "<a>",
                "<a name=x>", "<font>",
                // allowed elements, well and badly formed
                "<b>", "</b>", "<p>", "</p>", "<i>", "<a href=\"https://x.example/?a=1&b=2\">", "</a>",
                "<img src=https://x.example/i.png alt=\"<&>\">", "<ol start=2>", "<li>", "<pre>", "</pre>", "<h1>",
                "<h2>", "</h1>", "<br>", "<hr>", "<code>", "<blockquote>", "<ul>",
                // raw text, and the pieces a tag is made of
                "<", ">", "</", "/", "!", "?", "-", "=", "\"", "'", " ", "\n", "\r\n", "\u0000", "\u00a0", "img",
                "img src=x onerror=alert(1)>", "script", "p", "x", "é", "{", "😀"};
        // Half of them from the few pieces the issue's shape is made of, which the many above rarely line up.
        String[] shape = {"&lt;", "&amp;", "lt;", "amp;", "<", "&", "<!---->", "!---->", "!--", "-->", "<b></b>",
                          "<script></script>", "<x>", "img src=x onerror=alert(1)>", "/b>", "b>"};
        Random random = new Random(29);
        for (int i = 0; i < 20_000; i++) {
            String[] from = i % 2 == 0 ? pieces : shape;
            StringBuilder message = new StringBuilder();
            for (int n = random.nextInt(30); n >= 0; n--) {
                message.append(from[random.nextInt(from.length)]);
            }
            String in = message.toString();
            String out = HtmlMessages.clean(in).html();
            HtmlMessages.Cleaned again = HtmlMessages.clean(out);
            assertThat(in, again.html(), is(out));
            assertThat(in, again.removals(), is(empty()));
            assertAllowListOnly(in, out);
            assertAllowListOnly(in, MessageContent.served(in));
        }
    }

    /** What jsoup, reading {@code out} as a browser reads HTML, finds in it. */
    private static void assertAllowListOnly(String in, String out) {
        Element body = Jsoup.parseBodyFragment(out).body();
        for (Node node : body.childNodes()) {
            assertAllowed(in + " => " + out, node);
        }
        // And read as plain text between tags: no < or & that is not one of the canonical form's references.
        String text = out.replaceAll("<(/?)([a-z0-9]+)((?: [a-z]+=\"[^\"<>]*\")*)>", "");
        assertThat(in + " => " + out, RAW_TEXT.matcher(text).find(), is(false));
    }

    private static void assertAllowed(String what, Node node) {
        if (node instanceof TextNode) {
            return;
        }
        assertThat(what + ": " + node.nodeName(), node instanceof Comment || node instanceof DataNode, is(false));
        Element element = (Element) node;
        String name = element.normalName();
        assertThat(what + ": <" + name + ">", HtmlAllowList.ELEMENTS.containsKey(name), is(true));
        for (Attribute attribute : element.attributes()) {
            assertThat(what + ": " + name + " " + attribute.getKey(),
                       ATTRIBUTES.getOrDefault(name, Set.of()).contains(attribute.getKey()), is(true));
            if (attribute.getKey().equals("href") || attribute.getKey().equals("src")) {
                assertThat(what, attribute.getValue().matches("https?://.+"), is(true));
            }
        }
        for (Node child : element.childNodes()) {
            assertAllowed(what, child);
        }
    }
}
