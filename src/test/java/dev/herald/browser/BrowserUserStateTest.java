package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jwt.JWTClaimsSet;
import dev.herald.apikey.ApiKey;
import dev.herald.identity.TokenMint;
import dev.herald.notification.Action;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * One user on two devices (two Chromium profiles: nothing shared but Herald): the widget with a user token shows the
 * server's unread count, a panel opened on one device reads them everywhere, and an announcement dismissed in one
 * profile is gone from the other (docs/identity.md, docs/browser.md). Clicks are the mouse's, through DevTools.
 */
class BrowserUserStateTest {

    private static final Action CLOSE = new Action(Action.Type.CLOSE, null, null);
    private static final String SHADOW = "const root = document.getElementById('widget').shadowRoot;";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));

    private static TestDatabase database;
    private static MainBuiltServer server;
    private static TestHerald herald;
    private static HostPages pages;
    private static Chromium laptop;
    private static Chromium phone;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        laptop = Chromium.start();
        phone = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, Map.of("admin.tokens.0", AdminClient.TOKEN));
        herald = server.herald();
        pages = new HostPages(server.uri());
    }

    @AfterAll
    static void stop() throws SQLException {
        for (AutoCloseable closeable : new AutoCloseable[] {pages, server, database}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        for (Chromium browser : new Chromium[] {laptop, phone}) {
            if (browser != null) {
                browser.close();
            }
        }
    }

    @Test
    void aDismissalInOneProfileIsGoneInTheOtherAndTheBadgeIsTheServers() throws IOException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String older = herald.notification(project).message("Saved filters are here").action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(120)).save().id();
        String newer = herald.notification(project).message("Dark mode, at last").action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        AdminClient admin = new AdminClient(Http1Client.builder().baseUri(server.uri()).build());
        JsonObject signing = admin.created("/projects/" + project.id() + "/token-keys", "{\"algorithm\":\"HS256\"}");
        String ada = token(project, signing, "ada");
        String adaOnHerPhone = token(project, signing, "ada", Duration.ofMinutes(1));
        String grace = token(project, signing, "grace");

        laptop.open(pages.pageAsUser(key.key(), ada, 5));
        phone.open(pages.pageAsUser(key.key(), adaOnHerPhone, 5));
        for (Chromium device : List.of(laptop, phone)) {
            assertThat(items(device, 2), is(List.of(newer, older)));
            assertThat("the server's count of unread", badge(device), is("2"));
        }

        // The laptop opens the panel: what it shows is read, on every device. Then it dismisses the newer one.
        click(laptop, "root.querySelector('[part=launcher]')");
        laptop.waitFor(() -> badge(laptop).isEmpty());
        click(laptop, "root.querySelector('[data-id=\"" + newer + "\"] [part~=dismiss]')");
        assertThat(items(laptop, 1), is(List.of(older)));

        // The phone, polling every 5 s, follows: the dismissed one gone, nothing unread.
        assertThat(items(phone, 1), is(List.of(older)));
        phone.waitFor(() -> badge(phone).isEmpty());
        Files.createDirectories(SCREENSHOTS);
        click(phone, "root.querySelector('[part=launcher]')");
        phone.pause(400); // the panel fades in for 0.16 s
        Files.write(SCREENSHOTS.resolve("browser-second-device.png"), phone.screenshot());

        // The same phone, another user: her own state, nothing of Ada's.
        phone.script("Herald.identify(arguments[0])", grace);
        assertThat(items(phone, 2), is(List.of(newer, older)));
        phone.waitFor(() -> badge(phone).equals("2"));

        for (Chromium device : List.of(laptop, phone)) {
            assertThat(device.violations(), is("[]"));
            assertThat(Chromium.strings(device.script("return window.__errors")), is(empty()));
        }
        assertThat(pages.takeReports(), is(empty()));
    }

    /**
     * A poll asked before a dismissal and answered after the dismissal's own poll must not bring the dismissed one back
     * (until the next poll, a minute by default): the widget shows no answer older than the one it shows.
     */
    @Test
    void aStateAnsweredBeforeADismissalAndDeliveredAfterItDoesNotBringItBack() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String older = herald.notification(project).message("Exports in CSV").action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(120)).save().id();
        String newer = herald.notification(project).message("Exports in Parquet").action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        AdminClient admin = new AdminClient(Http1Client.builder().baseUri(server.uri()).build());
        JsonObject signing = admin.created("/projects/" + project.id() + "/token-keys", "{\"algorithm\":\"HS256\"}");
        String lin = token(project, signing, "lin");
        laptop.open(pages.pageAsUser(key.key(), lin, 60));
        assertThat(items(laptop, 2), is(List.of(newer, older)));

        // Opening the panel reads both and polls: that poll's state answer (nothing dismissed) is held back.
        laptop.script("window.__holdNextState = true");
        click(laptop, "root.querySelector('[part=launcher]')");
        laptop.waitFor(() -> laptop.script("return typeof window.__releaseState").equals(Json.createValue("function")));
        click(laptop, "root.querySelector('[data-id=\"" + newer + "\"] [part~=dismiss]')");
        assertThat(items(laptop, 1), is(List.of(older)));
        laptop.waitFor(() -> dismissedOnServer(key, lin, newer));
        laptop.pause(500); // the dismissal's own poll, answered at once

        laptop.script("window.__releaseState()");
        laptop.pause(300);
        assertThat(items(laptop, 1), is(List.of(older)));
        assertThat(badge(laptop), is(""));
    }

    /**
     * Another user signs in on the same page (identify): nothing of the user before stays on screen, and an answer
     * asked for that user, delivered after the switch, is not shown as the new user's.
     */
    @Test
    void afterIdentifyNothingOfTheUserBeforeIsShownNotEvenAnAnswerAskedForThem() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String older = herald.notification(project).message("Audit log").createdAt(TestHerald.START.minusSeconds(120))
                .save().id();
        String newer = herald.notification(project).message("Team roles").createdAt(TestHerald.START.minusSeconds(60))
                .save().id();
        AdminClient admin = new AdminClient(Http1Client.builder().baseUri(server.uri()).build());
        JsonObject signing = admin.created("/projects/" + project.id() + "/token-keys", "{\"algorithm\":\"HS256\"}");
        String mei = token(project, signing, "mei");
        String omar = token(project, signing, "omar");
        mark(key, mei, newer, "dismissed");
        phone.open(pages.pageAsUser(key.key(), mei, 60));
        assertThat(items(phone, 1), is(List.of(older)));

        // Mei reads on another device; a poll for her gets it and is held back. Then Omar signs in, his answer held too.
        mark(key, mei, older, "read");
        phone.script("window.__holdNextState = true; document.getElementById('widget').poll()");
        phone.waitFor(() -> phone.script("return typeof window.__releaseState").equals(Json.createValue("function")));
        phone.script("window.__releaseMei = window.__releaseState; window.__holdNextState = true;"
                     + " Herald.identify(arguments[0])", omar);
        assertThat("Mei's list is gone at once", items(phone, 0), is(empty()));
        phone.waitFor(() -> phone.script("return window.__releaseState !== window.__releaseMei").equals(JsonValue.TRUE));

        phone.script("window.__releaseMei()");
        phone.pause(300);
        assertThat("Mei's answer, delivered after the switch", items(phone, 0), is(empty()));
        phone.script("window.__releaseState()");
        assertThat(items(phone, 2), is(List.of(newer, older)));
    }

    /**
     * Herald.identify reaches every widget of the page: one inside another component's shadow root, and one a
     * framework had taken out of the page at the time, once it is put back.
     */
    @Test
    void herSignOutReachesAWidgetInAShadowRootAndOneOutOfThePage() {
        SignedIn page = signedIn("mia");
        mark(page.key(), page.token(), page.newer(), "dismissed");
        // Signed in by the page's script rather than by the attribute, which, where set, a widget keeps to.
        laptop.script("document.getElementById('widget').removeAttribute('user-token'); Herald.identify(arguments[0])",
                      page.token());
        assertThat(items(laptop, 1), is(List.of(page.older())));
        String sam = token(page.project(), page.signing(), "sam");

        laptop.script("const host = document.body.appendChild(document.createElement('div'));"
                + "window.__widget = document.getElementById('widget');"
                + "host.attachShadow({mode: 'open'}).append(window.__widget); Herald.identify(arguments[0]);", sam);
        assertThat(Chromium.strings(laptop.await("""
                for (let i = 0; i < 100; i++) {
                  const ids = [...window.__widget.shadowRoot.querySelectorAll('[part~=item]')].map((e) => e.dataset.id);
                  if (ids.length === 2) return ids;
                  await new Promise((resolve) => setTimeout(resolve, 100));
                }
                return [];""")), is(List.of(page.newer(), page.older())));

        laptop.script("Herald.identify(arguments[0]); window.__widget.remove(); Herald.identify(arguments[1]);"
                + "document.body.append(window.__widget);", page.token(), sam);
        assertThat(items(laptop, 2), is(List.of(page.newer(), page.older())));
    }

    /** A token refreshed before it expires (the same user) changes nothing on screen: the list and the focus stay. */
    @Test
    void aFreshTokenOfTheSameUserKeepsTheListAndTheFocus() {
        SignedIn page = signedIn("noor");
        tabToTheNewersDismiss(page);
        int updates = updates(laptop);
        laptop.script("document.getElementById('widget').setAttribute('user-token', arguments[0])",
                      token(page.project(), page.signing(), "noor", Duration.ofMinutes(1)));
        laptop.waitFor(() -> updates(laptop) > updates);
        assertThat(shown(laptop), is(List.of(page.newer(), page.older())));
        assertThat(focused(laptop), is(page.newer() + " action dismiss"));
    }

    /** Another device dismisses the announcement whose button has the focus here: the focus stays in the panel. */
    @Test
    void theFocusOnAnItemAnotherDeviceDismissedGoesToTheCloseButton() {
        SignedIn page = signedIn("ines");
        tabToTheNewersDismiss(page);
        mark(page.key(), page.token(), page.newer(), "dismissed");
        laptop.script("document.getElementById('widget').poll()");
        assertThat(items(laptop, 1), is(List.of(page.older())));
        assertThat(focused(laptop), is("panel close"));
    }

    /** A dismissal the server never got is not shown as done: the widget shows the server's state again. */
    @Test
    void aDismissalTheServerNeverGotComesBack() {
        SignedIn page = signedIn("kai");
        openPanel(laptop);
        laptop.script("window.__failNextMark = true");
        dismissOnTheLaptop(page.newer());
        laptop.waitFor(() -> laptop.script("return window.__failNextMark").equals(JsonValue.FALSE));
        assertThat(items(laptop, 2), is(List.of(page.newer(), page.older())));
        assertThat(dismissedOnServer(page.key(), page.token(), page.newer()), is(false));
    }

    /**
     * Two dismissals in a row, the first still on its way when the second is stored: the second's poll answers
     * without the first, and must not bring it back. No answer shows while a write made here is in flight.
     */
    @Test
    void noAnswerShowsWhileADismissalIsOnItsWay() {
        SignedIn page = signedIn("ravi");
        openPanel(laptop);
        laptop.script("window.__holdNextMark = true");
        dismissOnTheLaptop(page.newer());
        laptop.waitFor(() -> laptop.script("return typeof window.__releaseMark").equals(Json.createValue("function")));
        dismissOnTheLaptop(page.older());
        laptop.waitFor(() -> dismissedOnServer(page.key(), page.token(), page.older()));
        laptop.pause(700); // the second dismissal's poll, answered at once
        assertThat(shown(laptop), is(empty()));

        laptop.script("window.__releaseMark()");
        laptop.waitFor(() -> dismissedOnServer(page.key(), page.token(), page.newer()));
        laptop.pause(700);
        assertThat(shown(laptop), is(empty()));
    }

    /** A new project with two closable notifications, and the laptop's page of its key signed in as {@code user}. */
    private record SignedIn(Project project, ApiKey key, JsonObject signing, String token, String newer, String older) {
    }

    private static SignedIn signedIn(String user) {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String older = herald.notification(project).message("Older, for " + user).action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(120)).save().id();
        String newer = herald.notification(project).message("Newer, for " + user).action(CLOSE)
                .createdAt(TestHerald.START.minusSeconds(60)).save().id();
        AdminClient admin = new AdminClient(Http1Client.builder().baseUri(server.uri()).build());
        JsonObject signing = admin.created("/projects/" + project.id() + "/token-keys", "{\"algorithm\":\"HS256\"}");
        String token = token(project, signing, user);
        laptop.open(pages.pageAsUser(key.key(), token, 60));
        assertThat(items(laptop, 2), is(List.of(newer, older)));
        return new SignedIn(project, key, signing, token, newer, older);
    }

    /** Opens the panel with the keyboard's focus in it, and waits for the poll that follows its read-all. */
    private static void openPanel(Chromium device) {
        int updates = updates(device);
        device.script(SHADOW + "root.host.open();");
        device.waitFor(() -> updates(device) > updates);
    }

    /** The panel opened on the laptop, and Tab from its close button to the newer one's dismiss button. */
    private static void tabToTheNewersDismiss(SignedIn page) {
        openPanel(laptop);
        laptop.press("Tab", 9, false);
        assertThat(focused(laptop), is(page.newer() + " action dismiss"));
    }

    /** The mouse on the dismiss button of {@code notificationId} in the laptop's panel. */
    private static void dismissOnTheLaptop(String notificationId) {
        click(laptop, "root.querySelector('[data-id=\"" + notificationId + "\"] [part~=dismiss]')");
    }

    private static int updates(Chromium device) {
        return ((JsonNumber) device.script("return window.__events.filter((e) => e.type === 'herald-update').length"))
                .intValue();
    }

    /** The ids of the items shown now, without waiting. */
    private static List<String> shown(Chromium device) {
        return Chromium.strings(device.script(SHADOW + "return [...root.querySelectorAll('[part~=item]')]"
                                              + ".map((item) => item.dataset.id)"));
    }

    /** "id part" of the element with the focus in the widget ("panel close": the close button), or "nothing". */
    private static String focused(Chromium device) {
        return ((JsonString) device.script(SHADOW + "const f = root.activeElement; return f ? (f.closest('[data-id]')"
                + "?.dataset.id || 'panel') + ' ' + f.getAttribute('part') : 'nothing';")).getString();
    }

    private static boolean dismissedOnServer(ApiKey key, String token, String notificationId) {
        JsonObject state = storedState(key, token).getJsonObject("notifications").getJsonObject(notificationId);
        return state != null && !state.isNull("dismissedAt");
    }

    /** Stores a state of the token's user, as the widget does. */
    private static void mark(ApiKey key, String token, String notificationId, String state) {
        try (var stored = Http1Client.builder().baseUri(server.uri()).build()
                .post("/api/v1/public/" + key.key() + "/users/me/state")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit(Json.createObjectBuilder().add("notificationId", notificationId).add("state", state).build()
                                .toString())) {
            assertThat(stored.status().code(), is(204));
        }
    }

    /** The user's state as Herald answers it to the token. */
    private static JsonObject storedState(ApiKey key, String token) {
        return Http1Client.builder().baseUri(server.uri()).build()
                .get("/api/v1/public/" + key.key() + "/users/me/state")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + token).requestEntity(JsonObject.class);
    }

    /**
     * Another user whose token is refused: the panel says the announcements are unavailable in the page's language,
     * not in the language of the user before's last answer (German here), which the new user was never served.
     */
    @Test
    void aRefusedTokenOfAnotherUserSaysSoInThePagesLanguage() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message("Neue Filter").save();
        try (Connection connection = herald.database().connect();
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE projects SET default_locale = 'de' WHERE id = ?")) {
            update.setString(1, project.id());
            update.executeUpdate();
        }
        AdminClient admin = new AdminClient(Http1Client.builder().baseUri(server.uri()).build());
        JsonObject signing = admin.created("/projects/" + project.id() + "/token-keys", "{\"algorithm\":\"HS256\"}");
        phone.open(pages.pageAsUser(key.key(), token(project, signing, "lena"), 60));
        items(phone, 1);
        assertThat(phone.script(SHADOW + "return root.querySelector('[part=panel]').lang"), is(Json.createValue("de")));

        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("kim").audience(project.id())
                .issueTime(Date.from(TestHerald.START))
                .expirationTime(Date.from(TestHerald.START.plus(Duration.ofHours(1)))).build();
        phone.script("Herald.identify(arguments[0])", TokenMint.hs256("NoSuchKidNoSuchKid0000", new byte[32], claims));
        phone.waitFor(() -> phone.script(SHADOW + "return root.querySelector('.empty')?.textContent ?? ''")
                .equals(Json.createValue("Announcements are unavailable.")));
        assertThat(phone.script("return window.__events.filter((e) => e.type === 'herald-error').map((e) => e.code)"),
                   is(Json.createArrayBuilder().add("USER_TOKEN_KEY_UNKNOWN").build()));
        assertThat(phone.script(SHADOW + "return root.querySelector('[part=panel]').lang"),
                   is(Json.createValue(phone.script("return navigator.language").toString().replace("\"", ""))));
    }

    private static String token(Project project, JsonObject signing, String user) {
        return token(project, signing, user, Duration.ZERO);
    }

    /** A token for {@code user}, issued {@code later} than the clock's start: another device's token. */
    private static String token(Project project, JsonObject signing, String user, Duration later) {
        Date issued = Date.from(TestHerald.START.plus(later));
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(user).audience(project.id()).issueTime(issued)
                .expirationTime(Date.from(TestHerald.START.plus(later).plus(Duration.ofHours(2))))
                .claim("attrs", Map.of("plan", "pro")).build();
        return TokenMint.hs256(signing.getString("kid"), Base64.getUrlDecoder().decode(signing.getString("secret")),
                               claims);
    }

    /** Clicks the element the expression finds in the widget's shadow root, at its centre, with the mouse. */
    private static void click(Chromium device, String element) {
        JsonObject centre = (JsonObject) device.script(SHADOW + "const e = " + element + ";"
                + "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                + "return {x: r.left + r.width / 2, y: r.top + r.height / 2};");
        device.clickAt(centre.getJsonNumber("x").doubleValue(), centre.getJsonNumber("y").doubleValue());
    }

    private static String badge(Chromium device) {
        JsonValue text = device.script(SHADOW + "const b = root.querySelector('[part=badge]');"
                + "return b.hidden ? '' : b.textContent;");
        return ((JsonString) text).getString();
    }

    private static List<String> items(Chromium device, int count) {
        JsonValue found = device.await("""
                const started = Date.now();
                for (;;) {
                  const widget = document.getElementById('widget');
                  const ids = widget && widget.shadowRoot
                      ? [...widget.shadowRoot.querySelectorAll('[part~=item]')].map((item) => item.dataset.id) : [];
                  if (ids.length === arguments[0] || Date.now() - started > 15000) return ids;
                  await new Promise((resolve) => setTimeout(resolve, 100));
                }""", count);
        return Chromium.strings(found);
    }
}
