package dev.herald.browser;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Action;
import dev.herald.project.Project;
import dev.herald.support.TestHerald;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The widget in the reader's language (issue 32, docs/browser.md#languages), in headless Chromium against a real
 * Herald on H2: the panel's lang and dir from the feed's Content-Language, an entry in another language with its own,
 * the widget's own words by lookup of the served language, the page's attributes over them, the layout mirrored, the
 * keyboard as in any language, and the language each tracking body says was shown.
 */
class BrowserWidgetLanguagesTest extends WidgetBrowserTest {

    /**
     * Asked for Arabic (the locale attribute): the panel is Arabic and right to left, in its own words too; the entry
     * that has no Arabic text says it is English and is left to right inside it; the close button is at the left; the
     * keyboard goes round the panel as ever; each impression and click says the language shown.
     */
    @Test
    void aFeedServedInArabicIsRightToLeftInArabicWordsAndAnEnglishEntryInsideKeepsItsOwnDirection() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String english = herald.notification(project).message(doc("Only in English"))
                .action(new Action(Action.Type.LINK, "https://example.com/en", "_blank"))
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        String translated = herald.notification(project).message(doc("Version 2 is here"))
                .action(new Action(Action.Type.LINK, "https://example.com/v2", "_blank")).save().id();
        translate(translated, "ar", doc("الإصدار 2 هنا"));

        browser.open(pages.pageIn(key.key(), "ar"));
        items(2);
        JsonObject seen = (JsonObject) browser.script(SHADOW + """
                const panel = root.querySelector('[part=panel]');
                const [first, second] = root.querySelectorAll('article');
                return {lang: panel.lang, dir: panel.dir, title: root.querySelector('[part=title]').textContent,
                        close: root.querySelector('[part=close]').getAttribute('aria-label'),
                        launcher: root.querySelector('[part=launcher]').getAttribute('aria-label'),
                        launcherLang: root.querySelector('[part=launcher]').lang,
                        firstLang: first.getAttribute('lang'), firstDirection: getComputedStyle(first).direction,
                        firstText: first.querySelector('.message').textContent,
                        secondLang: second.getAttribute('lang'), secondDir: second.getAttribute('dir'),
                        secondDirection: getComputedStyle(second).direction,
                        actions: [...root.querySelectorAll('[part~=action]')].map((a) => a.textContent)};""");
        assertThat(seen.toString(), seen.getString("lang"), is("ar"));
        assertThat(seen.getString("dir"), is("rtl"));
        assertThat(seen.getString("title"), is("الإعلانات"));
        assertThat(seen.getString("close"), is("إغلاق"));
        assertThat(seen.getString("launcher"), containsString("غير مقروءة: 2"));
        assertThat(seen.getString("launcherLang"), is("ar"));
        assertThat(seen.get("firstLang"), is(JsonValue.NULL));
        assertThat(seen.getString("firstDirection"), is("rtl"));
        assertThat(seen.getString("firstText"), is("الإصدار 2 هنا"));
        assertThat(seen.getString("secondLang"), is("en"));
        assertThat(seen.getString("secondDir"), is("ltr"));
        assertThat(seen.getString("secondDirection"), is("ltr"));
        String learnMore = "اعرف المزيد";
        assertThat(seen.get("actions"), is(Json.createArrayBuilder().add(learnMore).add(learnMore).build()));

        // Mirrored: the close button left of the title, the Arabic entry's button at the right, the English one's
        // at the left; the badge at the bell's outer corner, the left one on a right-to-left page.
        JsonObject boxes = (JsonObject) browser.script(SHADOW + """
                const box = (e) => e.getBoundingClientRect();
                const [first, second] = root.querySelectorAll('article');
                const bell = () => box(root.querySelector('[part=launcher]'));
                const badge = () => box(root.querySelector('[part=badge]'));
                const [ltrBell, ltrBadge] = [bell(), badge()];
                document.documentElement.dir = 'rtl';
                const [rtlBell, rtlBadge] = [bell(), badge()];
                document.documentElement.dir = '';
                root.host.open();
                return {closeRight: box(root.querySelector('[part=close]')).right,
                        titleLeft: box(root.querySelector('[part=title]')).left,
                        firstRightGap: box(first).right - box(first.querySelector('[part~=action]')).right,
                        secondLeftGap: box(second.querySelector('[part~=action]')).left - box(second).left,
                        ltrBellRight: ltrBell.right, ltrBadgeRight: ltrBadge.right,
                        rtlBellLeft: rtlBell.left, rtlBadgeLeft: rtlBadge.left};""");
        assertThat(boxes.toString(), number(boxes, "closeRight"), lessThanOrEqualTo(number(boxes, "titleLeft")));
        assertThat(boxes.toString(), number(boxes, "firstRightGap"), is(16.0));
        assertThat(boxes.toString(), number(boxes, "secondLeftGap"), is(16.0));
        assertThat(boxes.toString(), number(boxes, "ltrBadgeRight"), greaterThan(number(boxes, "ltrBellRight")));
        assertThat(boxes.toString(), number(boxes, "rtlBadgeLeft"), lessThan(number(boxes, "rtlBellLeft")));

