package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.herald.support.JsonBodies;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;

/**
 * A real Chromium on the console of a real Herald on H2 of its own, with alice (editor) and victor (viewer), every
 * Content-Security-Policy violation recorded: what a console test drives, by keyboard, and reads back.
 */
final class ConsoleDriver implements AutoCloseable {

    static final String ALICE = "alice-console-token-0123456789abcdef0123456789";
    static final String VICTOR = "victor-console-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";
    private static final Map<String, String> ACCOUNTS = Map.of(
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

    final Chromium browser;
    final TestDatabase database;
    final MainBuiltServer server;

    private ConsoleDriver(Chromium browser, TestDatabase database, MainBuiltServer server) {
        this.browser = browser;
        this.database = database;
        this.server = server;
    }

    static ConsoleDriver start() throws IOException, InterruptedException {
        Chromium browser = Chromium.start();
        TestDatabase database = TestDatabase.h2();
        MainBuiltServer server = MainBuiltServer.start(database, ACCOUNTS);
        browser.beforeEveryPage(RECORD_VIOLATIONS);
        Files.createDirectories(SCREENSHOTS);
        return new ConsoleDriver(browser, database, server);
    }

    @Override
    public void close() throws SQLException {
        server.close();
        database.close();
        browser.close();
    }

    String console() {
        return server.uri() + "/console/";
    }

    /** The sign-in page, signed out. */
    void signedOut() {
        browser.open(console());
        browser.await("const current = await fetch('/api/v1/admin/session');"
                + "if (current.status === 200) await fetch('/api/v1/admin/session', {method: 'DELETE',"
                + " headers: {'X-CSRF-Token': (await current.json()).csrfToken}});");
        browser.open(console());
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

    String focused() {
        return script("return document.activeElement.id || ''");
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
            assertThat(browser.script("return document.documentElement.scrollWidth").toString(), org.hamcrest.Matchers
                    .is("320"));
            save(name + "-320px.png");
        } finally {
            browser.resetViewport();
        }
    }

    /** The page as a PNG in docs/screenshots (herald.screenshots). */
    void save(String name) throws IOException {
        byte[] png = browser.screenshot();
        assertThat("a PNG of some substance", png.length, greaterThan(5_000));
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
