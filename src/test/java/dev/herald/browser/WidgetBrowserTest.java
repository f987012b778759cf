package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the widget's browser tests share, per test class: headless Chromium, a real Herald on H2 with its demo page on,
 * a customer's site of another origin (HostPages), and the waits for what the widget renders and records.
 */
abstract class WidgetBrowserTest {

    static final String SHADOW = "const root = document.getElementById('widget').shadowRoot;";
    /** Where the tests write their screenshots; docs/screenshots with -Dherald.screenshots=docs/screenshots (docs/browser.md). */
    static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));

    static TestDatabase database;
    static MainBuiltServer server;
    static TestHerald herald;
    static HostPages pages;
    static Chromium browser;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        browser = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, Map.of("sdk.demo.enabled", "true"));
        herald = server.herald();
        pages = new HostPages(server.uri());
    }

    @AfterAll
    static void stop() throws SQLException {
        if (pages != null) {
            pages.close();
        }
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

    /** The ids of the widget's rendered items, once there are {@code count}. */
    static List<String> items(int count) {
        try {
            return Chromium.strings(waitFor(() -> browser.script("""
                    const widget = document.getElementById('widget');
                    const items = widget && widget.shadowRoot ? widget.shadowRoot.querySelectorAll('[part~=item]') : [];
                    return [...items].map((item) => item.dataset.id);"""),
                    value -> ((JsonArray) value).size() == count, 10_000));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the page's errors, events and violations: " + browser.script(
                    "return [location.href, document.documentElement.outerHTML.slice(0, 600), window.__errors, window.__events, window.__violations]"), e);
        }
    }

    /** How many interactions of a type are stored, once it is {@code expected} or after {@code millis}. */
    static long stored(String notificationId, String type, long expected, long millis) throws SQLException {
        long deadline = System.currentTimeMillis() + millis;
        while (true) {
            long count = herald.interactions(notificationId).stream().filter(i -> i.type().equals(type)).count();
            if (count == expected && expected > 0 || System.currentTimeMillis() > deadline) {
                return count;
            }
            sleep(100);
        }
    }

    static <T> T waitFor(Supplier<T> read, Predicate<T> done, long millis) {
        long deadline = System.currentTimeMillis() + millis;
        T value = read.get();
        while (!done.test(value)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not within " + millis + " ms: " + value);
            }
            sleep(100);
            value = read.get();
        }
        return value;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A rich-text message of one paragraph. */
    static String doc(String text) {
        return Json.createObjectBuilder().add("type", "doc").add("content", Json.createArrayBuilder().add(
                Json.createObjectBuilder().add("type", "paragraph").add("content", Json.createArrayBuilder().add(
                        Json.createObjectBuilder().add("type", "text").add("text", text))))).build().toString();
    }
}