        // Every impression and click says what was shown: the Arabic text, the English entry.
        assertThat(stored(translated, "impression", 1, 5000), is(1L));
        assertThat(stored(english, "impression", 1, 5000), is(1L));
        browser.script(SHADOW + """
                const a = root.querySelectorAll('a[part~=action]')[1];
                a.addEventListener('click', (e) => e.preventDefault());
                a.click();""");
        assertThat(stored(english, "click", 1, 5000), is(1L));
        List<String> beacons = Chromium.strings(browser.script("return window.__beacons"));
        assertThat(beacons.toString(), beacons.size(), is(3));
        assertThat(beacons.toString(), beacons, is(List.of(beacons.get(0), beacons.get(1),
                                                            "{\"type\":\"click\",\"locale\":\"en\"}")));
        assertThat(beacons.toString(), beacons.subList(0, 2).stream().sorted().toList(),
                   is(List.of("{\"type\":\"impression\",\"locale\":\"ar\"}", "{\"type\":\"impression\",\"locale\":\"en\"}")));

        // The keyboard, right to left as left to right: into the panel, round it, out with Escape.
        browser.script(SHADOW + "root.host.close(); root.querySelector('.launcher').focus();");
        browser.press("Enter", 13, false);
        String focused = SHADOW + "return (root.activeElement && root.activeElement.getAttribute('part')) || 'outside'";
        List<String> visited = new java.util.ArrayList<>(List.of(Chromium.text(browser.script(focused))));
        for (int i = 0; i < 3; i++) {
            browser.press("Tab", 9, false);
            visited.add(Chromium.text(browser.script(focused)));
        }
        assertThat(visited, is(List.of("close", "action", "action", "close")));
        browser.press("Escape", 27, false);
        assertThat(browser.script(SHADOW + "return root.querySelector('[part=panel]').hidden"), is(JsonValue.TRUE));
        assertThat(browser.script(focused), is(Json.createValue("launcher")));

