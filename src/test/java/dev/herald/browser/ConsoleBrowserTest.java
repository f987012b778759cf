package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.JsonBodies;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.Json;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The console (docs/console.md) in a real browser, driven by the keyboard as a user would, against a real Herald on
 * H2, under its own Content-Security-Policy: every violation the page reports fails the test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final String ALICE = "alice-console-token-0123456789abcdef0123456789";
    private static final String VICTOR = "victor-console-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";

    private static final Map<String, String> ACCOUNTS = Map.of(
            "admin.accounts.0.name", "alice", "admin.accounts.0.role", "editor",
            "admin.accounts.0.token-sha256", Tokens.sha256(ALICE),
            "admin.accounts.1.name", "victor", "admin.accounts.1.role", "viewer",
            "admin.accounts.1.token-sha256", Tokens.sha256(VICTOR));

    private static TestDatabase database;
    private static MainBuiltServer server;
    private static Chromium browser;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        browser = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, ACCOUNTS);
        browser.beforeEveryPage(RECORD_VIOLATIONS);
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stop() throws SQLException {
        if (server != null) {
            server.close();
        }
        if (database != null) {
            database.close();
        }
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void signedOut() {
        browser.open(console());
        browser.await("const current = await fetch('/api/v1/admin/session');"
                + "if (current.status === 200) await fetch('/api/v1/admin/session', {method: 'DELETE',"
                + " headers: {'X-CSRF-Token': (await current.json()).csrfToken}});");
        browser.open(console());
    }

    /** First: it reads the whole list of projects, which the other tests add to. */
    @Test
    @Order(1)
    void anEditorSignsInCreatesAndRenamesAProjectByKeyboardStaysSignedInAcrossAReloadAndSignsOut() throws IOException {
        waitFor(() -> visible("sign-in") && focused().equals("sign-in-name"));
        save("console-sign-in.png");
        browser.type("alice");
        press("Tab", 9);
        browser.type(ALICE);
        press("Enter", 13);
        waitFor(() -> visible("projects") && text("who-name").equals("alice (editor)"));
        assertThat("the content has the focus", focused(), is("main"));

        press("Tab", 9);
        assertThat(focused(), is("new-project-name"));
        browser.type("Web shop");
        press("Enter", 13);
        waitFor(() -> projectNames().equals("Web shop"));
        assertThat(text("status"), is("Project Web shop created."));
        assertThat("ready for the next one", focused(), is("new-project-name"));

        press("Tab", 9);
        press("Tab", 9);
        assertThat("the project's name opens it", Chromium.text(browser.script(
                "return document.activeElement.getAttribute('href')")), startsWith("#/projects/"));
        press("Tab", 9);
        assertThat(Chromium.text(browser.script("return document.activeElement.getAttribute('aria-label')")),
                   is("Rename Web shop"));
        press("Enter", 13);
        waitFor(() -> focused().startsWith("rename-"));
        browser.type("Shop");
        press("Enter", 13);
        waitFor(() -> projectNames().equals("Shop"));
        assertThat(text("status"), is("Renamed to Shop."));
        save("console-projects.png");

        browser.open(console());
        waitFor(() -> visible("projects") && text("who-name").equals("alice (editor)"));
        assertThat("signed in still, after a reload", projectNames(), is("Shop"));

        assertThat(focused(), is("main"));
        browser.press("Tab", 9, true);
        assertThat("just before the content", focused(), is("sign-out"));
        press("Enter", 13);
        waitFor(() -> visible("sign-in"));
        assertThat(text("status"), is("Signed out."));
        browser.open(console());
        waitFor(() -> visible("sign-in"));
        assertThat(violations(), is("[]"));
    }

    @Test
    void aViewerIsShownNoWriteAndTheApiRefusesTheOnesItTriesFromThePage() {
        waitFor(() -> visible("sign-in"));
        browser.type("victor");
        press("Tab", 9);
        browser.type(VICTOR);
        press("Enter", 13);
        waitFor(() -> visible("projects") && text("who-name").equals("victor (viewer)"));

        assertThat(browser.script("return getComputedStyle(document.getElementById('new-project')).display"),
                   is(Json.createValue("none")));
        assertThat(browser.script("return document.querySelectorAll('#project-list button').length"),
                   is(Json.createValue(0)));
        JsonValue status = browser.await("const session = await (await fetch('/api/v1/admin/session')).json();"
                + "const answer = await fetch('/api/v1/admin/projects', {method: 'POST', headers: {'Content-Type':"
                + " 'application/json', 'X-CSRF-Token': session.csrfToken}, body: JSON.stringify({name: 'Not mine'})});"
                + "return answer.status;");
        assertThat(status, is(Json.createValue(403)));
        assertThat(violations(), is("[]"));
    }

    @Test
    void aProjectShowsItsKeysWithTheirSwitchesItsAnnouncementsByStateAndItsActivity() throws IOException {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        server.herald().notification(project).message("Live <b>now</b>").save();
        server.herald().notification(project).message("{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Coming in 2030\"}]}]}")
                .start(Instant.parse("2030-01-01T00:00:00Z")).save();
        server.herald().notification(project).message("Long gone").end(Instant.parse("2020-01-01T00:00:00Z")).save();
        server.herald().notification(project).message("Not yet written").status(NotificationStatus.DRAFT).save();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name())
                && rows("#notification-list tbody tr").size() == 4);

        assertThat(rows("#notification-list tbody tr"), is(List.of(
                "Not yet written draft — — 0 — Edit", "Long gone ended — " + localTime("2020-01-01T00:00:00Z") + " 0 — Edit",
                "Coming in 2030 scheduled " + localTime("2030-01-01T00:00:00Z") + " — 0 — Edit", "Live now live — — 0 — Edit")));
        assertThat(rows("#key-list li p.key"), is(List.of(key.key())));
        browser.script("document.getElementById(arguments[0]).focus()", "showPast-" + key.key());
        press(" ", 32);
        waitFor(() -> server.herald().services().keys().find(key.key()).orElseThrow().showPast());
        waitFor(() -> rows("#activity li").getFirst().endsWith("alice changed the API key …" + key.key().substring(
                key.key().length() - 6)));
        assertThat(text("status"), is("Key saved."));
        save("console-project.png");

        browser.script("document.getElementById('notification-state').focus()");
        press("ArrowDown", 40);
        press("ArrowDown", 40);
        // The first arrow's filter (draft) also shows one row: wait for the second's.
        waitFor(() -> rows("#notification-list tbody tr").size() == 1
                && rows("#notification-list tbody tr").getFirst().startsWith("Coming in 2030 scheduled"));
        press("ArrowUp", 38);
        press("ArrowUp", 38);
        waitFor(() -> rows("#notification-list tbody tr").size() == 4);
        press("Tab", 9);
        assertThat(focused(), is("notification-search"));
        browser.type("gone");
        waitFor(() -> rows("#notification-list tbody tr").size() == 1);
        assertThat(rows("#notification-list tbody tr").getFirst(), startsWith("Long gone ended"));
        assertThat(violations(), is("[]"));
    }

    @Test
    void aProjectsPerformanceIsChartedDayByDayAndDownloadedAsCsv() throws IOException {
        Project project = server.herald().project();
        String shown = server.herald().notification(project).message("Winter sale").save().id();
        server.herald().notification(project).message("Quiet one").save();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && rows("#notification-list tbody tr").size() == 2);
        browser.await("for (const type of ['impression', 'impression', 'impression', 'click']) {"
                + " await fetch('/api/v1/public/track/' + arguments[0], {method: 'POST',"
                + " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({type})}); }", shown);
        // A date field's day, month and year take a Tab each: start from the Show button.
        browser.script("document.querySelector('#stats-form button[type=submit]').focus()");
        press("Enter", 13);
        waitFor(() -> rows("#stats-totals div").equals(List.of("Impressions3", "Clicks1", "Conversions0",
                                                                 "CTR33.3 %")));

        String from = Chromium.text(browser.script("return document.getElementById('stats-from').value"));
        String to = Chromium.text(browser.script("return document.getElementById('stats-to').value"));
        assertThat("the last 30 days", java.time.LocalDate.parse(from).plusDays(29),
                   is(java.time.LocalDate.parse(to)));
        String day = server.herald().clock().instant().toString().substring(0, 10);
        assertThat(rows("#stats-days tbody tr"), is(List.of(day + " 3 1 0")));
        assertThat("a line per series, a point per day", browser.script("return [...document.querySelectorAll("
                + "'#stats-chart polyline')].map((p) => p.getAttribute('points').split(' ').length).join(',')"),
                   is(Json.createValue("30,30,30")));
        assertThat(Chromium.text(browser.script("return document.getElementById('stats-chart-title').textContent")),
                   is("Daily interactions from " + from + " to " + to + ": 3 impressions, 1 clicks, 0 conversions"));
        browser.script("document.getElementById('performance-title').scrollIntoView()");
        save("console-performance.png");

        browser.script("window.__csv = null; const made = URL.createObjectURL;"
                + "URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__csv = text; });"
                + " return made(blob); };");
        press("Tab", 9);
        assertThat(focused(), is("stats-csv"));
        press("Enter", 13);
        waitFor(() -> !browser.script("return window.__csv").equals(JsonValue.NULL));
        List<String> csv = List.of(Chromium.text(browser.script("return window.__csv")).split("\r\n"));
        assertThat(csv.size(), is(31));
        assertThat(csv.getFirst(), is("date,impression,click,conversion"));
        assertThat(csv.contains(day + ",3,1,0"), is(true));
        assertThat(csv.get(1), is(from + ",0,0,0"));

        browser.script("document.getElementById('stats-of').focus()");
        press("ArrowDown", 40);
        waitFor(() -> rows("#stats-totals div").getFirst().equals("Impressions0"));
        assertThat("the newest announcement alone", Chromium.text(browser.script(
                "const s = document.getElementById('stats-of'); return s.options[s.selectedIndex].text")),
                   is("“Quiet one”"));
        press("ArrowDown", 40);
        waitFor(() -> rows("#stats-totals div").getFirst().equals("Impressions3"));
        assertThat(violations(), is("[]"));
    }

    /**
     * Issue 23's editor: a heading, bold words, a link and a list by keyboard, the SDK's own preview of them, a
     * schedule, then published at once after the confirmation; what is stored is the rich-text document.
     */
    @Test
    void anEditorWritesAnAnnouncementByKeyboardPreviewsSchedulesAndPublishesIt() throws IOException {
        Project project = projectShown();
        openNewAnnouncement();

        browser.chord("2", "Digit2", 50, 3);
        typeInEditor("Winter sale");
        press("Enter", 13);
        typeInEditor("Everything is ");
        boldWords("20% off");
        typeInEditor(" this week.");
        press("Enter", 13);
        linkedLine("See the shop", "https://shop.example.com/sale");
        press("Enter", 13);
        bulletList("Boots", "Coats");

        waitFor(() -> Chromium.text(browser.script(PREVIEW + "return message('light').innerHTML"))
                .contains("Coats"));
        String preview = Chromium.text(browser.script(PREVIEW + "return message('light').innerHTML"));
        assertThat(preview, containsString("Winter sale</h"));
        assertThat(preview, containsString("<strong>20% off</strong>"));
        assertThat(preview, containsString("href=\"https://shop.example.com/sale\""));
        assertThat(preview, containsString("<li><p>Boots</p></li><li><p>Coats</p></li>"));
        assertThat("light and dark alike", browser.script(PREVIEW + "return message('dark').innerHTML"),
                   is(Json.createValue(preview)));
        browser.script("document.getElementById('composer-title').scrollIntoView()");
        save("console-editor.png");

        browser.script("const field = document.getElementById('start-date'); field.value = '2030-01-01T09:00';"
                + " field.dispatchEvent(new Event('input', {bubbles: true}));");
        browser.script("document.getElementById('publish').focus()");
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr").size() == 1);
        assertThat(rows("#notification-list tbody tr").getFirst(), startsWith("Winter sale Everything is 20% off"));
        assertThat(rows("#notification-list tbody tr span.state"), is(List.of("scheduled")));
        Notification stored = server.herald().services().notifications().find(storedId()).orElseThrow();
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
                browser.script("return String(new Date('2030-01-01T09:00').getTime())")))));

        // Published at once: a published announcement's change, asked first.
        browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        press("Enter", 13);
        waitFor(() -> visible("composer"));
        browser.script("const field = document.getElementById('start-date'); field.value = '';");
        browser.script("document.getElementById('update-live').focus()");
        press("Enter", 13);
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        assertThat(focused(), is("confirm-no"));
        press("Tab", 9, true);
        assertThat(focused(), is("confirm-yes"));
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr span.state").equals(List.of("live")));
        assertThat(server.herald().services().notifications().find(storedId()).orElseThrow().startAt(),
                   is((Long) null));
        assertThat(violations(), is("[]"));
    }

    @Test
    void theAuditLogSaysWhoChangedWhatNewestFirstAPageAtATime() throws IOException {
        signIn("alice", ALICE);
        browser.await("const session = await (await fetch('/api/v1/admin/session')).json();"
                + "const send = (method, path, body) => fetch('/api/v1/admin' + path, {method, headers:"
                + " {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken}, body: JSON.stringify(body)});"
                + "for (let i = 0; i < 54; i++) await send('POST', '/projects', {name: 'Bulk ' + i});"
                + "const project = await (await send('POST', '/projects', {name: 'Shop'})).json();"
                + "await send('PATCH', '/projects/' + project.id, {name: 'Web shop'});");
        browser.open(console());
        waitFor(() -> visible("projects") && focused().equals("main"));
        browser.press("Tab", 9, true);
        browser.press("Tab", 9, true);
        assertThat("the account's name leads to its sessions", focused(), is("who-name"));
        browser.press("Tab", 9, true);
        assertThat(Chromium.text(browser.script("return document.activeElement.textContent")), is("Audit log"));
        press("Enter", 13);
        waitFor(() -> visible("audit") && rows("#audit-list tbody tr").size() == 50);

        String first = rows("#audit-list tbody tr").getFirst();
        assertThat(first, containsString(" alice renamed the project Web shop "));
        assertThat(first, endsWith("Name: Shop → Web shop"));
        assertThat(rows("#audit-list tbody tr").get(1), containsString("alice created the project Web shop"));
        assertThat(visible("audit-more"), is(true));
        browser.script("document.getElementById('audit-more').focus()");
        press("Enter", 13);
        waitFor(() -> rows("#audit-list tbody tr").size() > 50);
        assertThat("every line once", rows("#audit-list tbody tr").stream().distinct().count() > 50, is(true));
        save("console-audit.png");
        assertThat(violations(), is("[]"));
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
        try (TestDatabase own = TestDatabase.h2(); MainBuiltServer isolated = MainBuiltServer.start(own, ACCOUNTS)) {
            String console = isolated.uri() + "/console/";
            browser.open(console);
            signIn("alice", ALICE);
            jakarta.json.JsonObject stored = JsonBodies.object(Chromium.text(browser.await(STORE_ODD_VALUES)));
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

            browser.open(console + "#/audit");
            waitFor(() -> visible("audit") && rows("#audit-list tbody tr").size() == 50);
            String lines = String.join("\n", rows("#audit-list tbody tr"));
            assertThat("Older", visible("audit-more"), is(true));
            assertThat(rows("#audit-list tbody tr").getFirst(), containsString("alice changed the announcement"));
            assertThat(lines, containsString("created the project {\"type\":\"text\",\"text\":{\"x\":1}}"));
            assertThat(lines, containsString("created the project <img src=x onerror=\"window.__ran=1\">"));
            assertThat(lines, containsString("created the project __proto__"));
            assertThat(lines, containsString("Message:  [removed: Edited]  [added: Plain words]"));
            assertThat("a long value: its first words, cut, and that more changed than shown", lines,
                       containsString("[added: " + "\"".repeat(254) + "…]  (more changes than shown)"));
            browser.script("document.getElementById('audit-more').focus()");
            press("Enter", 13);
            waitFor(() -> rows("#audit-list tbody tr").size() > 50);

            browser.open(console + "#/projects");
            waitFor(() -> visible("projects") && rows("#project-list td.name").contains("__proto__"));
            assertThat(rows("#project-list td.name"), hasItems("{\"type\":\"text\",\"text\":{\"x\":1}}",
                    "{\"content\":\"abc\"}", "<img src=x onerror=\"window.__ran=1\">", "{\"type\":\"doc\"", "toString"));

            browser.open(console + "#/projects/" + projectId);
            waitFor(() -> visible("project") && rows("#notification-list tbody tr").size() == 6
                    && rows("#activity li").size() == 19);
            assertThat(text("project-title"), is("__proto__"));
            assertThat(rows("#notification-list tbody tr").get(1), startsWith("Plain words draft"));
            assertThat(rows("#notification-list tbody tr").get(2), startsWith("{\"type\":\"doc\",\"content\":[null,7,"));

            // Values without a space, 60 characters and more, break where they must on a phone.
            try {
                browser.viewport(320, 640, true);
                Map<String, String> pages = Map.of("#/projects", "projects", "#/projects/" + projectId, "project",
                                                   "#/audit", "audit");
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    browser.open(console + "#/");
                    browser.open(console + page.getKey());
                    waitFor(() -> visible(page.getValue()) && rows("#" + page.getValue() + " tbody tr").size() >= 6);
                    assertThat(page.getKey(), browser.script("return document.documentElement.scrollWidth"),
                               is(Json.createValue(320)));
                }
            } finally {
                browser.resetViewport();
            }
            assertThat(browser.script("return window.__ran === undefined"), is(JsonValue.TRUE));
            assertThat(violations(), is("[]"));
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
        signIn("alice", ALICE);
        waitFor(() -> focused().equals("main"));
        press("Tab", 9);
        browser.type("Spring shop");
        press("Enter", 13);
        waitFor(() -> projectNames().contains("Spring shop"));
        browser.script("[...document.querySelectorAll('#project-list a')].find((a) => a.textContent === 'Spring shop')"
                + ".focus()");
        press("Enter", 13);
        waitFor(() -> visible("project") && text("project-title").equals("Spring shop"));
        String projectId = Chromium.text(browser.script("return location.hash.split('/')[2]"));
        browser.script("document.getElementById('new-key').focus()");
        press("Enter", 13);
        waitFor(() -> rows("#key-list li p.key").size() == 1);
        String key = rows("#key-list li p.key").getFirst();

        openNewAnnouncement();
        browser.chord("2", "Digit2", 50, 3);
        typeInEditor("Spring launch");
        press("Enter", 13);
        typeInEditor("Now with ");
        boldWords("bold colours");
        press("Enter", 13);
        linkedLine("Read more", "https://example.com/spring");
        press("Enter", 13);
        bulletList("Boots", "Coats");
        browser.script("document.getElementById('action-type').focus()");
        press("ArrowDown", 40);
        press("Tab", 9);
        assertThat(focused(), is("action-url"));
        browser.type("https://example.com/spring");
        browser.script("document.getElementById('publish').focus()");
        press("Enter", 13);
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        browser.press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr span.state").equals(List.of("live")));
        assertThat("before the page is left", violations(), is("[]"));

        try (HostPages pages = new HostPages(server.uri())) {
            browser.open(pages.page(key, false, null));
            waitFor(() -> browser.script(WIDGET + "return !!root && root.querySelectorAll('[part~=item]').length === 1")
                    .equals(JsonValue.TRUE));
            assertThat(Chromium.text(browser.script(WIDGET + "return root.querySelector('[part~=item] .message')"
                    + ".innerHTML")), containsString("<strong>bold colours</strong>"));
            browser.script(WIDGET + "root.host.open();");
            browser.pause(1500);
            browser.script(WIDGET + "const a = root.querySelector('a[part~=action]');"
                    + " a.addEventListener('click', (e) => e.preventDefault()); a.click();");
            browser.pause(500);
        }

        browser.open(console() + "#/projects/" + projectId);
        waitFor(() -> visible("project") && rows("#stats-totals div").size() == 4);
        waitFor(() -> {
            browser.script("document.getElementById('stats-form').requestSubmit()");
            browser.pause(200);
            return rows("#stats-totals div").subList(0, 2).equals(List.of("Impressions1", "Clicks1"));
        });
        browser.script("window.__csv = null; const made = URL.createObjectURL;"
                + "URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__csv = text; });"
                + " return made(blob); };");
        browser.script("document.getElementById('stats-csv').focus()");
        press("Enter", 13);
        waitFor(() -> !browser.script("return window.__csv").equals(JsonValue.NULL));
        String day = server.herald().clock().instant().toString().substring(0, 10);
        assertThat(Chromium.text(browser.script("return window.__csv")), containsString(day + ",1,1,0\r\n"));

        browser.script("document.getElementById('sign-out').focus()");
        press("Enter", 13);
        waitFor(() -> visible("sign-in"));
        assertThat(violations(), is("[]"));
    }

    /** Messages written before the console, HTML or plain text, open in the editor with what it can hold. */
    @Test
    void storedHtmlOpensInTheEditorAndTheApisRefusalIsSaidBesideItsField() {
        Project project = server.herald().project();
        server.herald().notification(project).message("<h2>Old news</h2><p>Written <b>by hand</b>, "
                + "<a href=\"https://example.com/x\">linked</a><script>window.__ran = 1</script></p>").save();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> rows("#notification-list tbody tr").size() == 1);
        openFirstAnnouncement();
        String shown = Chromium.text(browser.script("return document.querySelector('#message-editor .ProseMirror')"
                + ".innerHTML"));
        assertThat(shown, containsString("<h2>Old news</h2>"));
        assertThat(shown, containsString("<strong>by hand</strong>"));
        assertThat(shown, containsString("href=\"https://example.com/x\""));
        assertThat(shown.contains("script"), is(false));
        assertThat(browser.script("return window.__ran === undefined"), is(JsonValue.TRUE));
        assertThat(browser.script(PREVIEW + "return message('light').querySelector('strong').textContent"),
                   is(Json.createValue("by hand")));

        browser.script("document.getElementById('image-url').focus()");
        browser.type("ftp://example.com/a.png");
        browser.script("document.getElementById('update-live').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> !text("image-error").isEmpty());
        assertThat(focused(), is("image-url"));
        assertThat(text("status-error"), is(""));
        assertThat(violations(), is("[]"));
    }

    /** Herald's address alone leads to the console, whose sign-in page says how an account is made, wherever Herald runs. */
    @Test
    void theRootLeadsToTheSignInPageWhichSaysTheCommandForEachWayOfRunningHerald() {
        browser.open(server.uri() + "/");
        waitFor(() -> visible("sign-in"));
        assertThat(Chromium.text(browser.script("return location.pathname")), is("/console/"));
        assertThat(rows("#sign-in .commands code"), hasItems("java -jar herald.jar account alice editor",
                "bin/herald account alice editor", "podman run --rm herald account alice editor"));
        assertThat(violations(), is("[]"));
    }

    /**
     * What a page said is not said of the next; a project opened by keyboard has the focus on its content; an excerpt
     * ends at a word; the "Of" selector keeps its row; Edit brings the form into view; the page names its icon.
     */
    @Test
    void theSmallThingsOfMovingAroundAProjectByKeyboard() {
        String words = "Our winter sale starts on Monday with twenty percent off every coat, boot and scarf in"
                + " the shop, and free delivery for orders placed before the end of the month";
        Project old = server.herald().project();
        for (int i = 0; i < 12; i++) {
            server.herald().notification(old).message(i == 0 ? words : "Announcement number " + i).save();
        }
        browser.viewport(1000, 700, false);
        try {
            signIn("alice", ALICE);
            browser.script("document.getElementById('new-project-name').focus()");
            browser.type("Fresh");
            press("Enter", 13);
            waitFor(() -> text("status").equals("Project Fresh created.")
                    && rows("#project-list td.name").containsAll(List.of("Fresh", old.name())));
            // The list is drawn again after a creation: focus the link once it is the one on the page, and say so.
            waitFor(() -> browser.script("const link = [...document.querySelectorAll('#project-list a')]"
                    + ".find((a) => a.textContent === arguments[0]); if (link) link.focus();"
                    + " return !!link && document.activeElement === link", old.name()).equals(JsonValue.TRUE));
            press("Enter", 13);
            waitFor(() -> visible("project") && rows("#notification-list tbody tr").size() == 12);
            assertThat("not said of this page", text("status"), is(""));
            assertThat("the content has the focus, not the body", focused(), is("main"));

            String shown = rows("#notification-list tbody td.value").stream().filter((t) -> t.startsWith("Our"))
                    .findFirst().orElseThrow();
            assertThat(shown, endsWith("…"));
            assertThat("cut after a whole word", words.startsWith(shown.substring(0, shown.length() - 1) + " "),
                       is(true));
            assertThat("the Of selector holds its row", browser.script(
                    "const of = document.getElementById('stats-of').getBoundingClientRect();"
                    + " const to = document.getElementById('stats-to').getBoundingClientRect();"
                    + " return of.width <= 260 && Math.abs(of.top - to.top) < 20"), is(JsonValue.TRUE));

            browser.script("const edits = document.querySelectorAll('#notification-list tbody tr button');"
                    + " edits[edits.length - 1].focus()");
            press("Enter", 13);
            waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
            waitFor(() -> browser.script("const top = document.getElementById('composer-title')"
                    + ".getBoundingClientRect().top; return top >= 0 && top < 100").equals(JsonValue.TRUE));
            assertThat(browser.await("const icon = document.querySelector('link[rel=icon]');"
                    + " return !!icon && (await fetch(icon.href)).ok"), is(JsonValue.TRUE));
        } finally {
            browser.resetViewport();
        }
        assertThat(violations(), is("[]"));
    }

    /** Publish now with the editor empty: refused beside the message, nothing stored, nothing in the widget. */
    @Test
    void anEmptyAnnouncementIsNotPublishedAndTheRefusalIsSaidBesideTheMessage() {
        Project project = composeInANewProject();
        browser.script("document.getElementById('publish').focus()");
        press("Enter", 13);
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> !text("message-error").isEmpty());
        assertThat(text("message-error"), startsWith("message shows nothing: no text and no image"));
        assertThat(browser.await("const answer = await fetch('/api/v1/admin/projects/' + arguments[0]"
                + " + '/notifications'); return (await answer.json()).length;", project.id()), is(Json.createValue(0)));
        assertThat(violations(), is("[]"));
    }

    /** Archiving a published announcement and revoking a key, each from the console, each confirmed first. */
    @Test
    void anAnnouncementIsArchivedAndAKeyRevokedAfterTheDialogSaysYes() {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        String id = liveAnnouncementShown(project, "Plain words\n\nin two paragraphs");

        openFirstAnnouncement();
        assertThat("plain text opens as its paragraphs", Chromium.text(browser.script(
                "return document.querySelector('#message-editor .ProseMirror').innerHTML")),
                   is("<p>Plain words</p><p>in two paragraphs</p>"));
        browser.script("document.getElementById('archive').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat("archiving takes it out of the feeds: asked first", text("confirm-text"), startsWith("Archive?"));
        press("Enter", 13);
        waitFor(() -> !confirmOpen());
        assertThat("Cancel keeps it live", server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        browser.script("document.getElementById('archive').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr span.state").equals(List.of("archived")));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.ARCHIVED));

        browser.script("document.querySelector('#key-list button.secondary').focus()");
        press("Enter", 13);
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        press("Enter", 13);
        // The dialog closes before anything else may take the focus: outside an open modal nothing can.
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.FALSE));
        assertThat("Cancel has the focus: Enter keeps the key", server.herald().services().keys().find(key.key())
                .orElseThrow().revokedAt(), is((Long) null));
        browser.script("document.querySelector('#key-list button.secondary').focus()");
        press("Enter", 13);
        waitFor(() -> browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> rows("#key-list li p.revoked").size() == 1);
        assertThat(server.herald().services().keys().find(key.key()).orElseThrow().revokedAt() != null, is(true));
        assertThat(violations(), is("[]"));
    }

    /**
     * Issue 30: nothing done to a live announcement reaches its users without a step that says so. Its "Save as
     * draft" (or Enter in a field) keeps a draft of changes apart, in no feed; the draft opens with the announcement;
     * "Update live announcement" asks first, and only its yes puts the change in the feed; a draft can be discarded.
     */
    @Test
    void aLiveAnnouncementChangesInItsFeedOnlyAfterUpdateLiveAnnouncementIsConfirmed() {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        String id = liveAnnouncementShown(project, "Old words");
        openFirstAnnouncement();
        toLineEnd();
        typeInEditor(" and new ones");

        // As the issue's product manager saved: the form's submit (Enter in a field, or its Save as draft).
        browser.script("document.getElementById('preset').focus()");
        press("Enter", 13);
        waitFor(() -> confirmOpen() || !visible("composer"));
        assertThat("not in the feed as a draft", feed(key).contains("new ones"), is(false));
        assertThat(text("status"), startsWith("Draft of changes kept"));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().message(), is("Old words"));
        waitFor(() -> rows("#notification-list tbody tr span.pending").size() == 1);
        assertThat("the list says a draft of changes is pending", rows("#notification-list tbody tr span.pending"),
                   is(List.of("changes pending")));

        openFirstAnnouncement();
        assertThat("the draft opens, said so", previewText(), is("Old words and new ones"));
        assertThat(visible("draft-note"), is(true));
        assertThat(visible("publish"), is(false));
        browser.script("document.getElementById('update-live').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-yes"), is("Update live announcement"));
        assertThat(focused(), is("confirm-no"));
        press("Enter", 13);
        waitFor(() -> !confirmOpen());
        assertThat(visible("composer"), is(true));
        assertThat(feed(key).contains("new ones"), is(false));

        browser.script("document.getElementById('update-live').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> feed(key).contains("Old words and new ones"));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        assertThat("published, the draft is gone", draftStatus(id), is("404"));
        waitFor(() -> rows("#notification-list tbody tr span.pending").isEmpty());

        openFirstAnnouncement();
        assertThat(visible("draft-note"), is(false));
        toLineEnd();
        typeInEditor(" and more");
        browser.script("document.getElementById('save-draft').focus()");
        press("Enter", 13);
        waitFor(() -> !visible("composer"));
        assertThat(draftStatus(id), is("200"));
        openFirstAnnouncement();
        browser.script("document.getElementById('discard-draft').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> !visible("composer"));
        assertThat(draftStatus(id), is("404"));
        assertThat(feed(key).contains("and more"), is(false));
        assertThat(violations(), is("[]"));
    }

    /** Issue 30: Close with unsaved edits asks "Discard changes?", Cancel focused; with none, it just closes. */
    @Test
    void closingTheComposerWithUnsavedEditsAsksFirstAndCancelKeepsThem() {
        Project project = projectShown();
        openNewAnnouncement();
        browser.script("document.getElementById('close-composer').focus()");
        press("Enter", 13);
        waitFor(() -> !visible("composer"));
        assertThat("nothing to lose: no question", confirmOpen(), is(false));

        openNewAnnouncement();
        typeInEditor("Half a thought");
        browser.script("document.getElementById('close-composer').focus()");
        press("Enter", 13);
        waitFor(() -> confirmOpen() || !visible("composer"));
        assertThat(confirmOpen(), is(true));
        assertThat(text("confirm-text"), startsWith("Discard changes?"));
        assertThat(focused(), is("confirm-no"));
        press("Enter", 13);
        waitFor(() -> !confirmOpen());
        assertThat(visible("composer"), is(true));
        assertThat(previewText(), is("Half a thought"));
        assertThat(focused(), is("close-composer"));

        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> !visible("composer"));
        assertThat(focused(), is("compose"));
        assertThat("nothing saved", Chromium.text(browser.await("const answer = await fetch('/api/v1/admin/projects/'"
                + " + arguments[0] + '/notifications'); return String((await answer.json()).length);", project.id())),
                   is("0"));
        assertThat(violations(), is("[]"));
    }

    /**
     * Issue 30: leaving the page, by a link, the browser's Back or a reload, asks before throwing unsaved edits away,
     * as Close does; a project opened afterwards does not show the composer of the one left.
     */
    @Test
    void leavingAProjectWithUnsavedEditsAsksFirstAndTheNextProjectOpensWithoutThem() {
        projectShown();
        openNewAnnouncement();
        typeInEditor("Half a thought");
        assertThat("a reload or closing the tab is held by the browser's own question", browser.script(
                "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                + " return e.defaultPrevented"), is(JsonValue.TRUE));
        String projectPage = Chromium.text(browser.script("return location.hash"));

        browser.script("document.getElementById('back').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), startsWith("Leave this page?"));
        press("Enter", 13);
        waitFor(() -> !confirmOpen());
        assertThat("Cancel stays", Chromium.text(browser.script("return location.hash")), is(projectPage));
        assertThat(visible("project") && visible("composer"), is(true));
        assertThat(previewText(), is("Half a thought"));

        browser.script("document.getElementById('back').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> visible("projects"));
        assertThat("nothing left to lose", browser.script(
                "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                + " return e.defaultPrevented"), is(JsonValue.FALSE));

        browser.script("location.hash = arguments[0]", projectPage);
        waitFor(() -> visible("project"));
        assertThat("the composer left behind is closed", visible("composer"), is(false));
        assertThat(violations(), is("[]"));
    }

    /**
     * The account's own sessions, from its name in the header: where and since when each is signed in, and "Sign out
     * other sessions" (a viewer's too), after a dialog, keeping this browser's.
     */
    @Test
    void anAccountSeesItsSessionsAndSignsOutTheOthersByKeyboard() throws IOException {
        signIn("victor", VICTOR);
        browser.await("await fetch('/api/v1/admin/session', {method: 'POST', headers: {'Content-Type':"
                + " 'application/json'}, body: JSON.stringify({name: 'victor', token: arguments[0]})});", VICTOR);
        browser.open(console());
        waitFor(() -> visible("projects"));

        browser.script("document.getElementById('who-name').focus()");
        press("Enter", 13);
        waitFor(() -> visible("sessions") && rows("#session-list tbody tr").size() == 2);
        assertThat(rows("#session-list tbody tr td.this").size(), is(1));
        assertThat(rows("#session-list tbody tr td.this").get(0), is("This browser"));
        save("console-sessions.png");

        browser.script("document.getElementById('sign-out-others').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), startsWith("Sign out your other sessions?"));
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> rows("#session-list tbody tr").size() == 1);
        assertThat(text("status"), is("1 other session signed out."));
        assertThat(visible("sign-out-others"), is(false));
        assertThat("still signed in here", visible("sessions"), is(true));
        assertThat(violations(), is("[]"));
    }

    @Test
    void aWrongTokenIsSaidNextToTheFormAndTheFocusStaysThere() {
        waitFor(() -> visible("sign-in"));
        browser.type("alice");
        press("Tab", 9);
        browser.type("not-the-token");
        press("Enter", 13);
        waitFor(() -> text("sign-in-error").equals("No account has this name and token."));
        assertThat(focused(), is("sign-in-token"));
        assertThat(visible("projects"), is(false));
    }

    /** Each page in light, dark and on a 320 px phone, where nothing is wider than the phone. */
    @Test
    void everyPageInLightDarkAndOnA320PixelPhone() throws IOException {
        Project project = server.herald().project();
        server.herald().key(project);
        server.herald().notification(project).message("Winter sale: <b>-20%</b>").save();
        // Scheduled, with both dates: the widest row the list has.
        server.herald().notification(project).message("Spring sale").status(NotificationStatus.PUBLISHED)
                .start(Instant.parse("2030-03-01T09:00:00Z")).end(Instant.parse("2030-03-31T18:00:00Z")).save();
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("sign-in", console());
        pages.put("projects", console() + "#/projects");
        pages.put("project", console() + "#/projects/" + project.id());
        pages.put("editor", console() + "#/projects/" + project.id());
        pages.put("audit", console() + "#/audit");
        pages.put("sessions", console() + "#/sessions");
        try {
            for (String scheme : List.of("light", "dark")) {
                browser.emulateMedia("prefers-color-scheme", scheme);
                for (boolean phone : List.of(false, true)) {
                    if (phone) {
                        browser.viewport(320, 640, true);
                    } else {
                        browser.resetViewport();
                    }
                    for (Map.Entry<String, String> page : pages.entrySet()) {
                        show(page.getKey(), page.getValue());
                        if (phone) {
                            // Every element, not the document's scroll width: a table that scrolls in its own box
                            // kept the document at 320 px while its Ends and Edit were past the phone's edge. What
                            // is shown only: a closed details' table is laid out, not seen.
                            assertThat(page.getKey() + ": nothing past the phone's edge, even in a box that scrolls",
                                       browser.script("return [...document.querySelectorAll('body *')]"
                                               + ".filter((e) => { const r = e.getBoundingClientRect();"
                                               + " return r.width > 0 && r.right > 320.5 && e.checkVisibility()"
                                               + " && !e.closest('.visually-hidden, .skip'); })"
                                               + ".map((e) => e.tagName + '#' + e.id + '.' + e.className + ' '"
                                               + " + Math.round(e.getBoundingClientRect().right)).slice(0, 8)"
                                               + ".join(' ')"),
                                       is(Json.createValue("")));
                            assertThat(browser.script("return document.documentElement.scrollWidth"),
                                       is(Json.createValue(320)));
                        }
                        if (scheme.equals("dark") && !phone) {
                            save("console-" + page.getKey() + "-dark.png");
                        } else if (scheme.equals("light") && phone) {
                            save("console-" + page.getKey() + "-320px.png");
                        }
                    }
                }
            }
        } finally {
            browser.resetViewport();
            browser.emulateMedia(null, null);
        }
        assertThat(violations(), is("[]"));
    }

    /** A page as its screenshot shows it: signed in as alice but for the sign-in page; the editor open. */
    private static void show(String page, String url) {
        browser.open(url);
        if (page.equals("sign-in")) {
            browser.await("const current = await fetch('/api/v1/admin/session');"
                    + "if (current.status === 200) await fetch('/api/v1/admin/session', {method: 'DELETE',"
                    + " headers: {'X-CSRF-Token': (await current.json()).csrfToken}});");
            browser.open(url);
            waitFor(() -> visible("sign-in"));
            return;
        }
        waitFor(() -> visible("sign-in") || visible("projects") || visible("project") || visible("audit")
                || visible("sessions"));
        if (visible("sign-in")) {
            browser.type("alice");
            press("Tab", 9);
            browser.type(ALICE);
            press("Enter", 13);
            waitFor(() -> !visible("sign-in"));
        }
        if (page.equals("project") || page.equals("editor")) {
            waitFor(() -> visible("project") && rows("#notification-list tbody tr").size() == 2);
        }
        if (page.equals("editor")) {
            browser.script("document.querySelector('#notification-list tbody tr button').focus()");
            press("Enter", 13);
            waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
            browser.script("document.getElementById('composer-title').scrollIntoView()");
        } else if (page.equals("audit")) {
            waitFor(() -> visible("audit") && !rows("#audit-list tbody tr").isEmpty());
        } else if (page.equals("sessions")) {
            waitFor(() -> visible("sessions") && !rows("#session-list tbody tr").isEmpty());
        }
    }

    /** Alice, signed in, on a new project's page, "Write an announcement" pressed: the editor has the focus. */
    private static Project composeInANewProject() {
        Project project = projectShown();
        openNewAnnouncement();
        return project;
    }

    private static void signIn(String name, String token) {
        waitFor(() -> visible("sign-in"));
        browser.type(name);
        press("Tab", 9);
        browser.type(token);
        press("Enter", 13);
        waitFor(() -> visible("projects") || visible("project"));
    }

    /** The text of each element the selector finds; of a table row, its cells' texts joined by a space. */
    private static List<String> rows(String selector) {
        return Chromium.strings(browser.script("return [...document.querySelectorAll(arguments[0])]"
                + ".map((e) => e.tagName === 'TR' ? [...e.cells].map((c) => c.textContent.trim()).join(' ')"
                + " : e.textContent.trim())", selector));
    }

    /** An instant as the page shows it: the browser's own locale and time zone. */
    private static String localTime(String iso) {
        return Chromium.text(browser.script("return new Date(arguments[0]).toLocaleString()", iso));
    }

    private static final String WIDGET = "const widget = document.querySelector('herald-announcements');"
            + " const root = widget && widget.shadowRoot;";

    private static String console() {
        return server.uri() + "/console/";
    }

    private static void press(String key, int code) {
        browser.press(key, code, false);
    }

    private static void press(String key, int code, boolean shift) {
        browser.press(key, code, shift);
    }

    /** A toolbar button, reached by keyboard from the editor: Shift+Tab to the toolbar's last, then back to it. */
    private static void toolbar(String label) {
        browser.script("[...document.querySelectorAll('#toolbar button')].find((b) => b.textContent === arguments[0])"
                + ".focus()", label);
        press("Enter", 13);
    }

    /**
     * Text typed into the editor, then waited for until the editor's document holds it (the preview shows it):
     * ProseMirror reads typed text from the page a moment later, and a shortcut pressed before would act on a
     * document without it.
     */
    private static void typeInEditor(String text) {
        browser.type(text);
        waitFor(() -> browser.script(PREVIEW + "return message('light').textContent.includes(arguments[0])",
                                     text).equals(JsonValue.TRUE));
    }

    /**
     * Shift+Home, then waited for until the editor has the selection: it reads a selection from the page when the
     * browser's selectionchange event comes, a task after the key.
     */
    private static void selectToLineStart(String expected) {
        browser.press("Home", 36, true);
        waitFor(() -> browser.script("return document.getSelection().toString()").equals(Json.createValue(expected)));
        browser.pause(50);
    }

    /** Ctrl+B, the words, Ctrl+B. */
    private static void boldWords(String words) {
        browser.chord("b", "KeyB", 66, 2);
        typeInEditor(words);
        browser.chord("b", "KeyB", 66, 2);
    }

    /** A line of text made a link by the toolbar's Link and its URL bar, the cursor left at its end. */
    private static void linkedLine(String text, String href) {
        typeInEditor(text);
        selectToLineStart(text);
        toolbar("Link");
        waitFor(() -> focused().equals("url-input"));
        browser.type(href);
        press("Enter", 13);
        waitFor(() -> focusedClass().contains("ProseMirror") && previewHas("a[href='" + href + "']", text));
        toLineEnd();
    }

    /** Ctrl+Shift+8, then each item, Enter between them. */
    private static void bulletList(String... items) {
        browser.chord("8", "Digit8", 56, 10);
        for (int i = 0; i < items.length; i++) {
            if (i > 0) {
                press("Enter", 13);
            }
            typeInEditor(items[i]);
        }
    }

    /** End, then waited for until the editor has the collapsed selection (see selectToLineStart). */
    private static void toLineEnd() {
        press("End", 35);
        waitFor(() -> browser.script("return document.getSelection().isCollapsed").equals(JsonValue.TRUE));
        browser.pause(50);
    }

    /** Whether the preview has that element with that text: the editor's document holds it. */
    private static boolean previewHas(String selector, String text) {
        return browser.script(PREVIEW + "const e = message('light').querySelector(arguments[0]);"
                + " return !!e && e.textContent === arguments[1]", selector, text).equals(JsonValue.TRUE);
    }

    /**
     * The message in the composer's preview of that scheme: the widget's panel, in the shadow root of the SDK's
     * preview element; the message part of a placeholder while none is drawn.
     */
    private static final String PREVIEW = "const message = (theme) => document.querySelector('#preview-' + theme"
            + " + ' .herald-preview')?.shadowRoot.querySelector('[part=message]') || document.createElement('div');";

    private static String previewText() {
        return Chromium.text(browser.script(PREVIEW + "return message('light').textContent"));
    }

    private static String focusedClass() {
        return Chromium.text(browser.script("return document.activeElement.className || ''"));
    }

    private static String storedId() {
        return Chromium.text(browser.await("const answer = await fetch('/api/v1/admin/projects/'"
                + " + location.hash.split('/')[2] + '/notifications'); return (await answer.json())[0].id;"));
    }


    /** A new project, its page as alice sees it. */
    private static Project projectShown() {
        Project project = server.herald().project();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name()));
        return project;
    }

    /** "Write an announcement", by keyboard: the editor has the focus. */
    private static void openNewAnnouncement() {
        browser.script("document.getElementById('compose').focus()");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
    }

    /** A published announcement of the project, on its page as alice sees it; its id. */
    private static String liveAnnouncementShown(Project project, String message) {
        String id = server.herald().notification(project).message(message).save().id();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> rows("#notification-list tbody tr span.state").equals(List.of("live")));
        return id;
    }

    private static void openFirstAnnouncement() {
        browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
    }

    /** The status of GET …/draft of that notification, as a string. */
    private static String draftStatus(String id) {
        return Chromium.text(browser.await("return String((await fetch('/api/v1/admin/notifications/' + arguments[0]"
                + " + '/draft')).status);", id));
    }

    private boolean confirmOpen() {
        return browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE);
    }

    /** The public feed of that key, as its users' widgets fetch it. */
    private static String feed(ApiKey key) {
        return Chromium.text(browser.await("const answer = await fetch('/api/v1/public/' + arguments[0]"
                + " + '/notifications', {cache: 'no-store'}); return await answer.text();", key.key()));
    }

    private static boolean visible(String id) {
        return browser.script("const e = document.getElementById(arguments[0]); return !!e && !e.hidden", id)
                .equals(JsonValue.TRUE);
    }

    private static String text(String id) {
        return Chromium.text(browser.script("return document.getElementById(arguments[0]).textContent", id));
    }

    private static String focused() {
        return Chromium.text(browser.script("return document.activeElement.id || ''"));
    }

    private static String projectNames() {
        return Chromium.text(browser.script("return [...document.querySelectorAll('#project-list td.name')]"
                + ".map((cell) => cell.textContent).join(',')"));
    }

    private static String violations() {
        return browser.script("return JSON.stringify(window.__violations)").toString().replace("\"", "")
                .replace("\\", "");
    }

    private static void waitFor(Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not so within 10 s; the page says: "
                        + browser.script("return document.getElementById('main').innerText"));
            }
            browser.pause(20);
        }
    }

    private static void save(String name) throws IOException {
        byte[] png = browser.screenshot();
        assertThat("a PNG of some substance", png.length, greaterThan(5_000));
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
