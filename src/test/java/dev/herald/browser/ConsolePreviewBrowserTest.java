package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.herald.project.Project;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * Issue 30, point 3: the composer's preview is the widget's own panel (the SDK's preview.mjs), with the image, the
 * call to action and its label, the preset, in light and dark, at a desktop's and a phone's width. And point 7's
 * last small thing: a signed-out load of the console writes nothing to the browser's console (no 401, no 404).
 * Driven by the keyboard, under the console's Content-Security-Policy: every violation fails the test.
 */
class ConsolePreviewBrowserTest {

    private static final String ALICE = "alice-preview-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";
    /** The panel of the preview of that scheme, in the shadow root of the SDK's preview element, or null. */
    private static final String PANEL = "const panel = (theme) => document.querySelector('#preview-' + theme"
            + " + ' .herald-preview')?.shadowRoot.querySelector('[part=panel]');";

    private static TestDatabase database;
    private static MainBuiltServer server;
    private static Chromium browser;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        browser = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, Map.of("admin.accounts.0.name", "alice",
                "admin.accounts.0.role", "editor", "admin.accounts.0.token-sha256", Tokens.sha256(ALICE)));
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
        browser.resetViewport();
        browser.emulateMedia(null, null);
        browser.open(console());
        browser.await("const current = await fetch('/api/v1/admin/session');"
                + "if (current.status === 200) await fetch('/api/v1/admin/session', {method: 'DELETE',"
                + " headers: {'X-CSRF-Token': (await current.json()).csrfToken}});");
    }

    /** It logged a 401 (GET /session) at every signed-out load; a favicon 404 before that. */
    @Test
    void aSignedOutLoadWritesNothingToTheBrowsersConsole() {
        browser.browserLog();
        browser.open(console());
        waitFor(() -> visible("sign-in") && focused().equals("sign-in-name"));
        browser.pause(500);
        List<JsonObject> log = browser.browserLog();
        assertThat(log.toString(), log, is(empty()));
        assertThat(violations(), is("[]"));
    }

    @Test
    void thePreviewIsTheWidgetsPanelWithImageButtonLabelAndPresetInLightDarkAndAtAPhonesWidth() throws IOException {
        composeInANewProject();
        browser.type("Spring sale: 20% off every boot, this week only.");
        String image = server.uri() + "/console/favicon.svg";
        field("image-url");
        browser.type(image);
        field("action-type");
        assertThat("a label only for a link", visible("link-fields"), is(false));
        press("ArrowDown", 40);
        waitFor(() -> visible("link-fields"));
        press("Tab", 9);
        assertThat(focused(), is("action-url"));
        browser.type("https://example.com/spring");
        press("Tab", 9);
        press("Tab", 9);
        assertThat(focused(), is("action-label"));
        browser.type("See the boots");
        field("preset");
        browser.chord("a", "KeyA", 65, 2);
        browser.type("banner");

        for (String theme : List.of("light", "dark")) {
            waitFor(() -> panelSays(theme, "return p.querySelector('a[part~=action]')?.textContent"
                    + " + '|' + p.querySelector('article')?.part.value").equals("See the boots|item preset-banner"));
            assertThat(panelSays(theme, "return p.querySelector('[part=message]').textContent"),
                       is("Spring sale: 20% off every boot, this week only."));
            assertThat(panelSays(theme, "return p.querySelector('img[part=image]').src"), is(image));
            assertThat(panelSays(theme, "return p.querySelector('a[part~=action]').href"),
                       is("https://example.com/spring"));
            assertThat("the widget's heading", panelSays(theme, "return p.querySelector('[part=title]').textContent"),
                       is("Announcements"));
        }
        // The scheme is the preview's own, whatever the page's: light stays light in a dark console.
        browser.emulateMedia("prefers-color-scheme", "dark");
        assertThat(panelSays("light", "return getComputedStyle(p).backgroundColor"), is("rgb(255, 255, 255)"));
        assertThat(panelSays("dark", "return getComputedStyle(p).backgroundColor"), is("rgb(31, 32, 36)"));
        browser.emulateMedia("prefers-color-scheme", "light");
        assertThat(panelSays("dark", "return getComputedStyle(p).backgroundColor"), is("rgb(31, 32, 36)"));
        assertThat("a picture: no focus, no click", panelSays("light", "return String(p.inert)"), is("true"));

        assertThat(panelSays("light", "return String(p.getBoundingClientRect().width)"), is("360"));
        field("preview-phone");
        press("Enter", 13);
        waitFor(() -> panelSays("light", "return String(p.getBoundingClientRect().width)").equals("304"));
        assertThat(browser.script("return document.getElementById('preview-phone').getAttribute('aria-pressed')"),
                   is(Json.createValue("true")));
        assertThat(panelSays("dark", "return String(p.getBoundingClientRect().width)"), is("304"));
        browser.script("document.getElementById('previews').scrollIntoView()");
        save("console-preview-phone.png");
        field("preview-desktop");
        press("Enter", 13);
        waitFor(() -> panelSays("light", "return String(p.getBoundingClientRect().width)").equals("360"));
        browser.script("document.getElementById('previews').scrollIntoView()");
        save("console-preview.png");
        browser.emulateMedia("prefers-color-scheme", "dark");
        save("console-preview-dark.png");
        browser.emulateMedia(null, null);
        browser.viewport(320, 900, true);
        browser.script("document.getElementById('previews').scrollIntoView()");
        assertThat("no wider than the phone", browser.script("return document.documentElement.scrollWidth"),
                   is(Json.createValue(320)));
        save("console-preview-320px.png");
        browser.resetViewport();

        // Without a label of its own, the button says what the site's widget says: "Learn more" by default.
        field("action-label");
        browser.chord("a", "KeyA", 65, 2);
        press("Backspace", 8);
        waitFor(() -> panelSays("light", "return p.querySelector('a[part~=action]').textContent").equals("Learn more"));
        assertThat(violations(), is("[]"));
    }

    /** What the label sent is what is stored and served; an API refusal of it is said beside the link's fields. */
    @Test
    void theLabelIsSavedAndATooLongOneIsRefusedBesideItsField() {
        Project project = composeInANewProject();
        browser.type("Read the notes");
        field("action-type");
        press("ArrowDown", 40);
        waitFor(() -> visible("link-fields"));
        field("action-url");
        browser.type("https://example.com/notes");
        field("action-label");
        // More than the field lets a keyboard type: the API's own check, past the form's maxlength.
        browser.script("document.getElementById('action-label').value = 'x'.repeat(61)");
        field("save-draft");
        press("Enter", 13);
        waitFor(() -> !text("action-error").isEmpty());
        assertThat(text("action-error"), is("action.data.label is too long: 61 characters, more than the 60 allowed"));
        assertThat(focused(), is("action-label"));
        browser.chord("a", "KeyA", 65, 2);
        browser.type("Read the notes");
        field("save-draft");
        press("Enter", 13);
        waitFor(() -> !visible("composer"));
        JsonObject stored = (JsonObject) browser.await("const answer = await fetch('/api/v1/admin/projects/'"
                + " + arguments[0] + '/notifications'); return (await answer.json())[0].action;", project.id());
        assertThat(stored, is(Json.createObjectBuilder().add("type", "LINK").add("data", Json.createObjectBuilder()
                .add("url", "https://example.com/notes").add("target", "_blank").add("label", "Read the notes"))
                .build()));
        assertThat(violations(), is("[]"));
    }

    /** Alice, signed in by keyboard, on a new project's page, "Write an announcement" pressed: the editor has the focus. */
    private static Project composeInANewProject() {
        Project project = server.herald().project();
        browser.open(console());
        waitFor(() -> visible("sign-in"));
        browser.type("alice");
        press("Tab", 9);
        browser.type(ALICE);
        press("Enter", 13);
        waitFor(() -> visible("projects") || visible("project"));
        browser.open(console() + "#/projects/" + project.id());
        waitFor(() -> visible("project") && text("project-title").equals(project.name()));
        field("compose");
        press("Enter", 13);
        waitFor(() -> visible("composer") && Chromium.text(browser.script("return document.activeElement.className"))
                .contains("ProseMirror"));
        return project;
    }

    /** What a script says of the panel of the preview of that scheme ({@code p}); empty while there is none. */
    private static String panelSays(String theme, String script) {
        JsonValue value = browser.script(PANEL + "const p = panel(arguments[0]); if (!p) return '';"
                + " return (() => {" + script + "})()", theme);
        return value instanceof jakarta.json.JsonString text ? text.getString() : String.valueOf(value);
    }

    /** A field of the form, reached as Tab would reach it. */
    private static void field(String id) {
        browser.script("document.getElementById(arguments[0]).focus()", id);
    }

    private static String console() {
        return server.uri() + "/console/";
    }

    private static void press(String key, int code) {
        browser.press(key, code, false);
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