        // Another language asked for: asked at once, and all of it follows.
        browser.script("document.getElementById('widget').setAttribute('locale', 'en-GB')");
        waitFor(() -> browser.script(SHADOW + "return root.querySelector('[part=panel]').lang"),
                lang -> lang.equals(Json.createValue("en")), 10_000);
        assertThat(browser.script(SHADOW + """
                return [root.querySelector('[part=panel]').dir, root.querySelector('[part=title]').textContent,
                        ...[...root.querySelectorAll('article')].map((a) => a.getAttribute('lang') + ' '
                                                                     + a.querySelector('.message').textContent)];"""),
                   is(Json.createArrayBuilder().add("ltr").add("Announcements").add("null Version 2 is here")
                              .add("null Only in English").build()));
        // Back to the language asked for first: the server answers 304 for it, and the panel showed the last one,
        // English, whose clicks then said the language that was asked for, not the one shown.
        browser.script("document.getElementById('widget').setAttribute('locale', 'ar')");
        waitFor(() -> browser.script(SHADOW + "return root.querySelector('[part=panel]').lang"),
                lang -> lang.equals(Json.createValue("ar")), 10_000);
        assertThat(browser.script(SHADOW + """
                return [root.querySelector('[part=title]').textContent,
                        ...[...root.querySelectorAll('article')].map((a) => a.querySelector('.message').textContent)];"""),
                   is(Json.createArrayBuilder().add("الإعلانات").add("الإصدار 2 هنا").add("Only in English").build()));
        // On the host page of another origin under its strict Content-Security-Policy: not one report.
        assertThat(browser.script("return window.__violations").toString(), is("[]"));
    }

    /**
     * No locale attribute: the browser's Accept-Language (fr-CA) decides, the server serves French, and the widget
     * says its words in French; the page's attributes still win. An empty French feed says so in French. The client
     * API tells the served language and sends it with what it tracks.
     */
    @Test
    void aFeedServedInFrenchThroughAcceptLanguageSpeaksFrenchAndThePagesAttributesWin() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = herald.notification(project).message(doc("New reports"))
                .action(new Action(Action.Type.LINK, "https://example.com/reports", "_blank")).save().id();
        translate(id, "fr", doc("Nouveaux rapports"));
        Project french = herald.project();
        speaks(french, "fr");
        ApiKey frenchKey = herald.key(french);
        String userAgent = Chromium.text(browser.script("return navigator.userAgent"));
        try {
            acceptLanguage(userAgent, "fr-CA,fr;q=0.9,en;q=0.5");
            browser.open(pages.page(key.key(), false, null));
            items(1);
            String words = SHADOW + """
                    const panel = root.querySelector('[part=panel]');
                    return [panel.lang, panel.dir, root.querySelector('[part=title]').textContent,
                            root.querySelector('[part=close]').getAttribute('aria-label'),
                            root.querySelector('[part=launcher]').getAttribute('aria-label'),
                            root.querySelector('[part~=action]').textContent,
                            root.querySelector('.message').textContent];""";
            assertThat(browser.script(words), is(Json.createArrayBuilder().add("fr").add("ltr").add("Annonces")
                    .add("Fermer").add("Annonces, Non lues\u00a0: 1").add("En savoir plus").add("Nouveaux rapports").build()));
            assertThat("no ?locale= without the attribute", browser.script("""
                    return performance.getEntriesByType('resource').map((e) => e.name)
                      .filter((name) => name.includes('/notifications')).every((name) => !name.includes('locale'))"""),
                       is(JsonValue.TRUE));
            browser.script("""
                    const widget = document.getElementById('widget');
                    widget.setAttribute('heading', 'Nouveautés');
                    widget.setAttribute('action-text', 'Lire');
                    widget.setAttribute('close-text', 'Fermer le panneau');
                    widget.setAttribute('unread-text', '# à lire');""");
            assertThat(browser.script(words), is(Json.createArrayBuilder().add("fr").add("ltr").add("Nouveautés")
                    .add("Fermer le panneau").add("Nouveautés, 1 à lire").add("Lire").add("Nouveaux rapports")
                    .build()));

            browser.open(pages.page(frenchKey.key(), false, null));
            // The widget's events say why, should the feed have failed (a CI run once saw it unavailable here).
            Object empty = waitFor(() -> browser.script(SHADOW + "const e = root.querySelector('[part~=empty]');"
                    + " return e ? e.textContent : ''"), text -> !text.toString().equals("\"\""), 10_000);
            assertThat(String.valueOf(browser.script("return JSON.stringify(window.__events)")), empty,
                       is(Json.createValue("Rien de nouveau.")));

            // The client API on its own, asked for French: it says what it was served, and tracks in it.
            JsonValue client = browser.await("""
                    const client = Herald.createClient({apiKey: arguments[0], baseUrl: arguments[1], locale: 'fr'});
                    const first = await client.fetch();
                    const second = await client.fetch();
                    await client.trackImpression(arguments[2]);
                    return [first.locale, second.notModified, second.locale, window.__beacons.at(-1)];""",
                    key.key(), server.uri().toString(), id);
            assertThat(client.toString(), client, is(Json.createArrayBuilder().add("fr").add(true).add("fr")
                    .add("{\"type\":\"impression\",\"locale\":\"fr\"}").build()));
        } finally {
            acceptLanguage(userAgent, "en-US,en");
        }
    }

    /**
     * The widget's own words by RFC 4647 lookup of the language (subtags dropped from the end, English where none is
     * found), and the direction by the tag's script, else its language: what a preview of any language shows.
     */
    @Test
    void itsOwnWordsAreLookedUpByDroppingSubtagsAndTheDirectionFollowsTheScript() {
        browser.open(pages.page(TestHerald.randomKey(), false, null));
        JsonArray found = (JsonArray) browser.script("""
                return ['pt-BR', 'zh-Hant-TW', 'zh-TW', 'zh-CN', 'de-CH-1996', 'he-IL', 'fa-AF', 'az-Arab', 'ar-Latn',
                        'sw', 'en-a-bbb-x-y', 'constructor'].map((tag) => {
                  const widget = document.createElement('herald-announcements');
                  widget.setAttribute('locale', tag);
                  widget.show([]);
                  const root = widget.shadowRoot;
                  const panel = root.querySelector('[part=panel]');
                  return [tag, panel.lang, panel.dir, root.querySelector('[part=title]').textContent,
                          root.querySelector('[part=close]').getAttribute('aria-label'),
                          root.querySelector('[part~=empty]').textContent].join(' | ');
                });""");
        assertThat(Chromium.strings(found), is(List.of(
                "pt-BR | pt-BR | ltr | Anúncios | Fechar | Nada de novo.",
                "zh-Hant-TW | zh-Hant-TW | ltr | 公告 | 關閉 | 暫無新內容。",
                "zh-TW | zh-TW | ltr | 公告 | 關閉 | 暫無新內容。",
                "zh-CN | zh-CN | ltr | 公告 | 关闭 | 暂无新内容。",
                "de-CH-1996 | de-CH-1996 | ltr | Ankündigungen | Schließen | Nichts Neues.",
                "he-IL | he-IL | rtl | הודעות | סגירה | אין חדש.",
                "fa-AF | fa-AF | rtl | اطلاعیه\u200cها | بستن"
                        + " | خبر تازه\u200cای نیست.",
                "az-Arab | az-Arab | rtl | Announcements | Close | Nothing new.",
                "ar-Latn | ar-Latn | ltr | الإعلانات | إغلاق"
                        + " | لا جديد.",
                "sw | sw | ltr | Announcements | Close | Nothing new.",
                "en-a-bbb-x-y | en-a-bbb-x-y | ltr | Announcements | Close | Nothing new.",
                "constructor | constructor | ltr | Announcements | Close | Nothing new.")));
    }

    /** The RTL screenshot of docs/browser.md#languages: the demo page, its widget asked for Arabic. */
    @Test
    void screenshotOfTheWidgetInArabic() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String saved = herald.notification(project).createdAt(TestHerald.START.minusSeconds(60)).message(doc("Saved filters are here"))
                .action(new Action(Action.Type.LINK, "https://example.com/filters", "_blank")).save().id();
        translate(saved, "ar", """
                {"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"الفلاتر المحفوظة هنا"}]},
                {"type":"paragraph","content":[{"type":"text","text":"احفظ أي عرض لتقرير كـ "},{"type":"text","marks":[{"type":"bold"}],"text":"فلتر محفوظ"},
                {"type":"text","text":" وشاركه مع فريقك."}]},
                {"type":"bulletList","content":[{"type":"listItem","content":[{"type":"paragraph","content":[{"type":"text","text":"بنقرة واحدة"}]}]}]}]}""");
        herald.notification(project).message("""
                {"type":"doc","content":[{"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"Maintenance on Sunday"}]},
                {"type":"paragraph","content":[{"type":"text","text":"02:00 to 02:30 UTC: dashboards stay readable."}]}]}""")
                .action(new Action(Action.Type.CLOSE, null, null)).save();
        Files.createDirectories(SCREENSHOTS);
        browser.emulateMedia("prefers-color-scheme", "light");
        try {
            browser.open(server.uri() + "/sdk/v1/demo.html?key=" + key.key() + "&locale=ar");
            items(2);
            browser.script(SHADOW + "root.host.open();");
            browser.pause(400);
            assertThat(browser.script(SHADOW + "return root.querySelector('[part=panel]').dir"), is(Json.createValue("rtl")));
            byte[] png = browser.screenshot();
            assertThat("a PNG of some substance", png.length, greaterThan(10_000));
            Files.write(SCREENSHOTS.resolve("browser-rtl.png"), png);
        } finally {
            browser.emulateMedia(null, null);
        }
    }

    /** What the browser sends as Accept-Language (navigator.language follows), through DevTools. */
    private static void acceptLanguage(String userAgent, String languages) {
        browser.devTools("Emulation.setUserAgentOverride", Json.createObjectBuilder().add("userAgent", userAgent)
                .add("acceptLanguage", languages).build());
    }

    /** The project's default language, as a PATCH of it would store it. */
    private static void speaks(Project project, String locale) throws SQLException {
        update("UPDATE projects SET default_locale = ? WHERE id = ?", locale, project.id());
    }

    /** One translation of a notification, its message only, stored as the management API stores it. */
    private static void translate(String notificationId, String locale, String message) throws SQLException {
        String translations = Json.createObjectBuilder().add(locale, Json.createObjectBuilder().addNull("title")
                .add("message", message).addNull("image").addNull("action")).build().toString();
        update("UPDATE notifications SET translations = ? WHERE id = ?", translations, notificationId);
    }

    private static void update(String sql, String first, String second) throws SQLException {
        try (Connection connection = database.connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, first);
            statement.setString(2, second);
            assertThat(sql, statement.executeUpdate(), is(1));
        }
    }

    private static double number(JsonObject object, String name) {
        return object.getJsonNumber(name).doubleValue();
    }
}
