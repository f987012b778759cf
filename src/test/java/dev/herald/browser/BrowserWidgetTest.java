package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Action;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

/**
 * The browser SDK in a real browser (headless Chromium), embedded in a page of another origin under a strict
 * Content-Security-Policy, against a real Herald on H2: what it renders, what it refuses to run, what it records and
 * when, how it polls, and that neither the page nor the widget can break the other (docs/browser.md).
 */
class BrowserWidgetTest extends WidgetBrowserTest {

    private static final Action CLOSE = new Action(Action.Type.CLOSE, null, null);

    @Test
    void thePanelShowsTheKeysNotificationsInTheKeysOrder() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        List<String> newestFirst = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Notification notification = herald.notification(project).message(doc("Release " + i))
                    .createdAt(TestHerald.START.minusSeconds(600 - i)).save();
            newestFirst.addFirst(notification.id());
        }
        browser.open(pages.page(key.key(), false, null));
        assertThat(items(3), is(newestFirst));
        assertThat(browser.script(SHADOW + "return root.querySelector('[part~=item] .message').textContent"),
                   is(Json.createValue("Release 2")));
        assertThat(browser.script(SHADOW + "return root.querySelector('[part=badge]').textContent"),
                   is(Json.createValue("3")));
    }

    @Test
    void markupAndScriptsFromTheApiRenderInert() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        // Stored behind the API's back: the client must be safe whatever the server lets through.
        List<String> corpus = List.of(
                "<img src=x onerror=\"window.__xss='img'\"><script>window.__xss='script'</script>",
                "<a href=\"javascript:window.__xss='link'\">link</a><a href=\"https://example.com/ok\" onclick=\"window.__xss='onclick'\">ok</a>",
                "<svg onload=\"window.__xss='svg'\"></svg><iframe src=\"javascript:window.__xss='frame'\"></iframe>"
                        + "<object data=\"data:text/html,<script>parent.__xss='object'</script>\"></object>",
                "<p style=\"color:red\" onmouseover=\"window.__xss='p'\">styled</p><img src=\"data:image/svg+xml,<svg/>\">",
                "<template><img src=x onerror=\"window.__xss='template'\"></template><math><mi>x</mi></math>",
                doc("<img src=x onerror=\"window.__xss='text'\">"),
                "<a name=\"anchor\">named</a><a href=\"relative/page\">relative</a><img><img src=\"x\">"
                        + "<button>pressed</button><svg><style>.x{}</style><text>drawn</text></svg>",
                "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"js\","
                        + "\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"javascript:window.__xss='mark'\"}}]},"
                        + "{\"type\":\"text\",\"text\":\"nolink\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":null}}]},"
                        + "{\"type\":\"image\",\"attrs\":{\"src\":null}},"
                        + "{\"type\":\"image\",\"attrs\":{\"src\":\"data:image/png;base64,AAAA\"}},"
                        + "{\"type\":\"script\",\"content\":[{\"type\":\"text\",\"text\":\"unknown node\"}]}]}]}");
        for (String message : corpus) {
            herald.notification(project).message(message).save();
        }
        // No Content-Security-Policy on this page: it would stop handlers and javascript: URLs by itself.
        browser.open(pages.pageWithoutPolicy(key.key()));
        items(corpus.size());
        browser.script(SHADOW + "root.querySelectorAll('*').forEach((e) => { for (const t of ['click', 'mouseover', "
                + "'load', 'error']) e.dispatchEvent(new Event(t)); });");
        browser.pause(1500);
        assertThat(browser.script("return window.__xss === undefined ? 'none' : window.__xss"), is(Json.createValue("none")));
        // The panel's own style attribute is its place, set through CSSOM (allowed under style-src 'self').
        JsonObject found = (JsonObject) browser.script(SHADOW + """
                const all = [...root.querySelectorAll('*')];
                return {
                  handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)
                                                                 || a.name === 'style' && e.getAttribute('part') !== 'panel')
                                                                 .map((a) => e.tagName + ' ' + a.name)),
                  tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))].filter((t) => !['div', 'p', 'a', 'img',
                         'article', 'button', 'span', 'header', 'h2', 'svg', 'path', 'strong', 'em'].includes(t)),
                  hrefs: [...root.querySelectorAll('[href]')].map((e) => e.getAttribute('href'))
                         .filter((h) => !/^https?:\\/\\//.test(h) || h.startsWith(location.origin)),
                  srcs: [...root.querySelectorAll('[src]')].map((e) => e.getAttribute('src'))
                         .filter((s) => !/^https?:\\/\\//.test(s) || s.startsWith(location.origin)),
                  text: root.querySelector('[part=panel]').textContent
                };""");
        assertThat(found.getJsonArray("handlers").toString(), found.getJsonArray("handlers"), is(empty()));
        assertThat(found.getJsonArray("tags").toString(), found.getJsonArray("tags"), is(empty()));
        assertThat(found.getJsonArray("hrefs"), is(empty()));
        assertThat(found.getJsonArray("srcs"), is(empty()));
        String text = found.getString("text");
        assertThat(text, containsString("<img src=x onerror=\"window.__xss='text'\">"));
        assertThat(text, containsString("unknown node"));
        assertThat(text, containsString("styled"));
        assertThat(text, containsString("nolink"));
        assertThat(text, containsString("relative"));
        assertThat(text.contains("pressed") || text.contains("drawn") || text.contains(".x{}"), is(false));
        // What is allowed renders as what it is.
        assertThat(browser.script("""
                const box = document.createElement('div');
                box.append(Herald.renderMessage({type: 'doc', content: [
                  {type: 'heading', attrs: {level: 1}, content: [{type: 'text', text: 'T'}]},
                  {type: 'orderedList', attrs: {start: 3}, content: [{type: 'listItem', content: [{type: 'paragraph',
                    content: [{type: 'text', text: 'a'}, {type: 'hardBreak'}, {type: 'text', text: 'b', marks: [{type: 'italic'}]}]}]}]},
                  {type: 'image', attrs: {src: 'https://cdn.example.com/i.png', alt: 'i'}}]}));
                box.append(Herald.renderMessage('plain 2 > 1'));
                box.append(Herald.renderMessage('Line one\\nLine two\\n\\nA paragraph'));
                return box.innerHTML;"""), is(Json.createValue("<h3>T</h3><ol start=\"3\"><li><p>a<br><em>b</em></p></li></ol>"
                + "<img src=\"https://cdn.example.com/i.png\" alt=\"i\"><p>plain 2 &gt; 1</p>"
                // Plain text's line breaks as the console's editor shows them: they were one line (a PM's trial).
                + "<p>Line one<br>Line two</p><p>A paragraph</p>")));
        // The client API alone, with a link the server would refuse: no anchor at all.
        assertThat(browser.script("""
                const out = Herald.renderMessage({type: 'doc', content: [{type: 'paragraph', content: [{type: 'text',
                  text: 'x', marks: [{type: 'link', attrs: {href: 'javascript:alert(1)'}}, {type: 'bold'}]}]}]});
                const box = document.createElement('div');
                box.append(out);
                return box.innerHTML;"""), is(Json.createValue("<p><strong>x</strong></p>")));
    }

    /**
     * Hostile HTML stored behind the API's back, under the policy: not one violation report. The widget read
     * HTML with DOMParser, and Chromium reports the inline handlers and styles of inert documents too (four reports a
     * render); it reads HTML itself now. With Trusted Types, the browser refused the parser and HTML did not show.
     */
    @Test
    void hostileHtmlFromTheDatabaseRendersWithNoViolationReportAndRunsNothing() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        List<String> corpus = List.of(
                "<a href=\"javascript:window.__xss='a1'\">Link one</a>",
                "<a href=\" JaVaScRiPt:window.__xss='a2'\">Link two</a>",
                "<a href=\"java&#x09;script:window.__xss='a3'\">Link three</a>",
                "<p>Picture</p><img src=\"x\" onerror=\"window.__xss='img'\">",
                "<script>window.__xss='script'</script><p>After script</p>",
                "<svg onload=\"window.__xss='svg'\"><circle r=\"1\"/></svg><p>After svg</p>",
                "<iframe srcdoc=\"<script>parent.__xss='srcdoc'</script>\"></iframe><p>After frame</p>",
                "<p onclick=\"window.__xss='onclick'\" style=\"color:red\">Clickable</p>",
                "<math><mi xlink:href=\"javascript:window.__xss='math'\">mi __xss</mi></math><p>After math</p>",
                "<img src=\"data:image/svg+xml,<svg onload=parent.__xss='data'>\"><p>After data image</p>",
                "<form action=\"javascript:window.__xss='form'\"><input name=\"q\" onfocus=\"window.__xss='input'\""
                        + " autofocus>Form text</form>",
                "<style>p { color: red; background: url(https://example.invalid/__xss.png) }</style><p>After style</p>",
                "<meta http-equiv=\"refresh\" content=\"0;url=javascript:window.__xss='meta'\"><p>After meta</p>",
                "<base href=\"javascript:window.__xss='base'//\"><p>After base</p>",
                "<link rel=\"stylesheet\" href=\"https://example.invalid/__xss.css\"><p>After link</p>",
                "<object data=\"javascript:window.__xss='object'\">object __xss</object><p>After object</p>",
                "<embed src=\"javascript:window.__xss='embed'\"><p>After embed</p>",
                "<div style=\"background:url(javascript:window.__xss='div')\">Styled div</div>",
                "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"attrs\":{\"onclick\":\"window.__xss='doc'\","
                        + "\"style\":\"color:red\"},\"content\":[{\"type\":\"text\",\"text\":\"Rich text\",\"marks\":"
                        + "[{\"type\":\"bold\",\"attrs\":{\"onmouseover\":\"window.__xss='mark'\",\"style\":\"color:red\"}}]}]}]}");
        for (String message : corpus) {
            herald.notification(project).message(message).save();
        }
        pages.takeReports();
        for (String page : List.of(pages.page(key.key(), false, null), pages.pageWithTrustedTypes(key.key()))) {
            browser.open(page);
            items(corpus.size());
            browser.script(SHADOW + "root.host.open(); root.querySelectorAll('*').forEach((e) => { for (const t of "
                    + "['click', 'mouseover', 'load', 'error', 'focus']) e.dispatchEvent(new Event(t)); });");
            browser.pause(1000);
            assertThat(page, browser.script("return window.__violations").toString(), is("[]"));
            assertThat(page, pages.takeReports(), is(empty()));
            assertThat(browser.script("return [window.__xss === undefined ? 'none' : window.__xss, window.__events"
                    + ".filter((e) => e.type !== 'herald-update').length]").toString(), is("[\"none\",0]"));
            JsonObject found = (JsonObject) browser.script(SHADOW + """
                    const all = [...root.querySelectorAll('*')];
                    return {
                      attributes: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)
                                                                       || a.name === 'style' && e.getAttribute('part') !== 'panel')
                                                                       .map((a) => e.tagName + ' ' + a.name)),
                      urls: all.flatMap((e) => ['href', 'src'].filter((a) => e.hasAttribute(a)).map((a) => e.getAttribute(a)))
                               .filter((url) => !/^https?:\\/\\//.test(url)),
                      text: root.querySelector('.list').textContent
                    };""");
            assertThat(found.getJsonArray("attributes").toString(), found.getJsonArray("attributes"), is(empty()));
            assertThat(found.getJsonArray("urls").toString(), found.getJsonArray("urls"), is(empty()));
            String text = found.getString("text");
            for (String kept : List.of("Link one", "Link two", "Link three", "Picture", "After script", "After svg",
                                       "After frame", "Clickable", "After math", "After data image", "Form text",
                                       "After style", "After meta", "After base", "After link", "After object",
                                       "After embed", "Styled div", "Rich text")) {
                assertThat(text, containsString(kept));
            }
            assertThat(text, not(containsString("__xss")));
        }
        // The widget on its own, without the feed's pass (which serves the rows above in the allow-list's form): the
        // same corpus, as sent, handed to Herald.renderMessage by the page itself.
        browser.open(pages.page(key.key(), false, null));
        items(corpus.size());
        JsonObject alone = (JsonObject) browser.script("const corpus = " + Json.createArrayBuilder(corpus).build() + ";"
                + """
                const box = document.createElement('div');
                for (const message of corpus) box.append(Herald.renderMessage(message));
                document.body.append(box);
                box.querySelectorAll('*').forEach((e) => { for (const t of ['click', 'mouseover', 'load', 'error',
                  'focus']) e.dispatchEvent(new Event(t)); });
                return {
                  attributes: [...box.querySelectorAll('*')].flatMap((e) => [...e.attributes]
                    .filter((a) => /^on/i.test(a.name) || a.name === 'style').map((a) => e.tagName + ' ' + a.name)),
                  text: box.textContent
                };""");
        browser.pause(1000);
        assertThat(browser.script("return window.__violations").toString(), is("[]"));
        assertThat(pages.takeReports(), is(empty()));
        assertThat(browser.script("return window.__xss === undefined ? 'none' : window.__xss"), is(Json.createValue("none")));
        assertThat(alone.getJsonArray("attributes").toString(), alone.getJsonArray("attributes"), is(empty()));
        assertThat(alone.getString("text"), containsString("Form text"));
        assertThat(alone.getString("text"), not(containsString("__xss")));
    }

    /**
     * The server stores HTML in one canonical form (docs/browser.md); the widget reads exactly that: each element of
     * the allow-list, the attributes it keeps, the four escapes, the characters left literal, and pre's first newline.
     */
    @Test
    void theCanonicalHtmlTheServerStoresRendersAsItSays() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String canonical = "<h1>Title</h1><h6>Six</h6><p>Marks: <strong>strong</strong> <b>b</b> <em>em</em> <i>i</i>"
                + " <u>u</u> <s>s</s> <del>del</del> <code>code</code> <a href=\"https://example.com/a?x=1&amp;y=&quot;2&quot;\">"
                + "link</a></p><blockquote><p>Quoted</p></blockquote><ul><li>One</li><li>Two</li></ul>"
                + "<ol start=\"3\"><li><p>Three<br>and a half</p></li></ol><pre>\n\n  indented\n</pre><hr>"
                + "<p>&amp;amp; &lt;b&gt; &lt;/p&gt; &lt;!-- 5 &lt; 6 &amp; 7, AT&amp;T > 2, caf\u00e9\u00a0ok</p>"
                + "<img src=\"https://cdn.example.com/i.png?a=1&amp;b=2\" alt=\"An &quot;image&quot; &lt;1&gt;\">";
        String expected = "<h3>Title</h3><h6>Six</h6><p>Marks: <strong>strong</strong> <strong>b</strong> <em>em</em>"
                + " <em>i</em> <u>u</u> <s>s</s> <s>del</s> <code>code</code> <a href=\"https://example.com/a?x=1&amp;y=%222%22\""
                + " target=\"_blank\" rel=\"noopener noreferrer\">link</a></p><blockquote><p>Quoted</p></blockquote>"
                + "<ul><li>One</li><li>Two</li></ul><ol start=\"3\"><li><p>Three<br>and a half</p></li></ol>"
                + "<pre>\n  indented\n</pre><hr><p>&amp;amp; &lt;b&gt; &lt;/p&gt; &lt;!-- 5 &lt; 6 &amp; 7, AT&amp;T &gt; 2,"
                + " caf\u00e9&nbsp;ok</p><img src=\"https://cdn.example.com/i.png?a=1&amp;b=2\" alt=\"An &quot;image&quot; &lt;1&gt;\">";
        herald.notification(project).message(canonical).save();
        browser.open(pages.pageWithTrustedTypes(key.key()));
        items(1);
        assertThat(browser.script(SHADOW + "return root.querySelector('.message').innerHTML"), is(Json.createValue(expected)));
        // Plain text, and HTML a page hands to renderMessage itself, read as leniently as a browser would.
        assertThat(browser.script("""
                return ['plain 2 > 1 < 3', 'Fish &amp; chips &apos;n&apos; &#72;&#x49;&#X4a;&nbsp;&copy; &AMP; &#x110000;',
                        "<p title='a > b' class=x>one <b>two</i> three</b><span>four</p></z><p>five",
                        '<!-- <p>comment</p> --><?php x ?><!doctype html></ p>after',
                        '<pre>\\nkept</pre><svg/><p>after svg</p><textarea><p>not</p></textarea>end<b>unclosed',
                        '<a href=https://example.com/x>unquoted</a><a href=\\'https://example.com/y\\' title="<x>">single</a>']
                  .map((message) => {
                    const box = document.createElement('div');
                    box.append(Herald.renderMessage(message));
                    return box.innerHTML;
                  });"""), is(Json.createArrayBuilder()
                .add("plain 2 &gt; 1 &lt; 3")
                .add("Fish &amp; chips 'n' HIJ&nbsp;&amp;copy; &amp;AMP; \ufffd")
                .add("<p>one <strong>two</strong><strong> three</strong>four</p><p>five</p>")
                .add("after")
                .add("<pre>kept</pre><p>after svg</p>end<strong>unclosed</strong>")
                .add("<a href=\"https://example.com/x\" target=\"_blank\" rel=\"noopener noreferrer\">unquoted</a>"
                     + "<a href=\"https://example.com/y\" target=\"_blank\" rel=\"noopener noreferrer\">single</a>")
                .build()));
    }

    /**
     * Types that are names of Object.prototype's members are unknown types like any other: they were looked up on
     * plain objects, createElement threw, and one such notification left the whole panel empty, refetched for ever.
     */
    @Test
    void typesNamedAfterThePrototypesMembersAreUnknownTypesAndTheFeedShows() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        List<String> messages = List.of(
                "{\"type\":\"doc\",\"content\":[{\"type\":\"constructor\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"ctor node\"}]}]}",
                "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"proto mark\",\"marks\":[{\"type\":\"__proto__\"},{\"type\":\"toString\"}]}]}]}",
                "{\"type\":\"doc\",\"content\":[{\"type\":\"hasOwnProperty\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"own node\"}]}]}",
                doc("After them"));
        for (String message : messages) {
            herald.notification(project).message(message).save();
        }
        browser.open(pages.page(key.key(), false, null));
        items(messages.size());
        String text = ((JsonString) browser.script(SHADOW + "return root.querySelector('[part=panel]').textContent")).getString();
        for (String shown : List.of("ctor node", "proto mark", "own node", "After them")) {
            assertThat(text, containsString(shown));
        }
        assertThat(browser.script("return window.__events.filter((e) => e.type !== 'herald-update').length"),
                   is(Json.createValue(0)));
        assertThat(browser.script("""
                const box = document.createElement('div');
                box.append(Herald.renderMessage({type: 'doc', content: [{type: 'constructor', content: [
                  {type: 'text', text: 'x', marks: [{type: 'valueOf'}]}]}]}));
                return box.innerHTML;"""), is(Json.createValue("x")));
    }

    /** A notification whose rendering fails is left out and reported once; the others show. */
    @Test
    void aNotificationThatCannotBeRenderedIsLeftOutAndReportedOnce() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String failing = herald.notification(project).message(doc("cannot render")).save().id();
        herald.notification(project).message(doc("renders")).save();
        browser.open(pages.page(key.key(), false, null));
        items(2);
        // A page whose DOM fails for one text (as a page with Trusted Types refuses the HTML parser); each attribute
        // change renders the list again.
        browser.script("""
                const create = document.createTextNode.bind(document);
                document.createTextNode = (data) => {
                  if (data === 'cannot render') throw new Error('refused');
                  return create(data);
                };
                const widget = document.getElementById('widget');
                widget.setAttribute('action-text', 'Read');
                widget.setAttribute('action-text', 'Read more');""");
        List<String> shown = items(1);
        assertThat(shown.contains(failing), is(false));
        assertThat(browser.script("return window.__events.filter((e) => e.type === 'herald-skipped').map((e) => e.id)"),
                   is(Json.createArrayBuilder().add(failing).build()));
        assertThat(browser.script("return window.__events.filter((e) => e.type === 'herald-error').length"),
                   is(Json.createValue(0)));
    }

    /** A well-formed key that the server refuses: the panel says the announcements are unavailable, once warned. */
    @Test
    void aKeyTheServerRefusesSaysSoInThePanelAndOnceInTheConsole() {
        browser.open(pages.page(TestHerald.randomKey(), false, null));
        JsonArray events = waitFor(() -> (JsonArray) browser.script("return window.__events"),
                                   found -> !found.isEmpty(), 10_000);
        assertThat(events.getJsonObject(0).getString("type"), is("herald-error"));
        assertThat(events.getJsonObject(0).getInt("status"), is(401));
        // The server's code tells a revoked key from an expired token, which a page answers with a fresh token.
        assertThat(events.getJsonObject(0).getString("code"), is("INVALID_API_KEY"));
        assertThat(browser.script(SHADOW + "return root.querySelector('[part~=error]').textContent"),
                   is(Json.createValue("Announcements are unavailable.")));
        assertThat(browser.script(SHADOW + "return root.querySelectorAll('[part~=item]').length"), is(Json.createValue(0)));
        assertThat(browser.script("return window.__warnings"), is(Json.createArrayBuilder()
                .add("Herald: api-key refused (401)").build()));
        browser.script("document.getElementById('widget').setAttribute('error-text', 'No news today.')");
        assertThat(browser.script(SHADOW + "return root.querySelector('[part~=error]').textContent"),
                   is(Json.createValue("No news today.")));
    }

    @Test
    void anImpressionCountsOnlyOnceSeenForASecondAndOnlyOnce() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = herald.notification(project).message(doc("Seen?")).save().id();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        browser.pause(2000);
        assertThat("closed panel: nothing seen", stored(id, "impression", 0, 1500), is(0L));

        browser.script(SHADOW + "root.host.open(); setTimeout(() => root.host.close(), 400);");
        browser.pause(1500);
        assertThat("visible for 0.4 s only", stored(id, "impression", 0, 1500), is(0L));

        browser.script(SHADOW + "root.host.open();");
        assertThat("visible for a second", stored(id, "impression", 1, 5000), is(1L));
        browser.open(pages.page(key.key(), false, null));
        items(1);
        browser.script(SHADOW + "root.host.open();");
        browser.pause(2500);
        assertThat("once per browser, after a reload too", stored(id, "impression", 2, 1500), is(1L));
    }

    @Test
    void aClickOnTheCallToActionIsInTheStats() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = herald.notification(project).message(doc("Sale"))
                .action(new Action(Action.Type.LINK, "https://example.com/sale", "_blank")).save().id();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        JsonObject link = (JsonObject) browser.script(SHADOW + """
                root.host.open();
                const a = root.querySelector('a[part~=action]');
                a.addEventListener('click', (e) => e.preventDefault());
                a.click();
                return {href: a.href, target: a.target, rel: a.rel};""");
        assertThat(link.getString("href"), is("https://example.com/sale"));
        assertThat(link.getString("rel"), is("noopener noreferrer"));
        assertThat(stored(id, "click", 1, 5000), is(1L));
    }

    /**
     * A link's button says the announcement's own label where it has one, over the page's action-text; else the
     * page's action-text, else "Learn more". Each item carries its preset as a part, for the page to style.
     */
    @Test
    void aLinksOwnLabelWinsOverTheActionTextAndTheItemCarriesItsPresetAsAPart() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Labelled"))
                .action(new Action(Action.Type.LINK, "https://example.com/notes", "_blank", "Read the notes"))
                .preset("banner").createdAt(TestHerald.START.minusSeconds(5)).save();
        herald.notification(project).message(doc("Unlabelled"))
                .action(new Action(Action.Type.LINK, "https://example.com/sale", "_blank")).save();
        browser.open(pages.page(key.key(), false, null));
        items(2);
        String labels = SHADOW + "return [...root.querySelectorAll('a[part~=action]')].map((a) => a.textContent)";
        assertThat(browser.script(labels), is(Json.createArrayBuilder().add("Learn more").add("Read the notes").build()));
        browser.script("document.getElementById('widget').setAttribute('action-text', 'Shop now')");
        assertThat(browser.script(labels), is(Json.createArrayBuilder().add("Shop now").add("Read the notes").build()));
        assertThat(browser.script(SHADOW + "return [...root.querySelectorAll('article')].map((a) => a.part.value)"),
                   is(Json.createArrayBuilder().add("item preset-default").add("item preset-banner").build()));
    }

    @Test
    void closeDismissesTheNotificationInThisBrowserForGood() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String closable = herald.notification(project).message(doc("Closable"))
                .action(new Action(Action.Type.CLOSE, null, null)).createdAt(TestHerald.START.minusSeconds(5)).save().id();
        String other = herald.notification(project).message(doc("Stays")).save().id();
        browser.open(pages.page(key.key(), false, null));
        assertThat(items(2), is(List.of(other, closable)));
        browser.script(SHADOW + "root.host.open(); root.querySelector('button[part~=dismiss]').click();");
        assertThat(items(1), is(List.of(other)));
        browser.open(pages.page(key.key(), false, null));
        assertThat(items(1), is(List.of(other)));
        assertThat(stored(closable, "click", 1, 5000), is(1L));
    }

    /**
     * A poll that brings something new must not take the panel from under the user's hand: the items it did not
     * change stay the same elements, so a button pressed before the answer and released after it is clicked, and the
     * focus on it stays where it was. (The widget once rebuilt every item on each change: the press and the release
     * then fell on two different buttons, the browser fired no click, and the dismissal was silently lost.)
     */
    @Test
    void aDismissPressedWhileAPollAddsAnItemIsClicked() {
        Project project = herald.project();
        String closable = pageWithOneClosable(project, "Press me");
        browser.script(SHADOW + "root.host.open();");
        JsonObject centre = (JsonObject) browser.script(SHADOW + "const r = root.querySelector('[data-id=\"' + arguments[0]"
                + " + '\"] [part~=dismiss]').getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2};",
                closable);
        double x = centre.getJsonNumber("x").doubleValue();
        double y = centre.getJsonNumber("y").doubleValue();
        browser.mouse("mousePressed", x, y);
        // Older, so below it: the button stays where the hand is.
        String added = herald.notification(project).message(doc("Published meanwhile"))
                .createdAt(TestHerald.START.minusSeconds(120)).save().id();
        assertThat(items(2), is(List.of(closable, added)));
        browser.mouse("mouseReleased", x, y);
        assertThat(items(1), is(List.of(added)));
    }

    @Test
    void theFocusOnAnItemsButtonOutlivesAPollThatAddsAnItem() {
        Project project = herald.project();
        String closable = pageWithOneClosable(project, "Focus me");
        String focused = SHADOW + "const f = root.activeElement; return f ? f.closest('[data-id]')?.dataset.id + ' '"
                + " + f.getAttribute('part') : 'nothing';";
        browser.script(SHADOW + "root.host.open();");
        browser.press("Tab", 9, false);
        assertThat(browser.script(focused), is(Json.createValue(closable + " action dismiss")));
        String added = herald.notification(project).message(doc("Published meanwhile")).save().id();
        assertThat(items(2), is(List.of(added, closable)));
        assertThat(browser.script(focused), is(Json.createValue(closable + " action dismiss")));
        browser.press("Enter", 13, false);
        assertThat(items(1), is(List.of(added)));
    }

    /** One failed poll's error leaves the panel at the next good poll, even one that finds nothing changed (304). */
    @Test
    void aFailedPollsErrorGoesAtTheNextGoodPollThoughNothingChanged() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        browser.open(pages.page(key.key(), false, 5));
        waitFor(() -> (JsonArray) browser.script("return window.__events"), found -> found.size() >= 1, 10_000);
        String note = SHADOW + "return root.querySelector('[part~=empty]').getAttribute('part')";
        assertThat(browser.script(note), is(Json.createValue("empty")));
        browser.script("window.__failNextFeed = true");
        waitFor(() -> (JsonArray) browser.script("return window.__events.filter((e) => e.type === 'herald-error')"),
                found -> found.size() == 1, 10_000);
        assertThat(browser.script(note), is(Json.createValue("empty error")));
        JsonArray events = waitFor(() -> (JsonArray) browser.script("return window.__events"),
                                   found -> found.getJsonObject(found.size() - 1).getString("type").equals("herald-update"),
                                   15_000);
        assertThat(events.getJsonObject(events.size() - 1).getBoolean("notModified"), is(true));
        assertThat(browser.script(note), is(Json.createValue("empty")));
    }

    /** Another tab of the same site dismissed one after this page read its list: both dismissals are kept. */
    @Test
    void aDismissalInAnotherTabIsKeptWhenThisOneDismissesToo() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String here = herald.notification(project).message(doc("Dismissed here")).action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        String there = herald.notification(project).message(doc("Dismissed there")).action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(120)).save().id();
        browser.open(pages.page(key.key(), false, null));
        assertThat(items(2), is(List.of(here, there)));
        browser.script("localStorage.setItem('herald:dismissed', JSON.stringify([arguments[0]]))", there);
        browser.script(SHADOW + "root.host.open(); root.querySelector('[data-id=\"' + arguments[0]"
                       + " + '\"] [part~=dismiss]').click();", here);
        // Read again at the write: this page now knows the other tab's dismissal too.
        assertThat(items(0), is(empty()));
        assertThat(browser.script("return JSON.parse(localStorage.getItem('herald:dismissed'))"),
                   is(Json.createArrayBuilder().add(there).add(here).build()));
        browser.open(pages.page(key.key(), false, null));
        waitFor(() -> (JsonArray) browser.script("return window.__events"), found -> found.size() >= 1, 10_000);
        assertThat(items(0), is(empty()));
    }

    /** The tab was hidden before its second of sight had passed: once shown again, the second counts from then. */
    @Test
    void anImpressionInterruptedByAHiddenTabCountsOnceTheTabIsBack() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = herald.notification(project).message(doc("Seen after a detour")).save().id();
        browser.open(pages.page(key.key(), false, null));
        assertThat(items(1), is(List.of(id)));
        browser.script(SHADOW + "root.host.open();"
                + "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
                + "setTimeout(() => document.dispatchEvent(new Event('visibilitychange')), 300);");
        browser.pause(1500);
        assertThat(stored(id, "impression", 0, 0), is(0L));
        browser.script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
                + "document.dispatchEvent(new Event('visibilitychange'));");
        assertThat(stored(id, "impression", 1, 6000), is(1L));
    }

    /** A page polling every 5 s that shows one notification of the project, closable; its id. */
    private static String pageWithOneClosable(Project project, String text) {
        ApiKey key = herald.key(project);
        String closable = herald.notification(project).message(doc(text)).action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        browser.open(pages.page(key.key(), false, 5));
        assertThat(items(1), is(List.of(closable)));
        return closable;
    }

    @Test
    void pollsRevalidateWithTheEtagAndGet304() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Polled")).save();
        browser.open(pages.page(key.key(), false, 5));
        items(1);
        JsonArray events = waitFor(() -> (JsonArray) browser.script("return window.__events"),
                                   found -> found.size() >= 2, 12_000);
        assertThat(events.getJsonObject(0).getBoolean("notModified"), is(false));
        assertThat(events.getJsonObject(1).getBoolean("notModified"), is(true));
        // The client API on its own: the second fetch sends If-None-Match itself (through CORS) and gets 304.
        JsonValue flags = browser.await("""
                const client = Herald.createClient({apiKey: arguments[0], baseUrl: arguments[1]});
                const first = await client.fetch();
                const second = await client.fetch();
                return [first.notModified, second.notModified, second.notifications.length];""",
                key.key(), server.uri().toString());
        assertThat(flags.toString(), is("[false,true,1]"));
    }

    @Test
    void theDocumentedEmbedAsksOnceAndAgainOnlyWhenItsTimeHasCome() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Embedded")).save();
        String feedRequests = "return performance.getEntriesByType('resource')"
                + ".filter((e) => e.name.includes('/notifications')).length";
        browser.open(pages.embedPage(key.key()));
        items(1);
        browser.pause(1000);
        assertThat("one request for the markup's three attributes", browser.script(feedRequests), is(Json.createValue(1)));
        // Taken out of the page and put back (a framework re-rendering): no new request before the interval is up.
        browser.script(SHADOW + "const host = root.host; const parent = host.parentNode; host.remove();"
                + " parent.append(host); host.remove(); parent.append(host);");
        browser.pause(1000);
        assertThat(browser.script(feedRequests), is(Json.createValue(1)));
        assertThat(browser.script(SHADOW + "return root.querySelector('.launcher').getAttribute('aria-label')"),
                   is(Json.createValue("News, 1 unread")));
    }

    @Test
    void aHiddenTabDoesNotPollAndPollsOnceShownAgain() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Hidden")).save();
        browser.open(pages.page(key.key(), false, 5));
        int before = waitFor(() -> (JsonArray) browser.script("return window.__events"), found -> found.size() >= 1, 5000)
                .size();
        // What the browser reports for a tab in the background, told to the page the way the browser tells it.
        browser.script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
                + "document.dispatchEvent(new Event('visibilitychange'));");
        browser.pause(7000);
        assertThat("no poll while hidden", ((JsonArray) browser.script("return window.__events")).size(), is(before + 0));
        browser.script("Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
                + "document.dispatchEvent(new Event('visibilitychange'));");
        waitFor(() -> (JsonArray) browser.script("return window.__events"), found -> found.size() == before + 1, 10_000);
    }

    /** The client API's refusal carries the server's code, and none where the answer is not Herald's JSON. */
    @Test
    void theClientApiRejectsWithTheStatusAndTheServersCode() {
        browser.open(pages.page(herald.key(herald.project()).key(), false, null));
        items(0);
        JsonValue refused = browser.await("""
                return Herald.createClient({apiKey: arguments[0], baseUrl: arguments[1]}).fetch()
                    .then(() => 'served', (e) => [e.status, e.code, e.message]);""",
                TestHerald.randomKey(), server.uri().toString());
        assertThat(refused, is(Json.createArrayBuilder().add(401).add("INVALID_API_KEY").add("Herald answered 401")
                                       .build()));
        // A proxy in front answering in HTML, as nginx's own 502 page does.
        JsonValue proxied = browser.await("""
                const fetch = window.fetch;
                window.fetch = () => Promise.resolve(new Response('<html>Bad Gateway</html>', {status: 502}));
                try {
                  return await Herald.createClient({apiKey: arguments[0]}).fetch()
                      .then(() => 'served', (e) => [e.status, e.code, e.message]);
                } finally {
                  window.fetch = fetch;
                }""", TestHerald.randomKey());
        assertThat(proxied, is(Json.createArrayBuilder().add(502).addNull().add("Herald answered 502").build()));
    }

    @Test
    void aConversionGoesToTheEnhancedEndpointWithItsMetadataAndTime() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = herald.notification(project).message(doc("Upgrade")).save().id();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        // The test server's clock stands at TestHerald.START: the timestamp must lie in its window.
        browser.script("Herald.createClient({apiKey: arguments[0], baseUrl: arguments[1]})"
                + ".trackConversion(arguments[2], {plan: 'pro'}, arguments[3]);",
                key.key(), server.uri().toString(), id, TestHerald.START.toEpochMilli());
        assertThat(stored(id, "conversion", 1, 5000), is(1L));
        TestHerald.StoredInteraction conversion = herald.interactions(id).getFirst();
        assertThat(conversion.endpoint(), is("enhanced"));
        assertThat(conversion.metadata(), is("{\"plan\":\"pro\"}"));
        assertThat(conversion.occurredAt(), is(TestHerald.START.toEpochMilli()));
    }

    @Test
    void tooManyRequestsBacksOffForAtLeastRetryAfter() throws Exception {
        try (TestDatabase own = TestDatabase.h2();
             MainBuiltServer limited = MainBuiltServer.start(own, Map.of("rate-limit.requests", "1",
                                                                         "rate-limit.window", "PT30S"));
             HostPages limitedPages = new HostPages(limited.uri())) {
            TestHerald other = limited.herald();
            Project project = other.project();
            ApiKey key = other.key(project);
            other.notification(project).message(doc("Limited")).save();
            // The first poll is the window's one request; the second, 5 s later, is refused for the rest of 30 s.
            browser.open(limitedPages.page(key.key(), false, 5));
            JsonArray events = waitFor(() -> (JsonArray) browser.script("return window.__events"),
                                       found -> found.size() >= 2, 12_000);
            assertThat(events.getJsonObject(0).getString("type"), is("herald-update"));
            JsonObject error = events.getJsonObject(1);
            assertThat(error.getString("type"), is("herald-error"));
            assertThat(error.getInt("status"), is(429));
            assertThat(((JsonNumber) error.get("retryIn")).doubleValue(), greaterThanOrEqualTo(20.0));
            browser.pause(7000);
            assertThat("no request before Retry-After", ((JsonArray) browser.script("return window.__events")).size(), is(2));
        }
    }

    /** An announcement's image is described to screen readers by its imageAlt; one without it is decoration. */
    @Test
    void anImageIsShownWithItsDescriptionAsAltAndWithoutOneAsDecoration() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Described")).image("https://example.invalid/shoe.png")
                .imageAlt("A blue running shoe, side view").createdAt(TestHerald.START.minusSeconds(2)).save();
        herald.notification(project).message(doc("Decoration")).image("https://example.invalid/confetti.png")
                .createdAt(TestHerald.START.minusSeconds(1)).save();
        browser.open(pages.page(key.key(), false, null));
        items(2);
        JsonValue alts = browser.script(SHADOW + """
                return [...root.querySelectorAll('[part~=item]')].map((item) => {
                  const image = item.querySelector('[part=image]');
                  return [item.querySelector('.message').textContent, image.getAttribute('alt')];
                });""");
        assertThat(alts.toString(), is("[[\"Decoration\",\"\"],[\"Described\",\"A blue running shoe, side view\"]]"));
        assertThat("the host page's strict policy reported nothing", browser.script("return window.__violations")
                .toString(), is("[]"));
    }

    @Test
    void theStrictPolicyPageLogsNoViolation() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Under CSP")).image("https://example.invalid/picture.png")
                .action(new Action(Action.Type.LINK, "https://example.com/", "_blank")).save();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        browser.script(SHADOW + "root.host.open();");
        browser.pause(800);
        assertThat(browser.script("return window.__violations").toString(), is("[]"));
        // The styles did apply: constructable style sheets are not blocked by style-src 'self'.
        assertThat(browser.script(SHADOW + "return getComputedStyle(root.querySelector('.launcher')).borderRadius"),
                   is(Json.createValue("50%")));
        // And as an ES module imported straight from Herald by a page of another origin.
        browser.open(pages.modulePage());
        JsonValue module = waitFor(() -> browser.script("return window.__module || null"),
                                   value -> value != JsonValue.NULL, 5000);
        assertThat(module.toString(), is("[\"function\",\"function\",\"function\",\"function\",\"true\"]"));
        assertThat(browser.script("return window.__violations").toString(), is("[]"));
    }

    /**
     * The page places, layers and hides the element as any element: its :host rules were !important, which wins over
     * the page's own rules from inside a shadow root, so a floating bell stayed where it was.
     */
    @Test
    void aPageCanPlaceLayerAndHideTheElement() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Floating")).save();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        JsonObject placed = (JsonObject) browser.script("""
                const widget = document.getElementById('widget');
                Object.assign(widget.style, {position: 'fixed', right: '16px', top: '16px', zIndex: '7', margin: '0'});
                const box = widget.getBoundingClientRect();
                const style = getComputedStyle(widget);
                return {right: document.documentElement.clientWidth - box.right, top: box.top, position: style.position,
                        zIndex: style.zIndex};""");
        assertThat(placed.toString(), placed.getJsonNumber("right").doubleValue(), is(16.0));
        assertThat(placed.toString(), placed.getJsonNumber("top").doubleValue(), is(16.0));
        assertThat(placed.getString("position"), is("fixed"));
        assertThat(placed.getString("zIndex"), is("7"));
        // Opened there, the panel is under the bell and inside the screen.
        JsonObject panel = (JsonObject) browser.script(SHADOW + """
                root.host.open();
                const box = root.querySelector('[part=panel]').getBoundingClientRect();
                return {left: box.left, right: box.right, top: box.top, width: document.documentElement.clientWidth};""");
        assertThat(panel.toString(), panel.getJsonNumber("left").doubleValue(), greaterThanOrEqualTo(0.0));
        assertThat(panel.toString(), panel.getJsonNumber("right").doubleValue(),
                   lessThanOrEqualTo(panel.getJsonNumber("width").doubleValue()));
        assertThat(browser.script(SHADOW + """
                root.host.style.display = 'none';
                return [root.host.getBoundingClientRect().width, root.querySelector('.launcher').getClientRects().length];"""),
                   is(Json.createArrayBuilder().add(0).add(0).build()));
    }

    /**
     * Wherever the page puts the bell, the open panel is whole on the screen, beside the bell (below, or above where
     * there is no room), follows the bell as the page scrolls or the window changes, and its notifications count as
     * seen. It was anchored to the bell's right edge: from a bell at the left edge it opened at x = -312 px, where
     * nothing is read and no impression is recorded.
     */
    @Test
    void thePanelOpensOnTheScreenWhereverTheBellIsAndItsNotificationsAreSeen() throws Exception {
        String fixed = "Object.assign(document.getElementById('widget').style, {position: 'fixed', margin: '0', %s});";
        String rtl = "document.documentElement.dir = 'rtl';";
        List<Placement> placements = List.of(
                new Placement("top left", 0, fixed.formatted("left: '0', top: '0'"), null, 0),
                new Placement("a left-aligned top bar", 0, fixed.formatted("left: '100px', top: '10px'"), null, 0, "left"),
                new Placement("top", 0, fixed.formatted("left: '50%', top: '0'"), null, 0, "right"),
                // The window shrinks while the panel is open, and the bell with it.
                new Placement("top right", 0, fixed.formatted("right: '0', top: '0'"), "resize", 0),
                new Placement("right", 0, fixed.formatted("right: '0', top: '50%'"), null, 0),
                new Placement("bottom right", 0, fixed.formatted("right: '0', bottom: '0'"), null, 0),
                new Placement("bottom", 0, fixed.formatted("left: '50%', bottom: '0'"), null, 0),
                new Placement("bottom left", 0, fixed.formatted("left: '0', bottom: '0'"), null, 0),
                new Placement("left", 0, fixed.formatted("left: '0', top: '50%'"), null, 0),
                new Placement("320 px, top left", 320, fixed.formatted("left: '4px', top: '4px'"), null, 0),
                new Placement("320 px, bottom right", 320, fixed.formatted("right: '4px', bottom: '4px'"), null, 0),
                new Placement("right to left, in the text", 0, rtl, null, 0),
                new Placement("right to left, top", 0, rtl + fixed.formatted("left: '50%', top: '0'"), null, 0, "left"),
                new Placement("right to left, left edge", 0, rtl + fixed.formatted("left: '0', top: '0'"), null, 0),
                // A long page, scrolled so that the bell, in the text, is at the bottom of the screen; then further.
                new Placement("page scrolled", 0, """
                        const widget = document.getElementById('widget');
                        for (const where of ['before', 'after']) {
                          const filler = document.createElement('div');
                          filler.style.height = '3000px';
                          widget[where](filler);
                        }
                        scrollTo(0, widget.getBoundingClientRect().bottom + scrollY - innerHeight + 4);""",
                              "scrollBy(0, 100);", -100),
                // A box of the page that scrolls, with the bell inside; then scrolled back a little.
                new Placement("scrolling box", 0, """
                        const box = document.createElement('div');
                        box.id = 'box';
                        Object.assign(box.style, {position: 'absolute', left: '0', top: '200px', width: '300px',
                                                  height: '250px', overflow: 'auto'});
                        const [above, below] = [document.createElement('div'), document.createElement('div')];
                        above.style.height = below.style.height = '1000px';
                        box.append(above, document.getElementById('widget'), below);
                        document.body.append(box);
                        box.scrollTop = 1000 - 20;""", "document.getElementById('box').scrollTop -= 100;", 100),
                // A transformed ancestor is the containing block of fixed elements: the panel stays by the bell.
                new Placement("transformed ancestor", 0, """
                        const box = document.createElement('div');
                        Object.assign(box.style, {position: 'absolute', left: '100px', top: '100px',
                                                  transform: 'translate(30px, 20px)'});
                        box.append(document.getElementById('widget'));
                        document.body.append(box);""", null, 0));
        for (Placement placement : placements) {
            Project project = herald.project();
            ApiKey key = herald.key(project);
            List<String> ids = List.of(herald.notification(project).message(doc(placement.name() + ": one")).save().id(),
                                       herald.notification(project).message(doc(placement.name() + ": two")).save().id());
            if (placement.width() > 0) {
                browser.viewport(placement.width(), 640, true);
            }
            try {
                browser.open(pages.page(key.key(), false, null));
                items(2);
                browser.script(placement.layout());
                browser.script(SHADOW + "root.host.open();");
                JsonObject opened = panelAndBell(placement.name());
                if (placement.align() != null) {
                    assertThat(placement.name() + " aligned " + placement.align() + ": " + opened,
                               opened.getJsonNumber(placement.align()).doubleValue(),
                               is(opened.getJsonNumber("bell" + (placement.align().equals("left") ? "Left" : "Right"))
                                          .doubleValue()));
                }
                if (placement.name().equals("transformed ancestor")) {
                    assertThat(opened.toString(), opened.getJsonNumber("top").doubleValue()
                               - opened.getJsonNumber("bellBottom").doubleValue(), is(8.0));
                }
                if ("resize".equals(placement.move())) {
                    browser.viewport(500, 400, false);
                    assertThat(placement.name(), panelAndBell(placement.name() + ", resized").getJsonNumber("right")
                            .doubleValue(), greaterThan(400.0));
                } else if (placement.move() != null) {
                    browser.script(placement.move());
                    JsonObject moved = panelAndBell(placement.name() + ", moved");
                    assertThat(placement.name() + " follows the bell", moved.getJsonNumber("top").doubleValue()
                               - opened.getJsonNumber("top").doubleValue(), is(placement.moved()));
                }
                for (String id : ids) {
                    assertThat(placement.name() + ": each notification seen", stored(id, "impression", 1, 5000), is(1L));
                }
            } finally {
                browser.resetViewport();
            }
        }
    }

    /**
     * Where the page puts the bell ({@code layout}, in a window {@code width} wide, 0 for the usual), what then moves
     * it and by how much, and to which of the bell's edges the panel is aligned when it has room ({@code left},
     * {@code right}, or {@code null} for either).
     */
    private record Placement(String name, int width, String layout, String move, double moved, String align) {
        Placement(String name, int width, String layout, String move, double moved) {
            this(name, width, layout, move, moved, null);
        }
    }

    /** The open panel's and the bell's rects, once asserted whole on the screen and apart. */
    private static JsonObject panelAndBell(String placement) {
        browser.pause(100);
        JsonObject box = (JsonObject) browser.script(SHADOW + """
                const panel = root.querySelector('[part=panel]').getBoundingClientRect();
                const bell = root.querySelector('.launcher').getBoundingClientRect();
                return {left: panel.left, top: panel.top, right: panel.right, bottom: panel.bottom,
                        bellTop: bell.top, bellBottom: bell.bottom, bellLeft: bell.left, bellRight: bell.right,
                        width: innerWidth, height: innerHeight,
                        hidden: root.querySelector('[part=panel]').hidden};""");
        String seen = placement + ": " + box;
        assertThat(seen, box.getBoolean("hidden"), is(false));
        assertThat(seen, box.getJsonNumber("left").doubleValue(), greaterThanOrEqualTo(0.0));
        assertThat(seen, box.getJsonNumber("top").doubleValue(), greaterThanOrEqualTo(0.0));
        assertThat(seen, box.getJsonNumber("right").doubleValue(), lessThanOrEqualTo(box.getJsonNumber("width").doubleValue()));
        assertThat(seen, box.getJsonNumber("bottom").doubleValue(),
                   lessThanOrEqualTo(box.getJsonNumber("height").doubleValue()));
        boolean apart = box.getJsonNumber("top").doubleValue() >= box.getJsonNumber("bellBottom").doubleValue()
                || box.getJsonNumber("bottom").doubleValue() <= box.getJsonNumber("bellTop").doubleValue();
        assertThat(seen + ": beside the bell, not over it", apart, is(true));
        return box;
    }

    @Test
    void hostileHostCssChangesNothingInTheWidget() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Styled?"))
                .action(new Action(Action.Type.CLOSE, null, null)).save();
        String styles = """
                const root = document.getElementById('widget').shadowRoot;
                root.host.open();
                const props = ['color', 'font-size', 'font-family', 'font-weight', 'line-height', 'letter-spacing',
                  'background-color', 'border-top-width', 'border-top-style', 'padding-top', 'margin-top', 'width',
                  'height', 'display', 'text-transform', 'box-sizing', 'border-radius'];
                return ['.launcher', '[part=panel]', '[part~=item]', '.message p', 'button[part~=action]', 'h2']
                  .map((s) => s + ' ' + props.map((p) => p + '=' + getComputedStyle(root.querySelector(s))
                                                  .getPropertyValue(p)).join(';'));""";
        browser.open(pages.page(key.key(), false, null));
        items(1);
        List<String> plain = Chromium.strings(browser.script(styles));
        browser.open(pages.page(key.key(), true, null));
        items(1);
        assertThat("the hostile sheet is in force on the page", browser.script(
                "return getComputedStyle(document.querySelector('body > p')).textTransform"), is(Json.createValue("uppercase")));
        assertThat(Chromium.strings(browser.script(styles)), is(plain));
    }

    @Test
    void thePanelMovesOnlyWhereTheUserAllowsMotion() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Moving?")).save();
        List<String> animations = new ArrayList<>();
        try {
            for (String motion : List.of("no-preference", "reduce")) {
                browser.emulateMedia("prefers-reduced-motion", motion);
                browser.open(pages.page(key.key(), false, null));
                items(1);
                animations.add(Chromium.text(browser.script(SHADOW
                        + "root.host.open(); return getComputedStyle(root.querySelector('[part=panel]')).animationName")));
            }
        } finally {
            browser.emulateMedia(null, null);
        }
        assertThat(animations, is(List.of("in", "none")));
    }

    @Test
    void keyboardReachesItKeepsFocusInTheOpenPanelAndEscapeCloses() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message(doc("Keys"))
                .action(new Action(Action.Type.LINK, "https://example.com/", "_blank")).save();
        browser.open(pages.page(key.key(), false, null));
        items(1);
        browser.script(SHADOW + "root.querySelector('.launcher').focus();");
        browser.press("Enter", 13, false);
        String focused = SHADOW + "return (root.activeElement && root.activeElement.getAttribute('part')) || 'outside'";
        assertThat(browser.script(SHADOW + "return root.querySelector('[part=panel]').hidden"), is(JsonValue.FALSE));
        assertThat(browser.script(focused), is(Json.createValue("close")));
        assertThat(browser.script(SHADOW + "return root.querySelector('.launcher').getAttribute('aria-expanded')"),
                   is(Json.createValue("true")));
        List<String> visited = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            browser.press("Tab", 9, false);
            visited.add(Chromium.text(browser.script(focused)));
        }
        assertThat(visited, is(List.of("action", "close", "action", "close", "action")));
        browser.press("Tab", 9, true);
        assertThat(browser.script(focused), is(Json.createValue("close")));
        browser.press("Escape", 27, false);
        assertThat(browser.script(SHADOW + "return root.querySelector('[part=panel]').hidden"), is(JsonValue.TRUE));
        assertThat(browser.script(focused), is(Json.createValue("launcher")));
        assertThat(browser.script(SHADOW + "const p = root.querySelector('[part=panel]'); return [p.getAttribute('role'),"
                + " root.getElementById(p.getAttribute('aria-labelledby')).textContent].join(' ')"),
                   is(Json.createValue("dialog Announcements")));
    }

    @Test
    void screenshotsOfTheDemoInLightDarkAndOnA320PixelPhone() throws IOException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).createdAt(TestHerald.START.minusSeconds(60)).message("""
                {"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Saved filters are here"}]},
                {"type":"paragraph","content":[{"type":"text","text":"Keep any view of a report as a "},{"type":"text","marks":[{"type":"bold"}],"text":"saved filter"},
                {"type":"text","text":" and share it with your team. "},{"type":"text","marks":[{"type":"link","attrs":{"href":"https://example.com/docs"}}],"text":"Read the guide"}]}]}""")
                .action(new Action(Action.Type.LINK, "https://example.com/filters", "_blank")).save();
        herald.notification(project).message("""
                {"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Maintenance on Sunday"}]},
                {"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"02:00 to 02:30 UTC"}]}]},
                {"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"Dashboards stay readable"}]}]}]}]}""")
                .action(new Action(Action.Type.CLOSE, null, null)).save();
        Files.createDirectories(SCREENSHOTS);
        String demo = server.uri() + "/sdk/v1/demo.html?key=" + key.key();
        for (String scheme : List.of("light", "dark")) {
            browser.emulateMedia("prefers-color-scheme", scheme);
            browser.open(demo);
            items(2);
            browser.script(SHADOW + "root.host.open();");
            browser.pause(400);
            assertThat(browser.script(SHADOW + "return matchMedia('(prefers-color-scheme: dark)').matches"),
                       is(scheme.equals("dark") ? JsonValue.TRUE : JsonValue.FALSE));
            save("browser-" + scheme + ".png", browser.screenshot());
        }
        // The bell at the left end of the bar: the panel aligns to its left edge.
        browser.emulateMedia("prefers-color-scheme", "light");
        browser.open(demo);
        items(2);
        browser.script(SHADOW + "root.host.parentNode.prepend(root.host); root.host.open();");
        browser.pause(400);
        JsonArray left = (JsonArray) browser.script(SHADOW + "return [root.querySelector('[part=panel]')"
                + ".getBoundingClientRect().left, root.querySelector('.launcher').getBoundingClientRect().left]");
        assertThat(left.toString(), left.getJsonNumber(0).doubleValue(), is(left.getJsonNumber(1).doubleValue()));
        save("browser-left.png", browser.screenshot());
        browser.viewport(320, 640, true);
        try {
            browser.open(demo);
            items(2);
            browser.script(SHADOW + "root.host.open();");
            browser.pause(400);
            JsonObject box = (JsonObject) browser.script(SHADOW + """
                    const r = root.querySelector('[part=panel]').getBoundingClientRect();
                    const text = root.querySelector('.message');
                    return {left: r.left, right: r.right, width: innerWidth,
                            overflow: text.scrollWidth - text.clientWidth};""");
            assertThat(((JsonNumber) box.get("left")).doubleValue(), greaterThanOrEqualTo(0.0));
            assertThat(((JsonNumber) box.get("right")).doubleValue(), lessThanOrEqualTo(320.0));
            assertThat("no text cut off sideways", ((JsonNumber) box.get("overflow")).intValue(), is(0));
            save("browser-320px.png", browser.screenshot());
        } finally {
            browser.resetViewport();
        }
    }

    private static void save(String name, byte[] png) throws IOException {
        assertThat("a PNG of some substance", png.length, greaterThan(10_000));
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
