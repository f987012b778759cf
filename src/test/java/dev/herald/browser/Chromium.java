package dev.herald.browser;

import java.io.IOException;
import java.io.StringReader;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium driven through chromedriver's W3C WebDriver protocol, spoken over HTTP with the JSON the
 * project already has: no Selenium, whose jars would have to join the module's tests. One browser per test class.
 * Where Chromium is missing, tests are skipped with how to run them, except under {@code CI=true}, where they fail.
 */
final class Chromium implements AutoCloseable {

    private static final Path BROWSER = Path.of("/usr/bin/chromium");
    private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private final Process driver;
    private final Http1Client client;
    private final String session;

    private Chromium(Process driver, Http1Client client, String session) {
        this.driver = driver;
        this.client = client;
        this.session = session;
    }

    static Chromium start() throws IOException, InterruptedException {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            String message = "Chromium is not installed (" + BROWSER + ", " + DRIVER + "): apt-get install chromium "
                    + "chromium-driver, then mvn verify (.ci/run installs them)";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process driver = new ProcessBuilder(DRIVER.toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Http1Client client = Http1Client.builder().baseUri("http://127.0.0.1:" + port)
                .readTimeout(Duration.ofSeconds(60)).build();
        for (int attempt = 0; ; attempt++) {
            try (Http1ClientResponse response = client.get("/status").request()) {
                if (response.status().code() == 200) {
                    break;
                }
            } catch (RuntimeException notYet) {
                if (attempt > 100) {
                    driver.destroyForcibly();
                    throw new AssertionError("chromedriver did not start", notYet);
                }
            }
            Thread.sleep(100);
        }
        // As root (CI) Chromium needs --no-sandbox; the window is the size screenshots are taken at.
        JsonObject capabilities = Json.createObjectBuilder().add("capabilities", Json.createObjectBuilder()
                .add("alwaysMatch", Json.createObjectBuilder()
                        .add("browserName", "chrome")
                        // What the page's console says, and its failed loads (a 401, a 404), for browserLog().
                        .add("goog:loggingPrefs", Json.createObjectBuilder().add("browser", "ALL"))
                        .add("goog:chromeOptions", Json.createObjectBuilder()
                                .add("binary", BROWSER.toString())
                                .add("args", Json.createArrayBuilder(List.of("--headless=new", "--no-sandbox",
                                        "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1024,768",
                                        "--hide-scrollbars", "--force-color-profile=srgb", "--lang=en-US")))))).build();
        JsonObject created = call(client, "POST", "/session", capabilities);
        return new Chromium(driver, client, created.getJsonObject("value").getString("sessionId"));
    }

    void open(String url) {
        command("POST", "/url", Json.createObjectBuilder().add("url", url).build());
    }

    /** Runs a function body in the page ({@code arguments[0]} …) and returns what it returns. */
    JsonValue script(String body, Object... arguments) {
        return command("POST", "/execute/sync", scriptRequest(body, arguments));
    }

    /** Runs an async function body in the page: its returned promise's value (up to the 60 s read time-out). */
    JsonValue await(String body, Object... arguments) {
        return script("return (async () => {" + body + "})()", arguments);
    }

    /** A DevTools command (emulated media, viewport, key presses), through chromedriver. */
    JsonValue devTools(String command, JsonObject parameters) {
        return command("POST", "/goog/cdp/execute",
                       Json.createObjectBuilder().add("cmd", command).add("params", parameters).build());
    }

    /** Waits in the page, so that its timers run as they would (the browser's clock, not the test's). */
    void pause(long millis) {
        await("await new Promise((done) => setTimeout(done, arguments[0]));", millis);
    }

    /** A media feature as the page sees it ({@code prefers-color-scheme: dark}); {@code null} ends every emulation. */
    void emulateMedia(String feature, String value) {
        var features = Json.createArrayBuilder();
        if (feature != null) {
            features.add(Json.createObjectBuilder().add("name", feature).add("value", value));
        }
        devTools("Emulation.setEmulatedMedia", Json.createObjectBuilder().add("features", features).build());
    }

    /** The page's viewport at this size (a phone with {@code mobile}), as the page sees it and resizes to. */
    void viewport(int width, int height, boolean mobile) {
        devTools("Emulation.setDeviceMetricsOverride", Json.createObjectBuilder().add("width", width).add("height", height)
                .add("deviceScaleFactor", 1).add("mobile", mobile).build());
    }

    /** Back to the window's own viewport. */
    void resetViewport() {
        devTools("Emulation.clearDeviceMetricsOverride", Json.createObjectBuilder().build());
    }

    /**
     * What the browser's console received since the last call (each {@code level}, {@code source}, {@code message}):
     * the page's own messages, and each load that failed ("Failed to load resource: … 401"), as a user opening the
     * developer tools sees them.
     */
    List<JsonObject> browserLog() {
        return ((JsonArray) command("POST", "/se/log", Json.createObjectBuilder().add("type", "browser").build()))
                .getValuesAs(JsonObject.class);
    }

    /** Waits in the page (its timers run) until the condition holds, 10 s at most; then fails with what it says. */
    void waitFor(java.util.function.Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not so within 10 s; the page says: "
                        + script("return document.getElementById('main').innerText"));
            }
            pause(20);
        }
    }

    /**
     * The Content-Security-Policy violations the page reported, as {@code [directive uri, …]}: recorded by a script
     * given to {@link #beforeEveryPage} that pushes them onto {@code window.__violations}.
     */
    String violations() {
        return script("return JSON.stringify(window.__violations)").toString().replace("\"", "")
                .replace("\\", "");
    }

    byte[] screenshot() {
        return Base64.getDecoder().decode(text(command("GET", "/screenshot", null)));
    }

    /** Text typed into whatever has the focus, as a keyboard's input (it fires the input events a user's would). */
    void type(String text) {
        devTools("Input.insertText", Json.createObjectBuilder().add("text", text).build());
    }

    /**
     * Letters or digits typed key by key (each a keyDown with its text, then a keyUp), as a keyboard sends them: a
     * date field takes its parts from keys, not from inserted text.
     */
    void typeKeys(String text) {
        for (char c : text.toCharArray()) {
            for (String type : List.of("keyDown", "keyUp")) {
                var event = Json.createObjectBuilder().add("type", type).add("key", String.valueOf(c))
                        .add("windowsVirtualKeyCode", (int) Character.toUpperCase(c));
                if (type.equals("keyDown")) {
                    event.add("text", String.valueOf(c));
                }
                devTools("Input.dispatchKeyEvent", event.build());
            }
        }
    }

    /** A script that runs in every page this browser opens from now on, before the page's own. */
    void beforeEveryPage(String source) {
        devTools("Page.addScriptToEvaluateOnNewDocument", Json.createObjectBuilder().add("source", source).build());
    }

    /** A real mouse click (pressed, released) at a point of the viewport, as a user's hand makes it. */
    void clickAt(double x, double y) {
        mouse("mousePressed", x, y);
        mouse("mouseReleased", x, y);
    }

    /** Half a click: the left button {@code mousePressed} or {@code mouseReleased} at a point of the viewport. */
    void mouse(String type, double x, double y) {
        devTools("Input.dispatchMouseEvent", Json.createObjectBuilder().add("type", type).add("x", x).add("y", y)
                .add("button", "left").add("clickCount", 1).build());
    }

    /** A real key press (Tab, Escape, Enter) on whatever has the focus. */
    void press(String key, int keyCode, boolean shift) {
        // Enter activates a button only as a key that types ("keyDown" with its text); the others need no text.
        String down = key.equals("Enter") ? "keyDown" : "rawKeyDown";
        for (String type : List.of(down, "keyUp")) {
            var event = Json.createObjectBuilder().add("type", type).add("key", key).add("code", key)
                    .add("windowsVirtualKeyCode", keyCode).add("modifiers", shift ? 8 : 0);
            if (type.equals("keyDown")) {
                event.add("text", "\r");
            }
            devTools("Input.dispatchKeyEvent", event.build());
        }
    }

    /**
     * A key pressed with modifiers held (Alt 1, Ctrl 2, Meta 4, Shift 8, added), as a shortcut is:
     * {@code chord("b", "KeyB", 66, 2)} is Ctrl+B.
     */
    void chord(String key, String code, int keyCode, int modifiers) {
        for (String type : List.of("rawKeyDown", "keyUp")) {
            devTools("Input.dispatchKeyEvent", Json.createObjectBuilder().add("type", type).add("key", key)
                    .add("code", code).add("windowsVirtualKeyCode", keyCode).add("modifiers", modifiers).build());
        }
    }

    private JsonValue command(String method, String path, JsonObject body) {
        return call(client, method, "/session/" + session + path, body).get("value");
    }

    private static JsonObject scriptRequest(String body, Object... arguments) {
        var args = Json.createArrayBuilder();
        for (Object argument : arguments) {
            if (argument instanceof Number number) {
                args.add(number.longValue());
            } else {
                args.add(String.valueOf(argument));
            }
        }
        return Json.createObjectBuilder().add("script", body).add("args", args).build();
    }

    private static JsonObject call(Http1Client client, String method, String path, JsonObject body) {
        var request = client.method(io.helidon.http.Method.create(method)).path(path);
        try (Http1ClientResponse response = body == null
                ? request.request()
                : request.header(HeaderNames.CONTENT_TYPE, "application/json").submit(body.toString())) {
            String text = response.as(String.class);
            JsonObject answer = Json.createReader(new StringReader(text)).readObject();
            if (response.status().code() != 200) {
                throw new AssertionError("WebDriver " + method + " " + path + " answered " + response.status().code()
                        + ": " + errorOf(answer));
            }
            return answer;
        }
    }

    private static String errorOf(JsonObject answer) {
        JsonValue value = answer.get("value");
        if (value instanceof JsonObject object && object.containsKey("message")) {
            return object.getString("error", "") + ": " + object.getString("message");
        }
        return answer.toString();
    }

    static List<String> strings(JsonValue value) {
        return ((JsonArray) value).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    static String text(JsonValue value) {
        return ((JsonString) value).getString();
    }

    @Override
    public void close() {
        try {
            call(client, "DELETE", "/session/" + session, null);
        } catch (RuntimeException | AssertionError ignored) {
            // The browser goes with its driver below.
        }
        driver.destroy();
        client.closeResource();
    }
}
