package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.herald.apikey.ApiKey;
import dev.herald.project.Project;
import dev.herald.support.JsonBodies;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * A real Chromium on the console of a real Herald on H2 of its own, by default with alice (editor) and victor
 * (viewer), every Content-Security-Policy violation recorded: what a console test drives, by keyboard, and reads back.
 * A test of two people at once opens {@link #anotherBrowser()} on the same Herald.
 */
final class ConsoleDriver implements AutoCloseable {

    static final String ALICE = "alice-console-token-0123456789abcdef0123456789";
    static final String VICTOR = "victor-console-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";
    /** The accounts of {@link #start()}: alice may write, victor only read. */
    static final Map<String, String> ALICE_AND_VICTOR = Map.of(
            "admin.accounts.0.name", "alice", "admin.accounts.0.role", "editor",
            "admin.accounts.0.token-sha256", Tokens.sha256(ALICE),
            "admin.accounts.1.name", "victor", "admin.accounts.1.role", "viewer",
            "admin.accounts.1.token-sha256", Tokens.sha256(VICTOR));
    /** fetch of the management API as the page's session: {@code send(method, path, body)} answers the JSON. */
    private static final String SEND = "const session = await (await fetch('/api/v1/admin/session')).json();"
            + "const send = async (method, path, body) => { const answer = await fetch('/api/v1/admin' + path,"
            + " {method, headers: {'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken},"
            + " body: JSON.stringify(body)}); if (!answer.ok) throw new Error(path + ' ' + answer.status"
            + " + ' ' + await answer.text()); return answer.status === 204 ? null : answer.json(); };";

    /**
     * The message in the composer's preview of that scheme: the widget's panel, in the shadow root of the SDK's
     * preview element; the message part of a placeholder while none is drawn.
     */
    static final String PREVIEW = "const message = (theme) => document.querySelector('#preview-' + theme"
            + " + ' .herald-preview')?.shadowRoot.querySelector('[part=message]') || document.createElement('div');";

    final Chromium browser;
    final TestDatabase database;
    final MainBuiltServer server;
    /** Whether closing this driver ends the Herald and its database too: not so for {@link #anotherBrowser()}. */
    private final boolean ownsServer;

    private ConsoleDriver(Chromium browser, TestDatabase database, MainBuiltServer server, boolean ownsServer) {
        this.browser = browser;
        this.database = database;
        this.server = server;
        this.ownsServer = ownsServer;
    }

    /** With alice and victor ({@link #ALICE_AND_VICTOR}). */
    static ConsoleDriver start() throws IOException, InterruptedException {
        return start(ALICE_AND_VICTOR);
    }

    /** A Herald configured with these accounts ({@code admin.accounts.N.…}), and a browser on it. */
    static ConsoleDriver start(Map<String, String> accounts) throws IOException, InterruptedException {
        Chromium browser = recording(Chromium.start());
        try {
            TestDatabase database = TestDatabase.h2();
            return new ConsoleDriver(browser, database, MainBuiltServer.start(database, accounts), true);
        } catch (RuntimeException | Error failed) {
            // Else a chromedriver and its Chromium outlive the test run.
            browser.close();
            throw failed;
        }
    }

    /** A second browser (a second person) on the same Herald; closing it leaves the Herald running. */
    ConsoleDriver anotherBrowser() throws IOException, InterruptedException {
        return new ConsoleDriver(recording(Chromium.start()), database, server, false);
    }

    private static Chromium recording(Chromium browser) throws IOException {
        browser.beforeEveryPage(RECORD_VIOLATIONS);
        Files.createDirectories(SCREENSHOTS);
        return browser;
    }

    @Override
    public void close() throws SQLException {
        try {
            if (ownsServer) {
                server.close();
                database.close();
            }
        } finally {
            browser.close();
        }
    }

    String console() {
        return server.uri() + "/console/";
    }

    /**
     * The sign-in page, signed out, at the window's own size and colours (a test that emulated a phone or a dark
     * scheme and failed before it reset them does not change the next one's).
     */
    void signedOut() {
        browser.resetViewport();
        browser.emulateMedia(null, null);
        browser.open(console());
        endSession();
        browser.open(console());
    }

    /** Ends the page's session if it has one, as Sign out does, without loading the page again. */
    void endSession() {
        browser.await("const current = await fetch('/api/v1/admin/session');"
                + "if (current.status === 200) await fetch('/api/v1/admin/session', {method: 'DELETE',"
                + " headers: {'X-CSRF-Token': (await current.json()).csrfToken}});");
    }

    void signIn(String name, String token) {
        waitFor(() -> visible("sign-in"));
        browser.type(name);
        press("Tab", 9);
        browser.type(token);
        press("Enter", 13);
        waitFor(() -> visible("projects") || visible("project"));
    }

    /** Runs {@code script} (with {@code send} defined) in the page and reads what it returns as JSON. */
    JsonObject api(String script, Object... arguments) {
        return JsonBodies.object(Chromium.text(browser.await(SEND + script, arguments)));
    }

    /** The text of each element the selector finds; of a table row, its cells' texts joined by a space. */
    List<String> rows(String selector) {
        return Chromium.strings(browser.script("return [...document.querySelectorAll(arguments[0])]"
                + ".map((e) => e.tagName === 'TR' ? [...e.cells].map((c) => c.textContent.trim()).join(' ')"
                + " : e.textContent.trim())", selector));
    }

    String script(String body, Object... arguments) {
        return Chromium.text(browser.script(body, arguments));
    }

    void press(String key, int code) {
        browser.press(key, code, false);
    }

    void press(String key, int code, boolean shift) {
        browser.press(key, code, shift);
    }

    void focus(String selector) {
        browser.script("document.querySelector(arguments[0]).focus()", selector);
    }

    boolean visible(String id) {
        return browser.script("const e = document.getElementById(arguments[0]); return !!e && !e.hidden", id)
                .equals(JsonValue.TRUE);
    }

    String text(String id) {
        return script("return document.getElementById(arguments[0]).textContent", id);
    }

    /** The value of a form field. */
    String value(String id) {
        return script("return document.getElementById(arguments[0]).value", id);
    }

    String focused() {
        return script("return document.activeElement.id || ''");
    }

    /** The classes of what has the focus: {@code ProseMirror} while the editor has it. */
    String focusedClass() {
        return script("return document.activeElement.className || ''");
    }

    /** The performance section over the days given (not the browser's clock: Herald's), submitted by keyboard. */
    void showStats(LocalDate from, LocalDate to) {
        browser.script("document.getElementById('stats-from').value = arguments[0];"
                + "document.getElementById('stats-to').value = arguments[1];", from.toString(), to.toString());
        focus("#stats-form button[type=submit]");
        press("Enter", 13);
    }

    /** The lines of the CSV the button downloads, pressed by keyboard: what the page hands URL.createObjectURL. */
    List<String> downloaded(String button) {
        browser.script("window.__csv = null; const made = URL.createObjectURL;"
                + "URL.createObjectURL = (blob) => { blob.text().then((text) => { window.__csv = text; });"
                + " URL.createObjectURL = made; return made(blob); };");
        focus(button);
        press("Enter", 13);
        waitFor(() -> !browser.script("return window.__csv").equals(JsonValue.NULL));
        return List.of(script("return window.__csv").split("\r\n"));
    }

    boolean confirmOpen() {
        return browser.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE);
    }

    /** The public feed of that key, as its users' widgets fetch it. */
    String feed(ApiKey key) {
        return Chromium.text(browser.await("const answer = await fetch('/api/v1/public/' + arguments[0]"
                + " + '/notifications', {cache: 'no-store'}); return await answer.text();", key.key()));
    }

    /** A new project, its page as alice sees it. */
    Project projectShown() {
        Project project = server.herald().project();
        signIn("alice", ALICE);
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name()));
        return project;
    }

    /** Alice, signed in, on a new project's page, "Write an announcement" pressed: the editor has the focus. */
    Project composeInANewProject() {
        Project project = projectShown();
        openNewAnnouncement();
        return project;
    }

    /** "Write an announcement", by keyboard: the editor has the focus. */
    void openNewAnnouncement() {
        focus("#compose");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
    }

    /** The first announcement of the project's list, opened by keyboard: the editor has the focus. */
    void openFirstAnnouncement() {
        focus("#notification-list tbody tr button");
        press("Enter", 13);
        waitFor(() -> visible("composer") && focusedClass().contains("ProseMirror"));
    }

    /**
     * Text typed into the editor, then waited for until the editor's document holds it (the preview shows it):
     * ProseMirror reads typed text from the page a moment later, and a shortcut pressed before would act on a
     * document without it.
     */
    void typeInEditor(String text) {
        browser.type(text);
        waitFor(() -> previewText().contains(text));
    }

    /** The words of the light preview's message (see {@link #PREVIEW}). */
    String previewText() {
        return script(PREVIEW + "return message('light').textContent");
    }

    String violations() {
        return browser.violations();
    }

    void waitFor(Supplier<Boolean> condition) {
        browser.waitFor(condition);
    }

    /** The page as a PNG in docs/screenshots (herald.screenshots), and again at 320 px wide, nothing past its edge. */
    void saveLightAndPhone(String name, Runnable scrollTo) throws IOException {
        scrollTo.run();
        save(name + ".png");
        try {
            browser.viewport(320, 640, true);
            scrollTo.run();
            assertNothingPastThePhonesEdge(name);
            save(name + "-320px.png");
        } finally {
            browser.resetViewport();
        }
    }

    /**
     * On a 320 px phone, nothing shown is past its edge. Every element, not the document's scroll width: a table that
     * scrolls in its own box kept the document at 320 px while its Ends and Edit were past the phone's edge (issue
     * 30). What is shown only: a closed details' table is laid out, not seen.
     */
    void assertNothingPastThePhonesEdge(String page) {
        assertThat(page + ": nothing past the phone's edge, even in a box that scrolls", browser.script(
                "return [...document.querySelectorAll('body *')].filter((e) => { const r = e.getBoundingClientRect();"
                + " return r.width > 0 && r.right > 320.5 && e.checkVisibility()"
                + " && !e.closest('.visually-hidden, .skip'); })"
                + ".map((e) => e.tagName + '#' + e.id + '.' + e.className + ' '"
                + " + Math.round(e.getBoundingClientRect().right)).slice(0, 8).join(' ')"),
                   is(Json.createValue("")));
        assertThat(browser.script("return document.documentElement.scrollWidth"),
                   is(Json.createValue(320)));
    }

    /** The page as a PNG in docs/screenshots (herald.screenshots). */
    void save(String name) throws IOException {
        byte[] png = browser.screenshot();
        assertThat("a PNG of some substance", png.length, greaterThan(5_000));
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
