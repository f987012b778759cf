package dev.herald.browser;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.JsonBodies;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The console (docs/console.md) in a real browser, driven by the keyboard as a user would, against a real Herald on
 * H2, under its own Content-Security-Policy: every violation the page reports fails the test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest extends DrivenConsoleTest {

    /** First: it reads the whole list of projects, which the other tests add to. */
    @Test
    @Order(1)
    void anEditorSignsInCreatesAndRenamesAProjectByKeyboardStaysSignedInAcrossAReloadAndSignsOut() throws IOException {
        console.waitFor(() -> console.visible("sign-in") && console.focused().equals("sign-in-name"));
        console.save("console-sign-in.png");
        console.browser.type("alice");
        console.press("Tab", 9);
        console.browser.type(ConsoleDriver.ALICE);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("projects") && console.text("who-name").equals("alice (editor)"));
        assertThat("the content has the focus", console.focused(), is("main"));

        console.press("Tab", 9);
        assertThat(console.focused(), is("new-project-name"));
        console.browser.type("Web shop");
        console.press("Enter", 13);
        console.waitFor(() -> projectNames().equals("Web shop"));
        assertThat(console.text("status"), is("Project Web shop created."));
        assertThat("ready for the next one", console.focused(), is("new-project-name"));

        console.press("Tab", 9);
        console.press("Tab", 9);
        assertThat("the project's name opens it", console.script(
                "return document.activeElement.getAttribute('href')"), startsWith("#/projects/"));
        console.press("Tab", 9);
        assertThat(console.script("return document.activeElement.getAttribute('aria-label')"),
                   is("Rename Web shop"));
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().startsWith("rename-"));
        console.browser.type("Shop");
        console.press("Enter", 13);
        console.waitFor(() -> projectNames().equals("Shop"));
        assertThat(console.text("status"), is("Renamed to Shop."));
        console.save("console-projects.png");

        console.browser.open(console.console());
        console.waitFor(() -> console.visible("projects") && console.text("who-name").equals("alice (editor)"));
        assertThat("signed in still, after a reload", projectNames(), is("Shop"));

        assertThat(console.focused(), is("main"));
        console.browser.press("Tab", 9, true);
        assertThat("just before the content", console.focused(), is("sign-out"));
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("sign-in"));
        assertThat(console.text("status"), is("Signed out."));
        console.browser.open(console.console());
        console.waitFor(() -> console.visible("sign-in"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aViewerIsShownNoWriteAndTheApiRefusesTheOnesItTriesFromThePage() {
        console.waitFor(() -> console.visible("sign-in"));
        console.browser.type("victor");
        console.press("Tab", 9);
        console.browser.type(ConsoleDriver.VICTOR);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("projects") && console.text("who-name").equals("victor (viewer)"));

        assertThat(console.browser.script("return getComputedStyle(document.getElementById('new-project')).display"),
                   is(Json.createValue("none")));
        assertThat(console.browser.script("return document.querySelectorAll('#project-list button').length"),
                   is(Json.createValue(0)));
        JsonValue status = console.browser.await("const session = await (await fetch('/api/v1/admin/session')).json();"
                + "const answer = await fetch('/api/v1/admin/projects', {method: 'POST', headers: {'Content-Type':"
                + " 'application/json', 'X-CSRF-Token': session.csrfToken}, body: JSON.stringify({name: 'Not mine'})});"
                + "return answer.status;");
        assertThat(status, is(Json.createValue(403)));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aProjectShowsItsKeysWithTheirSwitchesItsAnnouncementsByStateAndItsActivity() throws IOException {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        console.server.herald().notification(project).message("Live <b>now</b>").save();
        console.server.herald().notification(project).message("{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Coming in 2030\"}]}]}")
                .start(Instant.parse("2030-01-01T00:00:00Z")).save();
        console.server.herald().notification(project).message("Long gone").end(Instant.parse("2020-01-01T00:00:00Z"))
                .save();
        console.server.herald().notification(project).message("Not yet written").status(NotificationStatus.DRAFT)
                .save();
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && console.text("project-title").equals(project.name())
                && console.rows("#notification-list tbody tr").size() == 4);

        assertThat(console.rows("#notification-list tbody tr"), is(List.of(
                "Not yet written draft — — 0 0 — Edit",
                "Long gone ended — " + localTime("2020-01-01T00:00:00Z") + " 0 0 — Edit",
                "Coming in 2030 scheduled " + localTime("2030-01-01T00:00:00Z") + " — 0 0 — Edit",
                "Live now live — — 0 0 — Edit")));
        assertThat(console.rows("#key-list li p.key"), is(List.of(key.key())));
        console.browser.script("document.getElementById(arguments[0]).focus()", "showPast-" + key.key());
        console.press(" ", 32);
        console.waitFor(() -> console.server.herald().services().keys().find(key.key()).orElseThrow().showPast());
        console.waitFor(() -> console.rows("#activity li").getFirst()
                .endsWith("alice changed the API key …" + key.key().substring(key.key().length() - 6)));
        assertThat(console.text("status"), is("Key saved."));
        console.save("console-project.png");

        console.browser.script("document.getElementById('notification-state').focus()");
        console.press("ArrowDown", 40);
        console.press("ArrowDown", 40);
        // The first arrow's filter (draft) also shows one row: wait for the second's.
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1
                && console.rows("#notification-list tbody tr").getFirst().startsWith("Coming in 2030 scheduled"));
        console.press("ArrowUp", 38);
        console.press("ArrowUp", 38);
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 4);
        console.press("Tab", 9);
        assertThat(console.focused(), is("notification-search"));
        console.browser.type("gone");
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1);
        assertThat(console.rows("#notification-list tbody tr").getFirst(), startsWith("Long gone ended"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * A project of more announcements than one answer of the API holds (a page stops at 1 MiB, whatever its limit):
     * every one listed, found by the search and chosen for its stats. The console read the first page only and said
     * nothing: 688 of 2,159 announcements in an outside trial with two years of them.
     */
    @Test
    void announcementsPastTheFirstPageOfTheApiAreListedFoundAndOfferedForStats() {
        Project project = console.server.herald().project();
        Instant first = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 1; i <= 40; i++) {
            // Drafts: published, they would pass the feed's own bound of 1 MiB.
            console.server.herald().notification(project).message("Announcement " + i + " " + "word ".repeat(6_000))
                    .status(NotificationStatus.DRAFT).createdAt(first.plusSeconds(i)).save();
        }
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && console.rows("#notification-list tbody tr").size() == 40);
        assertThat(console.browser.script("return document.getElementById('stats-of').options.length"),
                   is(Json.createValue(41)));
        console.browser.script("document.getElementById('notification-search').focus()");
        console.browser.type("Announcement 1 word");
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1);
        assertThat(console.rows("#notification-list tbody tr").getFirst(), startsWith("Announcement 1 word"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aProjectsPerformanceIsChartedDayByDayAndDownloadedAsCsv() throws IOException {
        Project project = console.server.herald().project();
        String shown = console.server.herald().notification(project).message("Winter sale").save().id();
        console.server.herald().notification(project).message("Quiet one").save();
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && console.rows("#notification-list tbody tr").size() == 2);
        console.browser.await("for (const type of ['impression', 'impression', 'impression', 'click']) {"
                + " await fetch('/api/v1/public/track/' + arguments[0], {method: 'POST',"
                + " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({type})}); }", shown);
        // A date field's day, month and year take a Tab each: start from the Show button.
        console.browser.script("document.querySelector('#stats-form button[type=submit]').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#stats-totals div").equals(List.of("Impressions3", "Clicks1",
                "Conversions0",
                                                                 "CTR33.3 %")));

        String from = console.script("return document.getElementById('stats-from').value");
        String to = console.script("return document.getElementById('stats-to').value");
        assertThat("the last 30 days", java.time.LocalDate.parse(from).plusDays(29),
                   is(java.time.LocalDate.parse(to)));
        String day = console.server.herald().clock().instant().toString().substring(0, 10);
        assertThat(console.rows("#stats-days tbody tr"), is(List.of(day + " 3 1 0")));
        assertThat("a line per series, a point per day", console.browser.script("return [...document.querySelectorAll("
                + "'#stats-chart polyline')].map((p) => p.getAttribute('points').split(' ').length).join(',')"),
                   is(Json.createValue("30,30,30")));
        assertThat(console.script("return document.getElementById('stats-chart-title').textContent"),
                   is("Daily interactions from " + from + " to " + to + ": 3 impressions, 1 clicks, 0 conversions"));
        console.browser.script("document.getElementById('performance-title').scrollIntoView()");
        console.save("console-performance.png");

        console.browser.script("window.__csv = null; const made = URL.createObjectURL;"
                + "URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__csv = text; });"
                + " return made(blob); };");
        console.press("Tab", 9);
        assertThat(console.focused(), is("stats-csv"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.browser.script("return window.__csv").equals(JsonValue.NULL));
        List<String> csv = List.of(console.script("return window.__csv").split("\r\n"));
        assertThat(csv.size(), is(31));
        assertThat(csv.getFirst(), is("date,impression,click,conversion"));
        assertThat(csv.contains(day + ",3,1,0"), is(true));
        assertThat(csv.get(1), is(from + ",0,0,0"));

        console.browser.script("document.getElementById('stats-of').focus()");
        console.press("ArrowDown", 40);
        console.waitFor(() -> console.rows("#stats-totals div").getFirst().equals("Impressions0"));
        assertThat("the newest announcement alone", console.script(
                "const s = document.getElementById('stats-of'); return s.options[s.selectedIndex].text"),
                   is("“Quiet one”"));
        console.press("ArrowDown", 40);
        console.waitFor(() -> console.rows("#stats-totals div").getFirst().equals("Impressions3"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Issue 23's editor: a heading, bold words, a link and a list by keyboard, the SDK's own preview of them, a
     * schedule, then published at once after the confirmation; what is stored is the rich-text document.
     */
    @Test
    void anEditorWritesAnAnnouncementByKeyboardPreviewsSchedulesAndPublishesIt() throws IOException {
        Project project = console.projectShown();
        console.openNewAnnouncement();

        console.browser.chord("2", "Digit2", 50, 3);
        console.typeInEditor("Winter sale");
        console.press("Enter", 13);
        console.typeInEditor("Everything is ");
        boldWords("20% off");
        console.typeInEditor(" this week.");
        console.press("Enter", 13);
        linkedLine("See the shop", "https://shop.example.com/sale");
        console.press("Enter", 13);
        bulletList("Boots", "Coats");

        console.waitFor(() -> console.script(ConsoleDriver.PREVIEW + "return message('light').innerHTML")
                .contains("Coats"));
        String preview = console.script(ConsoleDriver.PREVIEW + "return message('light').innerHTML");
        assertThat(preview, containsString("Winter sale</h"));
        assertThat(preview, containsString("<strong>20% off</strong>"));
        assertThat(preview, containsString("href=\"https://shop.example.com/sale\""));
        assertThat(preview, containsString("<li><p>Boots</p></li><li><p>Coats</p></li>"));
        assertThat("light and dark alike", console.browser.script(ConsoleDriver.PREVIEW
                + "return message('dark').innerHTML"),
                   is(Json.createValue(preview)));
        console.browser.script("document.getElementById('composer-title').scrollIntoView()");
        console.save("console-editor.png");

        console.browser.script("const field = document.getElementById('start-date'); field.value = '2030-01-01T09:00';"
                + " field.dispatchEvent(new Event('input', {bubbles: true}));");
        console.browser.script("document.getElementById('publish').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1);
        assertThat(console.rows("#notification-list tbody tr").getFirst(),
                startsWith("Winter sale Everything is 20% off"));
        assertThat(console.rows("#notification-list tbody tr span.state"), is(List.of("scheduled")));
        Notification stored = console.server.herald().services().notifications().find(storedId()).orElseThrow();
        assertThat(stored.message(), is("{\"type\":\"doc\",\"content\":["
                + "{\"type\":\"heading\",\"attrs\":{\"level\":2},\"content\":[{\"type\":\"text\",\"text\":\"Winter sale\"}]},"
                + "{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Everything is \"},"
                + "{\"type\":\"text\",\"marks\":[{\"type\":\"bold\"}],\"text\":\"20% off\"},"
                + "{\"type\":\"text\",\"text\":\" this week.\"}]},"
                + "{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"marks\":[{\"type\":\"link\","
                + "\"attrs\":{\"href\":\"https://shop.example.com/sale\",\"target\":\"_blank\"}}],\"text\":\"See the shop\"}]},"
                + "{\"type\":\"bulletList\",\"content\":[{\"type\":\"listItem\",\"content\":[{\"type\":\"paragraph\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Boots\"}]}]},{\"type\":\"listItem\",\"content\":"
                + "[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Coats\"}]}]}]}]}"));
        assertThat("the local time typed, as its instant", stored.startAt(), is(Long.parseLong(Chromium.text(
                console.browser.script("return String(new Date('2030-01-01T09:00').getTime())")))));

        // Published at once: a published announcement's change, asked first.
        console.browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("composer"));
        console.browser.script("const field = document.getElementById('start-date'); field.value = '';");
        console.browser.script("document.getElementById('update-live').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.focused(), is("confirm-no"));
        console.press("Tab", 9, true);
        assertThat(console.focused(), is("confirm-yes"));
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr span.state").equals(List.of("live")));
        assertThat(console.server.herald().services().notifications().find(storedId()).orElseThrow().startAt(),
                   is((Long) null));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void theAuditLogSaysWhoChangedWhatNewestFirstAPageAtATime() throws IOException {
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.await("const session = await (await fetch('/api/v1/admin/session')).json();"
                + "const send = (method, path, body) => fetch('/api/v1/admin' + path, {method, headers:"
                + " {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken}, body: JSON.stringify(body)});"
                + "for (let i = 0; i < 54; i++) await send('POST', '/projects', {name: 'Bulk ' + i});"
                + "const project = await (await send('POST', '/projects', {name: 'Shop'})).json();"
                + "await send('PATCH', '/projects/' + project.id, {name: 'Web shop'});");
        console.browser.open(console.console());
        console.waitFor(() -> console.visible("projects") && console.focused().equals("main"));
        console.browser.press("Tab", 9, true);
        console.browser.press("Tab", 9, true);
        assertThat("the account's name leads to its sessions", console.focused(), is("who-name"));
        console.browser.press("Tab", 9, true);
        assertThat(console.script("return document.activeElement.textContent"), is("Audit log"));
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("audit") && console.rows("#audit-list tbody tr").size() == 50);

        String first = console.rows("#audit-list tbody tr").getFirst();
        assertThat(first, containsString(" alice renamed the project Web shop "));
        assertThat(first, endsWith("Name: Shop → Web shop"));
        assertThat(console.rows("#audit-list tbody tr").get(1), containsString("alice created the project Web shop"));
        assertThat(console.visible("audit-more"), is(true));
        console.browser.script("document.getElementById('audit-more').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#audit-list tbody tr").size() > 50);
        assertThat("every line once", console.rows("#audit-list tbody tr").stream().distinct().count() > 50, is(true));
        console.save("console-audit.png");
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Issue 29, finding 6: a project named {@code {"type":"text","text":{"x":1}}} left the audit page empty ("text.replace
     * is not a function") and hid "Older". Names and messages that look like documents but are not what the console
     * expects (a text that is an object, content that is a string or holds null, markup), stored through the API,
     * are shown as text on every page that shows them: projects, a project's announcements and activity, the audit
     * log with every line and "Older"; nothing runs, nothing is reported.
     */
    @Test
    void storedValuesOfAnyShapeAreShownAsTextAndNoLineHidesAnother() throws SQLException {
        // A Herald of its own: these projects would be in every other test's lists.
        try (TestDatabase own = TestDatabase.h2(); MainBuiltServer isolated = MainBuiltServer.start(own,
                ConsoleDriver.ALICE_AND_VICTOR)) {
            String isolatedConsole = isolated.uri() + "/console/";
            console.browser.open(isolatedConsole);
            console.signIn("alice", ConsoleDriver.ALICE);
            jakarta.json.JsonObject stored = JsonBodies.object(Chromium.text(console.browser.await(STORE_ODD_VALUES)));
            String projectId = stored.getString("project");
            // Documents of these shapes are refused now (a node's content must be an array of nodes, a text's text a
            // string); rows written before that rule hold them, as these do.
            try (Connection database = own.connect();
                 PreparedStatement olderRow = database.prepareStatement("UPDATE notifications SET message = ? WHERE id = ?")) {
                for (JsonValue odd : stored.getJsonArray("refused")) {
                    olderRow.setString(1, odd.asJsonArray().getString(1));
                    olderRow.setString(2, odd.asJsonArray().getString(0));
                    assertThat(olderRow.executeUpdate(), is(1));
                }
            }

            console.browser.open(isolatedConsole + "#/audit");
            console.waitFor(() -> console.visible("audit") && console.rows("#audit-list tbody tr").size() == 50);
            String lines = String.join("\n", console.rows("#audit-list tbody tr"));
            assertThat("Older", console.visible("audit-more"), is(true));
            assertThat(console.rows("#audit-list tbody tr").getFirst(),
                    containsString("alice changed the announcement"));
            assertThat(lines, containsString("created the project {\"type\":\"text\",\"text\":{\"x\":1}}"));
            assertThat(lines, containsString("created the project <img src=x onerror=\"window.__ran=1\">"));
            assertThat(lines, containsString("created the project __proto__"));
            assertThat(lines, containsString("Message:  [removed: Edited]  [added: Plain words]"));
            assertThat("a long value: its first words, cut, and that more changed than shown", lines,
                       containsString("[added: " + "\"".repeat(254) + "…]  (more changes than shown)"));
            console.browser.script("document.getElementById('audit-more').focus()");
            console.press("Enter", 13);
            console.waitFor(() -> console.rows("#audit-list tbody tr").size() > 50);

            console.browser.open(isolatedConsole + "#/projects");
            console.waitFor(() -> console.visible("projects")
                    && console.rows("#project-list td.name").contains("__proto__"));
            assertThat(console.rows("#project-list td.name"), hasItems("{\"type\":\"text\",\"text\":{\"x\":1}}",
                    "{\"content\":\"abc\"}", "<img src=x onerror=\"window.__ran=1\">", "{\"type\":\"doc\"", "toString"));

            console.browser.open(isolatedConsole + "#/projects/" + projectId);
            console.waitFor(() -> console.visible("project") && console.rows("#notification-list tbody tr").size() == 6
                    && console.rows("#activity li").size() == 19);
            assertThat(console.text("project-title"), is("__proto__"));
            assertThat(console.rows("#notification-list tbody tr").get(1), startsWith("Plain words draft"));
            assertThat(console.rows("#notification-list tbody tr").get(2),
                    startsWith("{\"type\":\"doc\",\"content\":[null,7,"));

            // Values without a space, 60 characters and more, break where they must on a phone.
            try {
                console.browser.viewport(320, 640, true);
                Map<String, String> pages = Map.of("#/projects", "projects", "#/projects/" + projectId, "project",
                                                   "#/audit", "audit");
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    console.browser.open(isolatedConsole + "#/");
                    console.browser.open(isolatedConsole + page.getKey());
                    console.waitFor(() -> console.visible(page.getValue())
                            && console.rows("#" + page.getValue() + " tbody tr").size() >= 6);
                    assertThat(page.getKey(), console.browser.script("return document.documentElement.scrollWidth"),
                               is(Json.createValue(320)));
                }
            } finally {
                console.browser.resetViewport();
            }
            assertThat(console.browser.script("return window.__ran === undefined"), is(JsonValue.TRUE));
            assertThat(console.violations(), is("[]"));
        }
    }

    /**
     * Through the API, as the signed-in editor: 40 projects, then one for each odd name, and in the last of them
     * ({@code __proto__}) six messages the console must show as text, each created, edited and set back; those the API
     * refuses now are created as "Refused now", to be set to their odd shape in the database. Answers that project's
     * id and the refused messages, as {@code {"project", "refused": [[id, message]…]}}.
     */
    private static final String STORE_ODD_VALUES = "const session = await (await fetch('/api/v1/admin/session')).json();"
            + "const send = async (method, path, body) => { const answer = await fetch('/api/v1/admin' + path,"
            + " {method, headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken},"
            + " body: JSON.stringify(body)}); if (!answer.ok) throw new Error(path + ' ' + answer.status"
            + " + ' ' + await answer.text()); return answer.json(); };"
            + "for (let i = 0; i < 40; i++) await send('POST', '/projects', {name: 'Filler ' + i});"
            + "let last; const refusedMessages = [];"
            + "for (const name of ['{\"type\":\"text\",\"text\":{\"x\":1}}', '{\"content\":\"abc\"}',"
            + "  '{\"type\":\"doc\",\"content\":[null,7,{\"type\":\"text\",\"text\":[\"a\"]}]}',"
            + "  '<img src=x onerror=\"window.__ran=1\">', '{\"type\":\"doc\"', 'toString', '__proto__'])"
            + "  last = await send('POST', '/projects', {name});"
            + "for (const message of [{type: 'doc', content: [{type: 'text', text: {x: 1}}]},"
            + "  '{\"type\":\"text\",\"text\":{\"x\":1}}', {type: 'doc', content: 'abc'},"
            + "  {type: 'doc', content: [null, 7, {type: 'paragraph', content: [{type: 'text', text: ['a']}]}]},"
            + "  'Plain <b>words</b>', '\"'.repeat(2000)]) {"
            + "  let created; let now = message;"
            + "  try { created = await send('POST', '/projects/' + last.id + '/notifications', {message}); }"
            + "  catch (refused) { now = 'Refused now';"
            + "    created = await send('POST', '/projects/' + last.id + '/notifications', {message: now});"
            + "    refusedMessages.push([created.id, typeof message === 'string' ? message : JSON.stringify(message)]); }"
            + "  await send('PATCH', '/notifications/' + created.id, {message: 'Edited'});"
            + "  await send('PATCH', '/notifications/' + created.id, {message: now}); }"
            + "return JSON.stringify({project: last.id, refused: refusedMessages});";

    /**
     * Issue 23's walk, as a product manager would: sign in, a project and its key, an announcement with a heading,
     * bold words, a link and a list, published; the widget on a page of another origin shows it, records an
     * impression and a click there; both are in the console's numbers and CSV; sign out.
     */
    @Test
    void fromSignInToTheNumbersOfAnAnnouncementSeenInTheWidgetOfAnotherSite() throws IOException {
        console.signIn("alice", ConsoleDriver.ALICE);
        console.waitFor(() -> console.focused().equals("main"));
        console.press("Tab", 9);
        console.browser.type("Spring shop");
        console.press("Enter", 13);
        console.waitFor(() -> projectNames().contains("Spring shop"));
        console.browser.script("[...document.querySelectorAll('#project-list a')]"
                + ".find((a) => a.textContent === 'Spring shop').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("project") && console.text("project-title").equals("Spring shop"));
        String projectId = console.script("return location.hash.split('/')[2]");
        console.browser.script("document.getElementById('new-key').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#key-list li p.key").size() == 1);
        String key = console.rows("#key-list li p.key").getFirst();

        console.openNewAnnouncement();
        console.browser.chord("2", "Digit2", 50, 3);
        console.typeInEditor("Spring launch");
        console.press("Enter", 13);
        console.typeInEditor("Now with ");
        boldWords("bold colours");
        console.press("Enter", 13);
        linkedLine("Read more", "https://example.com/spring");
        console.press("Enter", 13);
        bulletList("Boots", "Coats");
        console.browser.script("document.getElementById('action-type').focus()");
        console.press("ArrowDown", 40);
        console.press("Tab", 9);
        assertThat(console.focused(), is("action-url"));
        console.browser.type("https://example.com/spring");
        console.browser.script("document.getElementById('publish').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr span.state").equals(List.of("live")));
        assertThat("before the page is left", console.violations(), is("[]"));

        try (HostPages pages = new HostPages(console.server.uri())) {
            console.browser.open(pages.page(key, false, null));
            console.waitFor(() -> console.browser.script(WIDGET
                    + "return !!root && root.querySelectorAll('[part~=item]').length === 1")
                    .equals(JsonValue.TRUE));
            assertThat(console.script(WIDGET + "return root.querySelector('[part~=item] .message')"
                    + ".innerHTML"), containsString("<strong>bold colours</strong>"));
            console.browser.script(WIDGET + "root.host.open();");
            console.browser.pause(1500);
            console.browser.script(WIDGET + "const a = root.querySelector('a[part~=action]');"
                    + " a.addEventListener('click', (e) => e.preventDefault()); a.click();");
            console.browser.pause(500);
        }

        console.browser.open(console.console() + "#/projects/" + projectId);
        console.waitFor(() -> console.visible("project") && console.rows("#stats-totals div").size() == 4);
        console.waitFor(() -> {
            console.browser.script("document.getElementById('stats-form').requestSubmit()");
            console.browser.pause(200);
            return console.rows("#stats-totals div").subList(0, 2).equals(List.of("Impressions1", "Clicks1"));
        });
        console.browser.script("window.__csv = null; const made = URL.createObjectURL;"
                + "URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__csv = text; });"
                + " return made(blob); };");
        console.browser.script("document.getElementById('stats-csv').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> !console.browser.script("return window.__csv").equals(JsonValue.NULL));
        String day = console.server.herald().clock().instant().toString().substring(0, 10);
        assertThat(console.script("return window.__csv"), containsString(day + ",1,1,0\r\n"));

        console.browser.script("document.getElementById('sign-out').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("sign-in"));
        assertThat(console.violations(), is("[]"));
    }

    /** Messages written before the console, HTML or plain text, open in the editor with what it can hold. */
    @Test
    void storedHtmlOpensInTheEditorAndTheApisRefusalIsSaidBesideItsField() {
        Project project = console.server.herald().project();
        console.server.herald().notification(project).message("<h2>Old news</h2><p>Written <b>by hand</b>, "
                + "<a href=\"https://example.com/x\">linked</a><script>window.__ran = 1</script></p>").save();
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1);
        console.openFirstAnnouncement();
        String shown = console.script("return document.querySelector('#message-editor .ProseMirror')"
                + ".innerHTML");
        assertThat(shown, containsString("<h2>Old news</h2>"));
        assertThat(shown, containsString("<strong>by hand</strong>"));
        assertThat(shown, containsString("href=\"https://example.com/x\""));
        assertThat(shown.contains("script"), is(false));
        assertThat(console.browser.script("return window.__ran === undefined"), is(JsonValue.TRUE));
        assertThat(console.browser.script(ConsoleDriver.PREVIEW
                + "return message('light').querySelector('strong').textContent"),
                   is(Json.createValue("by hand")));

        console.browser.script("document.getElementById('image-url').focus()");
        console.browser.type("ftp://example.com/a.png");
        console.browser.script("document.getElementById('update-live').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("image-error").isEmpty());
        assertThat(console.focused(), is("image-url"));
        assertThat(console.text("status-error"), is(""));
        assertThat(console.violations(), is("[]"));
    }

    /** Herald's address alone leads to the console, whose sign-in page says how an account is made, wherever Herald runs. */
    @Test
    void theRootLeadsToTheSignInPageWhichSaysTheCommandForEachWayOfRunningHerald() {
        console.browser.open(console.server.uri() + "/");
        console.waitFor(() -> console.visible("sign-in"));
        assertThat(console.script("return location.pathname"), is("/console/"));
        assertThat(console.rows("#sign-in .commands code"), hasItems("java -jar herald.jar account alice editor",
                "bin/herald account alice editor", "podman run --rm herald account alice editor"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * What a page said is not said of the next; a project opened by keyboard has the focus on its content; an excerpt
     * ends at a word; the "Of" selector keeps its row; Edit brings the form into view; the page names its icon.
     */
    @Test
    void theSmallThingsOfMovingAroundAProjectByKeyboard() {
        String words = "Our winter sale starts on Monday with twenty percent off every coat, boot and scarf in"
                + " the shop, and free delivery for orders placed before the end of the month";
        Project old = console.server.herald().project();
        for (int i = 0; i < 12; i++) {
            console.server.herald().notification(old).message(i == 0 ? words : "Announcement number " + i).save();
        }
        console.browser.viewport(1000, 700, false);
        try {
            console.signIn("alice", ConsoleDriver.ALICE);
            console.browser.script("document.getElementById('new-project-name').focus()");
            console.browser.type("Fresh");
            console.press("Enter", 13);
            console.waitFor(() -> console.text("status").equals("Project Fresh created.")
                    && console.rows("#project-list td.name").containsAll(List.of("Fresh", old.name())));
            // The list is drawn again after a creation: focus the link once it is the one on the page, and say so.
            console.waitFor(() -> console.browser.script("const link = [...document.querySelectorAll("
                    + "'#project-list a')].find((a) => a.textContent === arguments[0]); if (link) link.focus();"
                    + " return !!link && document.activeElement === link", old.name()).equals(JsonValue.TRUE));
            console.press("Enter", 13);
            console.waitFor(() -> console.visible("project")
                    && console.rows("#notification-list tbody tr").size() == 12);
            assertThat("not said of this page", console.text("status"), is(""));
            assertThat("the content has the focus, not the body", console.focused(), is("main"));

            String shown = console.rows("#notification-list tbody td.value").stream().filter((t) -> t.startsWith("Our"))
                    .findFirst().orElseThrow();
            assertThat(shown, endsWith("…"));
            assertThat("cut after a whole word", words.startsWith(shown.substring(0, shown.length() - 1) + " "),
                       is(true));
            assertThat("the Of selector holds its row", console.browser.script(
                    "const of = document.getElementById('stats-of').getBoundingClientRect();"
                    + " const to = document.getElementById('stats-to').getBoundingClientRect();"
                    + " return of.width <= 260 && Math.abs(of.top - to.top) < 20"), is(JsonValue.TRUE));

            console.browser.script("const edits = document.querySelectorAll('#notification-list tbody tr button');"
                    + " edits[edits.length - 1].focus()");
            console.press("Enter", 13);
            console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
            console.waitFor(() -> console.browser.script("const top = document.getElementById('composer-title')"
                    + ".getBoundingClientRect().top; return top >= 0 && top < 100").equals(JsonValue.TRUE));
            assertThat(console.browser.await("const icon = document.querySelector('link[rel=icon]');"
                    + " return !!icon && (await fetch(icon.href)).ok"), is(JsonValue.TRUE));
        } finally {
            console.browser.resetViewport();
        }
        assertThat(console.violations(), is("[]"));
    }

    /** Publish now with the editor empty: refused beside the message, nothing stored, nothing in the widget. */
    @Test
    void anEmptyAnnouncementIsNotPublishedAndTheRefusalIsSaidBesideTheMessage() {
        Project project = console.composeInANewProject();
        console.browser.script("document.getElementById('publish').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("message-error").isEmpty());
        assertThat(console.text("message-error"), startsWith("message shows nothing: no text and no image"));
        assertThat(console.browser.await("const answer = await fetch('/api/v1/admin/projects/' + arguments[0]"
                + " + '/notifications'); return (await answer.json()).length;", project.id()), is(Json.createValue(0)));
        assertThat(console.violations(), is("[]"));
    }

    /** Archiving a published announcement and revoking a key, each from the console, each confirmed first. */
    @Test
    void anAnnouncementIsArchivedAndAKeyRevokedAfterTheDialogSaysYes() {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = liveAnnouncementShown(project, "Plain words\n\nin two paragraphs");

        console.openFirstAnnouncement();
        assertThat("plain text opens as its paragraphs", console.script(
                "return document.querySelector('#message-editor .ProseMirror').innerHTML"),
                   is("<p>Plain words</p><p>in two paragraphs</p>"));
        console.browser.script("document.getElementById('archive').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat("archiving takes it out of the feeds: asked first", console.text("confirm-text"),
                startsWith("Archive?"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat("Cancel keeps it live",
                console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        console.browser.script("document.getElementById('archive').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr span.state").equals(List.of("archived")));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.ARCHIVED));

        console.browser.script("document.querySelector('#key-list button.secondary').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Enter", 13);
        // The dialog closes before anything else may take the focus: outside an open modal nothing can.
        console.waitFor(() -> !console.confirmOpen());
        assertThat("Cancel has the focus: Enter keeps the key",
                console.server.herald().services().keys().find(key.key())
                .orElseThrow().revokedAt(), is((Long) null));
        console.browser.script("document.querySelector('#key-list button.secondary').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#key-list li p.revoked").size() == 1);
        assertThat(console.server.herald().services().keys().find(key.key()).orElseThrow().revokedAt() != null,
                is(true));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Issue 30: nothing done to a live announcement reaches its users without a step that says so. Its "Save as
     * draft" (or Enter in a field) keeps a draft of changes apart, in no feed; the draft opens with the announcement;
     * "Update live announcement" asks first, and only its yes puts the change in the feed; a draft can be discarded.
     */
    @Test
    void aLiveAnnouncementChangesInItsFeedOnlyAfterUpdateLiveAnnouncementIsConfirmed() {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = liveAnnouncementShown(project, "Old words");
        console.openFirstAnnouncement();
        toLineEnd();
        console.typeInEditor(" and new ones");

        // As the issue's product manager saved: the form's submit (Enter in a field, or its Save as draft).
        console.browser.script("document.getElementById('preset').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.confirmOpen() || !console.visible("composer"));
        assertThat("not in the feed as a draft", console.feed(key).contains("new ones"), is(false));
        assertThat(console.text("status"),
                   is("Draft of changes kept: “Old words and new ones”; the live announcement is as it was."));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().message(),
                is("Old words"));
        console.waitFor(() -> console.rows("#notification-list tbody tr span.pending").size() == 1);
        assertThat("the list says a draft of changes is pending",
                console.rows("#notification-list tbody tr span.pending"),
                   is(List.of("changes pending")));

        console.openFirstAnnouncement();
        assertThat("the draft opens, said so", console.previewText(), is("Old words and new ones"));
        assertThat(console.visible("draft-note"), is(true));
        assertThat(console.visible("publish"), is(false));
        console.browser.script("document.getElementById('update-live').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-yes"), is("Update live announcement"));
        assertThat(console.focused(), is("confirm-no"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat(console.visible("composer"), is(true));
        assertThat(console.feed(key).contains("new ones"), is(false));

        console.browser.script("document.getElementById('update-live').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.feed(key).contains("Old words and new ones"));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        assertThat("published, the draft is gone", draftStatus(id), is("404"));
        console.waitFor(() -> console.rows("#notification-list tbody tr span.pending").isEmpty());

        console.openFirstAnnouncement();
        assertThat(console.visible("draft-note"), is(false));
        toLineEnd();
        console.typeInEditor(" and more");
        console.browser.script("document.getElementById('save-draft').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat(draftStatus(id), is("200"));
        console.openFirstAnnouncement();
        console.browser.script("document.getElementById('discard-draft').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat(draftStatus(id), is("404"));
        assertThat(console.feed(key).contains("and more"), is(false));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * An image in the message says what it shows: the URL bar asks for its alt text beside its URL, and an image
     * selected in the editor is described again in place, its URL kept (a product manager's trial: there was no way
     * to give one, so a screen reader said nothing of the picture).
     */
    @Test
    void anImageInTheMessageIsGivenItsAltTextAndDescribedAgainInPlace() {
        console.projectShown();
        console.openNewAnnouncement();
        console.typeInEditor("New coats ");
        toolbar("Image");
        console.waitFor(() -> console.focused().equals("url-input"));
        assertThat(console.visible("alt-input"), is(true));
        console.browser.type("https://images.example.com/coat.png");
        console.press("Tab", 9);
        assertThat(console.focused(), is("alt-input"));
        console.browser.type("A red winter coat");
        console.press("Enter", 13);
        console.waitFor(() -> previewImageAlt().equals("A red winter coat"));

        console.waitFor(() -> console.focusedClass().contains("ProseMirror"));
        console.press("ArrowLeft", 37);
        toolbar("Image");
        console.waitFor(() -> console.focused().equals("url-input"));
        assertThat(console.browser.script("return document.getElementById('url-input').value"),
                   is(Json.createValue("https://images.example.com/coat.png")));
        assertThat(console.browser.script("return document.getElementById('alt-input').value"),
                   is(Json.createValue("A red winter coat")));
        console.browser.script("const alt = document.getElementById('alt-input'); alt.focus(); alt.select();");
        console.browser.type("A red winter coat, hooded");
        console.press("Enter", 13);
        console.waitFor(() -> previewImageAlt().equals("A red winter coat, hooded"));
        assertThat("one image, described again", console.script(ConsoleDriver.PREVIEW
                + "return String(message('light').querySelectorAll('img').length)"), is("1"));

        toLineEnd();
        selectToLineStart("New coats ");
        toolbar("Link");
        console.waitFor(() -> console.focused().equals("url-input"));
        assertThat("a link asks no alt text", console.visible("alt-input"), is(false));
        console.press("Escape", 27);
        // The bar gives the focus back to the editor once the key is done with: only then is Save focused, or that
        // hand-back took it from Save and the Enter below went into the message (a failure seen once in a full run).
        console.waitFor(() -> console.focusedClass().contains("ProseMirror"));
        console.browser.script("document.getElementById('save-draft').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat(console.server.herald().services().notifications().find(storedId()).orElseThrow().message(),
                   containsString("{\"type\":\"image\",\"attrs\":{\"src\":\"https://images.example.com/coat.png\","
                                          + "\"alt\":\"A red winter coat, hooded\"}}"));
        assertThat(console.violations(), is("[]"));
    }

    private static String previewImageAlt() {
        return console.script(ConsoleDriver.PREVIEW + "const image = message('light').querySelector('img');"
                + " return image ? image.alt : ''");
    }

    /** Issue 30: Close with unsaved edits asks "Discard changes?", Cancel focused; with none, it just closes. */
    @Test
    void closingTheComposerWithUnsavedEditsAsksFirstAndCancelKeepsThem() {
        Project project = console.projectShown();
        console.openNewAnnouncement();
        console.browser.script("document.getElementById('close-composer').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat("nothing to lose: no question", console.confirmOpen(), is(false));

        console.openNewAnnouncement();
        console.typeInEditor("Half a thought");
        console.browser.script("document.getElementById('close-composer').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.confirmOpen() || !console.visible("composer"));
        assertThat(console.confirmOpen(), is(true));
        assertThat(console.text("confirm-text"), startsWith("Discard changes?"));
        assertThat(console.focused(), is("confirm-no"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat(console.visible("composer"), is(true));
        assertThat(console.previewText(), is("Half a thought"));
        assertThat(console.focused(), is("close-composer"));

        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat(console.focused(), is("compose"));
        assertThat("nothing saved", Chromium.text(console.browser.await("const answer ="
                + " await fetch('/api/v1/admin/projects/' + arguments[0] + '/notifications');"
                + " return String((await answer.json()).length);", project.id())), is("0"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Issue 30: leaving the page, by a link, the browser's Back or a reload, asks before throwing unsaved edits away,
     * as Close does; a project opened afterwards does not show the composer of the one left.
     */
    @Test
    void leavingAProjectWithUnsavedEditsAsksFirstAndTheNextProjectOpensWithoutThem() {
        console.projectShown();
        console.openNewAnnouncement();
        console.typeInEditor("Half a thought");
        assertThat("a reload or closing the tab is held by the browser's own question", console.browser.script(
                "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                + " return e.defaultPrevented"), is(JsonValue.TRUE));
        String projectPage = console.script("return location.hash");

        console.browser.script("document.getElementById('back').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), startsWith("Leave this page?"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat("Cancel stays", console.script("return location.hash"), is(projectPage));
        assertThat(console.visible("project") && console.visible("composer"), is(true));
        assertThat(console.previewText(), is("Half a thought"));

        console.browser.script("document.getElementById('back').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("projects"));
        assertThat("nothing left to lose", console.browser.script(
                "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                + " return e.defaultPrevented"), is(JsonValue.FALSE));

        console.browser.script("location.hash = arguments[0]", projectPage);
        console.waitFor(() -> console.visible("project"));
        assertThat("the composer left behind is closed", console.visible("composer"), is(false));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * The account's own sessions, from its name in the header: where and since when each is signed in, and "Sign out
     * other sessions" (a viewer's too), after a dialog, keeping this browser's.
     */
    @Test
    void anAccountSeesItsSessionsAndSignsOutTheOthersByKeyboard() throws IOException {
        console.signIn("victor", ConsoleDriver.VICTOR);
        console.browser.await("await fetch('/api/v1/admin/session', {method: 'POST', headers: {'Content-Type':"
                + " 'application/json'}, body: JSON.stringify({name: 'victor', token: arguments[0]})});",
                ConsoleDriver.VICTOR);
        console.browser.open(console.console());
        console.waitFor(() -> console.visible("projects"));

        console.browser.script("document.getElementById('who-name').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("sessions") && console.rows("#session-list tbody tr").size() == 2);
        assertThat(console.rows("#session-list tbody tr td.this").size(), is(1));
        assertThat(console.rows("#session-list tbody tr td.this").get(0), is("This browser"));
        console.save("console-sessions.png");

        console.browser.script("document.getElementById('sign-out-others').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), startsWith("Sign out your other sessions?"));
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#session-list tbody tr").size() == 1);
        assertThat(console.text("status"), is("1 other session signed out."));
        assertThat(console.visible("sign-out-others"), is(false));
        assertThat("still signed in here", console.visible("sessions"), is(true));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aWrongTokenIsSaidNextToTheFormAndTheFocusStaysThere() {
        console.waitFor(() -> console.visible("sign-in"));
        console.browser.type("alice");
        console.press("Tab", 9);
        console.browser.type("not-the-token");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("sign-in-error").equals("No account has this name and token."));
        assertThat(console.focused(), is("sign-in-token"));
        assertThat(console.visible("projects"), is(false));
    }

    /** Each page in light, dark and on a 320 px phone, where nothing is wider than the phone. */
    @Test
    void everyPageInLightDarkAndOnA320PixelPhone() throws IOException {
        Project project = console.server.herald().project();
        console.server.herald().key(project);
        console.server.herald().notification(project).message("Winter sale: <b>-20%</b>").save();
        // Scheduled, with both dates: the widest row the list has.
        console.server.herald().notification(project).message("Spring sale").status(NotificationStatus.PUBLISHED)
                .start(Instant.parse("2030-03-01T09:00:00Z")).end(Instant.parse("2030-03-31T18:00:00Z")).save();
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("sign-in", console.console());
        pages.put("projects", console.console() + "#/projects");
        pages.put("project", console.console() + "#/projects/" + project.id());
        pages.put("editor", console.console() + "#/projects/" + project.id());
        pages.put("audit", console.console() + "#/audit");
        pages.put("sessions", console.console() + "#/sessions");
        try {
            for (String scheme : List.of("light", "dark")) {
                console.browser.emulateMedia("prefers-color-scheme", scheme);
                for (boolean phone : List.of(false, true)) {
                    if (phone) {
                        console.browser.viewport(320, 640, true);
                    } else {
                        console.browser.resetViewport();
                    }
                    for (Map.Entry<String, String> page : pages.entrySet()) {
                        show(page.getKey(), page.getValue());
                        if (phone) {
                            console.assertNothingPastThePhonesEdge(page.getKey());
                        }
                        if (scheme.equals("dark") && !phone) {
                            console.save("console-" + page.getKey() + "-dark.png");
                        } else if (scheme.equals("light") && phone) {
                            console.save("console-" + page.getKey() + "-320px.png");
                        }
                    }
                }
            }
        } finally {
            console.browser.resetViewport();
            console.browser.emulateMedia(null, null);
        }
        assertThat(console.violations(), is("[]"));
    }

    /** A page as its screenshot shows it: signed in as alice but for the sign-in page; the editor open. */
    private static void show(String page, String url) {
        console.browser.open(url);
        if (page.equals("sign-in")) {
            // Not signedOut(): that would end the emulated phone or dark scheme the screenshot is taken in.
            console.endSession();
            console.browser.open(url);
            console.waitFor(() -> console.visible("sign-in"));
            return;
        }
        console.waitFor(() -> console.visible("sign-in") || console.visible("projects") || console.visible("project")
                || console.visible("audit") || console.visible("sessions"));
        if (console.visible("sign-in")) {
            console.browser.type("alice");
            console.press("Tab", 9);
            console.browser.type(ConsoleDriver.ALICE);
            console.press("Enter", 13);
            console.waitFor(() -> !console.visible("sign-in"));
        }
        if (page.equals("project") || page.equals("editor")) {
            console.waitFor(() -> console.visible("project")
                    && console.rows("#notification-list tbody tr").size() == 2);
        }
        if (page.equals("editor")) {
            console.openFirstAnnouncement();
            console.browser.script("document.getElementById('composer-title').scrollIntoView()");
        } else if (page.equals("audit")) {
            console.waitFor(() -> console.visible("audit") && !console.rows("#audit-list tbody tr").isEmpty());
        } else if (page.equals("sessions")) {
            console.waitFor(() -> console.visible("sessions") && !console.rows("#session-list tbody tr").isEmpty());
        }
    }

    /** An instant as the page shows it: the browser's own locale and time zone. */
    private static String localTime(String iso) {
        return console.script("return new Date(arguments[0]).toLocaleString()", iso);
    }

    private static final String WIDGET = "const widget = document.querySelector('herald-announcements');"
            + " const root = widget && widget.shadowRoot;";

    /** A toolbar button, reached by keyboard from the editor: Shift+Tab to the toolbar's last, then back to it. */
    private static void toolbar(String label) {
        console.browser.script("[...document.querySelectorAll('#toolbar button')]"
                + ".find((b) => b.textContent === arguments[0]).focus()", label);
        console.press("Enter", 13);
    }

    /**
     * Shift+Home, then waited for until the editor has the selection: it reads a selection from the page when the
     * browser's selectionchange event comes, a task after the key.
     */
    private static void selectToLineStart(String expected) {
        console.browser.press("Home", 36, true);
        console.waitFor(() -> console.browser.script("return document.getSelection().toString()")
                .equals(Json.createValue(expected)));
        console.browser.pause(50);
    }

    /** Ctrl+B, the words, Ctrl+B. */
    private static void boldWords(String words) {
        console.browser.chord("b", "KeyB", 66, 2);
        console.typeInEditor(words);
        console.browser.chord("b", "KeyB", 66, 2);
    }

    /** A line of text made a link by the toolbar's Link and its URL bar, the cursor left at its end. */
    private static void linkedLine(String text, String href) {
        console.typeInEditor(text);
        selectToLineStart(text);
        toolbar("Link");
        console.waitFor(() -> console.focused().equals("url-input"));
        console.browser.type(href);
        console.press("Enter", 13);
        console.waitFor(() -> console.focusedClass().contains("ProseMirror")
                && previewHas("a[href='" + href + "']", text));
        toLineEnd();
    }

    /** Ctrl+Shift+8, then each item, Enter between them. */
    private static void bulletList(String... items) {
        console.browser.chord("8", "Digit8", 56, 10);
        for (int i = 0; i < items.length; i++) {
            if (i > 0) {
                console.press("Enter", 13);
            }
            console.typeInEditor(items[i]);
        }
    }

    /** End, then waited for until the editor has the collapsed selection (see selectToLineStart). */
    private static void toLineEnd() {
        console.press("End", 35);
        console.waitFor(() -> console.browser.script("return document.getSelection().isCollapsed")
                .equals(JsonValue.TRUE));
        console.browser.pause(50);
    }

    /** Whether the preview has that element with that text: the editor's document holds it. */
    private static boolean previewHas(String selector, String text) {
        return console.browser.script(ConsoleDriver.PREVIEW + "const e = message('light').querySelector(arguments[0]);"
                + " return !!e && e.textContent === arguments[1]", selector, text).equals(JsonValue.TRUE);
    }

    private static String storedId() {
        return Chromium.text(console.browser.await("const answer = await fetch('/api/v1/admin/projects/'"
                + " + location.hash.split('/')[2] + '/notifications'); return (await answer.json())[0].id;"));
    }

    /** A published announcement of the project, on its page as alice sees it; its id. */
    private static String liveAnnouncementShown(Project project, String message) {
        String id = console.server.herald().notification(project).message(message).save().id();
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.rows("#notification-list tbody tr span.state").equals(List.of("live")));
        return id;
    }

    /** The status of GET …/draft of that notification, as a string. */
    private static String draftStatus(String id) {
        return Chromium.text(console.browser.await("return String((await fetch('/api/v1/admin/notifications/'"
                + " + arguments[0] + '/draft')).status);", id));
    }

    private static String projectNames() {
        return console.script("return [...document.querySelectorAll('#project-list td.name')]"
                + ".map((cell) => cell.textContent).join(',')");
    }
}
