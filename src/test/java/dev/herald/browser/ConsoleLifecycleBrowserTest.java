package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 30, point 9, in a real browser by the keyboard: an announcement's title in the list and as the widget's
 * heading; duplicate, unpublish and delete, each asked first where it changes what users see or loses something;
 * the history of an announcement with its words added and removed, and a version restored as a draft. Zero
 * Content-Security-Policy reports, as in ConsoleBrowserTest.
 */
class ConsoleLifecycleBrowserTest {

    private static final String ALICE = "alice-lifecycle-token-0123456789abcdef0123456789";
    private static final String VICTOR = "victor-lifecycle-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";

    private static TestDatabase database;
    private static MainBuiltServer server;
    private static Chromium browser;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        browser = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, Map.of("admin.accounts.0.name", "alice",
                                                        "admin.accounts.0.role", "editor",
                                                        "admin.accounts.0.token-sha256", Tokens.sha256(ALICE),
                                                        "admin.accounts.1.name", "victor",
                                                        "admin.accounts.1.role", "viewer",
                                                        "admin.accounts.1.token-sha256", Tokens.sha256(VICTOR)));
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

    @Test
    void aTitleNamesTheAnnouncementInTheListAndHeadsItInTheWidget() throws IOException {
        Project project = projectShown();
        ApiKey key = server.herald().key(project);
        focus("compose");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
        assertThat("nothing to duplicate or delete yet", visible("lifecycle"), is(false));
        focus("announcement-title");
        browser.type("Winter sale");
        browser.script("document.querySelector('#message-editor [contenteditable]').focus()");
        typeInEditor("Half price on every coat until Friday.");
        assertThat("the preview is headed by the title as the widget heads it", Chromium.text(browser.script(
                "return document.querySelector('#preview-light .herald-preview').shadowRoot"
                + ".querySelector('[part=item-title]').textContent")), is("Winter sale"));
        browser.script("document.getElementById('composer-title').scrollIntoView()");
        save("console-title.png");
        focus("publish");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr td.value").equals(List.of("Winter sale")));
        assertThat(feed(key), containsString("\"title\":\"Winter sale\""));
        assertThat(Chromium.text(browser.script("return document.querySelector('#notification-list tbody tr button')"
                + ".getAttribute('aria-label')")), is("Edit “Winter sale”"));

        // The widget, as a site embeds it (on Herald's own origin here: the console's policy allows the SDK).
        browser.await("await import('/sdk/v1/herald.mjs'); const widget = document.createElement('herald-announcements');"
                + " widget.setAttribute('base-url', location.origin); widget.setAttribute('api-key', arguments[0]);"
                + " document.body.append(widget);", key.key());
        waitFor(() -> !Chromium.text(browser.script("const widget = document.querySelector('herald-announcements');"
                + " const title = widget.shadowRoot && widget.shadowRoot.querySelector('[part=item-title]');"
                + " return title ? title.tagName + ' ' + title.textContent : ''")).isEmpty());
        assertThat(Chromium.text(browser.script("return document.querySelector('herald-announcements').shadowRoot"
                + ".querySelector('[part=item-title]').tagName + ' ' + document.querySelector('herald-announcements')"
                + ".shadowRoot.querySelector('[part=item-title]').textContent")), is("H3 Winter sale"));
        assertThat(violations(), is("[]"));
    }

    @Test
    void duplicateOpensTheCopyAsANewDraftInTheComposer() {
        Project project = server.herald().project();
        String id = server.herald().notification(project).message("Spring offer: two for one").save().id();
        projectOpened(project);
        openFirstAnnouncement();
        assertThat(visible("lifecycle"), is(true));
        focus("duplicate");
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr span.state").size() == 2);
        waitFor(() -> text("status").startsWith("Copied"));
        assertThat(rows("#notification-list tbody tr span.state"), is(List.of("draft", "live")));
        assertThat(visible("composer"), is(true));
        assertThat("the copy, a draft, is in the editor", visible("publish"), is(true));
        assertThat(previewText(), is("Spring offer: two for one"));
        assertThat(focusedClass(), containsString("ProseMirror"));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        assertThat(violations(), is("[]"));
    }

    @Test
    void unpublishAsksFirstThenTakesItOutOfTheFeed() throws IOException {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        String id = server.herald().notification(project).message("Maintenance tonight").save().id();
        projectOpened(project);
        openFirstAnnouncement();
        browser.script("document.getElementById('lifecycle').scrollIntoView({block: 'center'})");
        save("console-lifecycle.png");
        focus("unpublish");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), startsWith("Unpublish? It leaves the feeds"));
        assertThat(focused(), is("confirm-no"));
        press("Enter", 13);
        waitFor(() -> !confirmOpen());
        assertThat("Cancel changes nothing", feed(key), containsString("Maintenance tonight"));
        assertThat(focused(), is("unpublish"));

        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        assertThat(focused(), is("confirm-yes"));
        press("Enter", 13);
        waitFor(() -> !visible("composer") && text("status").startsWith("Unpublished"));
        assertThat(feed(key), is("[]"));
        assertThat(rows("#notification-list tbody tr span.state"), is(List.of("draft")));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.DRAFT));
        assertThat(focused(), is("compose"));
        assertThat(violations(), is("[]"));
    }

    @Test
    void deleteSaysWhatIsLostAsksFirstAndDeletes() throws IOException {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        String id = server.herald().notification(project).message("Old news").save().id();
        projectOpened(project);
        openFirstAnnouncement();
        focus("delete");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), is("Delete “Old news” for good? Its users no longer see it; its text, its"
                + " history and any draft of changes are deleted and cannot be restored. Its impressions and clicks"
                + " stay in the project's totals."));
        assertThat(text("confirm-yes"), is("Delete for good"));
        assertThat(focused(), is("confirm-no"));
        save("console-delete-question.png");
        press("Escape", 27);
        waitFor(() -> !confirmOpen());
        assertThat(server.herald().services().notifications().find(id).isPresent(), is(true));

        press("Enter", 13);
        waitFor(this::confirmOpen);
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> text("status").equals("Deleted “Old news”."));
        assertThat(server.herald().services().notifications().find(id).isPresent(), is(false));
        assertThat(feed(key), is("[]"));
        assertThat(visible("no-notifications"), is(true));
        assertThat(focused(), is("compose"));
        assertThat(violations(), is("[]"));
    }

    @Test
    void theHistoryMarksWordsAddedAndRemovedAndRestoresAVersionAsTheDraft() throws IOException {
        Project project = server.herald().project();
        String id = server.herald().notification(project).status(NotificationStatus.DRAFT)
                .message("Sale ends Friday at noon").save().id();
        projectOpened(project);
        openFirstAnnouncement();
        browser.chord("a", "KeyA", 65, 2);
        typeInEditor("Sale ends Monday at noon, online too");
        focus("announcement-title");
        browser.type("Sale");
        focus("save-draft");
        press("Enter", 13);
        waitFor(() -> rows("#notification-list tbody tr td.value").equals(List.of("Sale")));

        openFirstAnnouncement();
        focus("show-history");
        press("Enter", 13);
        waitFor(() -> visible("history") && focused().equals("history-title"));
        assertThat(visible("composer"), is(false));
        assertThat(text("history-title"), is("History of “Sale”"));
        List<String> headings = rows("#history-list > li > h3");
        assertThat(headings.size(), is(2));
        assertThat(headings.get(0), startsWith("Version 2 (the newest), "));
        assertThat(headings.get(0), containsString(" by alice"));
        assertThat(rows("#history-list > li:first-child dt"), is(List.of("Title", "Message")));
        assertThat("not by colour alone: a screen reader hears it", rows("#history-list > li:first-child dd"),
                   is(List.of("[added: Sale]", "Sale ends [removed: Friday][added: Monday] at [removed: noon]"
                           + "[added: noon, online too]")));
        assertThat(rows("#history-list > li:first-child del"), is(List.of("[removed: Friday]", "[removed: noon]")));
        browser.script("document.getElementById('history').scrollIntoView()");
        save("console-history.png");
        browser.viewport(320, 800, true);
        try {
            assertThat(browser.script("return document.documentElement.scrollWidth").toString(), is("320"));
            browser.script("document.getElementById('history').scrollIntoView()");
            save("console-history-320px.png");
        } finally {
            browser.resetViewport();
        }

        browser.script("document.querySelector('[aria-label=\"Restore version 1 as draft\"]').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), startsWith("Restore version 1 as the draft?"));
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> visible("composer") && text("status").equals("Version 1 restored as the draft."));
        assertThat(previewText(), is("Sale ends Friday at noon"));
        assertThat(Chromium.text(browser.script("return document.getElementById('announcement-title').value")),
                   is(""));
        assertThat(server.herald().services().notifications().find(id).orElseThrow().message(),
                   is("Sale ends Friday at noon"));
        assertThat(violations(), is("[]"));
    }

    /** Nothing reaches users by a restore: of a live announcement, the version becomes its draft of changes. */
    @Test
    void aVersionOfALiveAnnouncementIsRestoredAsItsDraftOfChanges() {
        Project project = server.herald().project();
        ApiKey key = server.herald().key(project);
        String id = server.herald().notification(project).message("First words").save().id();
        projectOpened(project);
        patchMessages(id, "Second words");
        browser.open(console() + "#/projects");
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> rows("#notification-list tbody tr td.value").equals(List.of("Second words")));
        openFirstAnnouncement();
        focus("show-history");
        press("Enter", 13);
        waitFor(() -> visible("history") && rows("#history-list > li > h3").size() == 2);
        browser.script("document.querySelector('[aria-label=\"Restore version 1 as draft\"]').focus()");
        press("Enter", 13);
        waitFor(this::confirmOpen);
        assertThat(text("confirm-text"), startsWith("Keep version 1 as a draft of changes? The published announcement"
                + " stays as it is until you update it"));
        press("Tab", 9, true);
        press("Enter", 13);
        waitFor(() -> visible("composer") && visible("draft-note"));
        assertThat(previewText(), is("First words"));
        assertThat(text("status"), is("Version 1 kept as a draft of changes; the published announcement is as it was."));
        assertThat(feed(key), containsString("Second words"));
        assertThat(visible("update-live"), is(true));
        assertThat(violations(), is("[]"));
    }

    /** Twenty versions a page; the last of a page is drawn against the first of the next, which "Older versions" reads. */
    @Test
    void olderVersionsAreReadAPageAtATimeEachAgainstTheOneBeforeIt() {
        Project project = server.herald().project();
        String id = server.herald().notification(project).status(NotificationStatus.DRAFT).message("v1").save().id();
        projectOpened(project);
        patchMessages(id, IntStream.rangeClosed(2, 25).mapToObj(i -> "v" + i).toArray(String[]::new));
        browser.open(console() + "#/projects");
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> rows("#notification-list tbody tr td.value").equals(List.of("v25")));
        openFirstAnnouncement();
        focus("show-history");
        press("Enter", 13);
        waitFor(() -> visible("history") && focused().equals("history-title"));
        assertThat(rows("#history-list > li > h3").size(), is(19));
        assertThat(rows("#history-list > li:last-child dd"), is(List.of("[removed: v6][added: v7]")));
        assertThat(visible("older-versions"), is(true));
        focus("older-versions");
        press("Enter", 13);
        waitFor(() -> rows("#history-list > li > h3").size() == 25);
        assertThat(rows("#history-list > li:nth-child(20) dd"), is(List.of("[removed: v5][added: v6]")));
        assertThat(rows("#history-list > li:last-child > p.hint"),
                   is(List.of("The oldest version kept: everything it holds is shown as added.")));
        assertThat(visible("older-versions"), is(false));
        assertThat("reading goes on at the first version read", Chromium.text(browser.script(
                "return document.activeElement.textContent")), startsWith("Version 6, "));
        assertThat(violations(), is("[]"));
    }

    @Test
    void aViewerReadsTheHistoryFromTheListAndRestoresNothing() {
        Project project = server.herald().project();
        server.herald().notification(project).message("Read only").save();
        signIn("victor", VICTOR);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && !rows("#notification-list tbody tr").isEmpty());
        assertThat(rows("#notification-list tbody tr"), is(List.of("Read only live — — 0 — History")));
        browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        press("Enter", 13);
        waitFor(() -> visible("history") && focused().equals("history-title"));
        assertThat(rows("#history-list > li > h3").size(), is(1));
        assertThat("nothing a viewer may do", rows("#history-list button"), is(List.of()));
        focus("close-history");
        press("Enter", 13);
        waitFor(() -> !visible("history"));
        assertThat("back on its row", Chromium.text(browser.script(
                "return document.activeElement.getAttribute('aria-label')")), is("History of “Read only”"));
        assertThat(violations(), is("[]"));
    }

    /** Each message in turn, as the signed-in account's PATCHes of the notification (each a version). */
    private static void patchMessages(String id, String... messages) {
        assertThat(Chromium.text(browser.await("const session = await (await fetch('/api/v1/admin/session')).json();"
                + " let statuses = ''; for (const message of arguments[1].split('\\n')) statuses += (await fetch("
                + "'/api/v1/admin/notifications/' + arguments[0], {method: 'PATCH', headers: {'Content-Type':"
                + " 'application/json', 'X-CSRF-Token': session.csrfToken}, body: JSON.stringify({message})})).status;"
                + " return statuses;", id, String.join("\n", messages))), is("200".repeat(messages.length)));
    }

    /** Alice, signed in, on the project's page. */
    private static void projectOpened(Project project) {
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name())
                && !rows("#notification-list tbody tr").isEmpty());
    }

    /** A new project, its page as alice sees it. */
    private static Project projectShown() {
        Project project = server.herald().project();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name()));
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

    private static void openFirstAnnouncement() {
        browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
    }

    private static void typeInEditor(String text) {
        browser.type(text);
        waitFor(() -> previewText().contains(text));
    }

    /** The preview is the widget's own panel (preview.js): the words of its light item. */
    private static String previewText() {
        return Chromium.text(browser.script("const preview = document.querySelector('#preview-light .herald-preview');"
                + " const message = preview && preview.shadowRoot.querySelector('[part=message]');"
                + " return message ? message.textContent : ''"));
    }

    private static void focus(String id) {
        browser.script("document.getElementById(arguments[0]).focus()", id);
    }

    /** The text of each element the selector finds; of a table row, its cells' texts joined by a space. */
    private static List<String> rows(String selector) {
        return Chromium.strings(browser.script("return [...document.querySelectorAll(arguments[0])]"
                + ".map((e) => e.tagName === 'TR' ? [...e.cells].map((c) => c.textContent.trim()).join(' ')"
                + " : e.textContent.trim())", selector));
    }

    private boolean confirmOpen() {
        return browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE);
    }

    private static String feed(ApiKey key) {
        return Chromium.text(browser.await("const answer = await fetch('/api/v1/public/' + arguments[0]"
                + " + '/notifications', {cache: 'no-store'}); return await answer.text();", key.key()));
    }

    private static String console() {
        return server.uri() + "/console/";
    }

    private static void press(String key, int code) {
        browser.press(key, code, false);
    }

    private static void press(String key, int code, boolean shift) {
        browser.press(key, code, shift);
    }

    private static String focusedClass() {
        return Chromium.text(browser.script("return document.activeElement.className || ''"));
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
