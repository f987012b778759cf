package dev.herald.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import jakarta.json.Json;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * The console's team page (docs/console.md#team) in two real browsers, one the owner's and one a colleague's, both
 * driven by the keyboard, under the console's Content-Security-Policy: the owner invites, the colleague takes the link
 * in a browser of their own, receives a token and signs in; the owner disables them, and their open console ends.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleTeamBrowserTest {

    private static final String OLIVE = "olive-console-token-0123456789abcdef0123456789";
    private static final Path SCREENSHOTS = Path.of(System.getProperty("herald.screenshots", "target/screenshots"));
    private static final String RECORD_VIOLATIONS = "window.__violations = [];"
            + "document.addEventListener('securitypolicyviolation', (e) => window.__violations.push("
            + "e.violatedDirective + ' ' + e.blockedURI));";
    private static final Map<String, String> ACCOUNTS = Map.of(
            "admin.accounts.0.name", "olive", "admin.accounts.0.role", "owner",
            "admin.accounts.0.token-sha256", Tokens.sha256(OLIVE));

    private static TestDatabase database;
    private static MainBuiltServer server;
    private static Chromium owner;
    private static Chromium colleague;

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        owner = Chromium.start();
        colleague = Chromium.start();
        database = TestDatabase.h2();
        server = MainBuiltServer.start(database, ACCOUNTS);
        owner.beforeEveryPage(RECORD_VIOLATIONS);
        colleague.beforeEveryPage(RECORD_VIOLATIONS);
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
        for (Chromium browser : new Chromium[] {owner, colleague}) {
            if (browser != null) {
                browser.close();
            }
        }
    }

    @Test
    @Order(1)
    void anOwnerInvitesAColleagueWhoTakesTheLinkSignsInAndIsEndedWhenDisabled() throws IOException {
        signInAsOlive();
        assertThat("an owner sees the team's link", visible(owner, "team-nav"), is(true));
        press(owner, "Tab", 9, true);
        press(owner, "Tab", 9, true);
        press(owner, "Tab", 9, true);
        assertThat("before the account's name and Sign out", focused(owner), is("team-nav"));
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> visible(owner, "team") && rows(owner).size() == 1);
        assertThat(rows(owner).getFirst(), is("olive owner configured (read-only: change it in the configuration)"));

        press(owner, "Tab", 9, false);
        assertThat(focused(owner), is("team-name"));
        owner.type("bob");
        press(owner, "Tab", 9, false);
        assertThat("the role, editor unless chosen", focused(owner), is("team-role"));
        press(owner, "Tab", 9, false);
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> visible(owner, "team-link") && focused(owner).equals("team-link-url"));
        String link = value(owner, "team-link-url");
        assertThat(link, link.matches("http://127\\.0\\.0\\.1:\\d+/console/#/invite/[A-Za-z0-9_-]{43}"), is(true));
        assertThat(rows(owner).get(1), containsString("invited, link valid until"));
        assertThat(rows(owner).get(1), endsWith("Disable Reset credential"));
        assertThat(value(owner, "account-bob-role"), is("editor"));
        save(owner, "console-team.png");

        colleague.open(link);
        colleague.waitFor(() -> visible(colleague, "invite") && focused(colleague).equals("invite-accept"));
        assertThat("the secret leaves the address at once", Chromium.text(colleague.script("return location.hash")),
                   is("#/invite"));
        press(colleague, "Enter", 13, false);
        colleague.waitFor(() -> visible(colleague, "invite-done") && focused(colleague).equals("invite-token"));
        String token = value(colleague, "invite-token");
        assertThat(token, token.matches("[0-9a-f]{64}"), is(true));
        assertThat(text(colleague, "invite-name"), is("bob"));
        save(colleague, "console-invite.png");
        press(colleague, "Tab", 9, false);
        assertThat(focused(colleague), is("invite-copy"));
        press(colleague, "Tab", 9, false);
        assertThat(focused(colleague), is("invite-sign-in"));
        press(colleague, "Enter", 13, false);
        colleague.waitFor(() -> visible(colleague, "sign-in") && focused(colleague).equals("sign-in-token"));
        assertThat(value(colleague, "sign-in-name"), is("bob"));
        colleague.type(token);
        press(colleague, "Enter", 13, false);
        colleague.waitFor(() -> visible(colleague, "projects") && text(colleague, "who-name").equals("bob (editor)"));
        assertThat("an editor sees no team", visible(colleague, "team-nav"), is(false));

        owner.script("document.getElementById('team-nav').focus()");
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> rows(owner).size() == 2 && rows(owner).get(1).contains(" active"));
        owner.script("document.getElementById('account-bob-toggle').focus()");
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> owner.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        assertThat(focused(owner), is("confirm-no"));
        press(owner, "Tab", 9, true);
        assertThat(focused(owner), is("confirm-yes"));
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> rows(owner).get(1).contains(" disabled"));
        owner.waitFor(() -> focused(owner).equals("account-bob-toggle"));
        assertThat(text(owner, "account-bob-toggle"), is("Enable"));
        assertThat(text(owner, "status"), is("bob disabled."));

        colleague.script("location.hash = '#/audit'");
        colleague.waitFor(() -> visible(colleague, "sign-in"));
        assertThat(text(colleague, "sign-in-error"), is("Your session has ended; sign in again."));

        colleague.open(link);
        colleague.waitFor(() -> visible(colleague, "invite") && focused(colleague).equals("invite-accept"));
        press(colleague, "Enter", 13, false);
        colleague.waitFor(() -> !text(colleague, "invite-error").isEmpty());
        assertThat(text(colleague, "invite-error"), is("This link is unknown, used already or expired. Ask an owner"
                + " of the team for a new one."));
        owner.script("location.hash = '#/audit'");
        owner.waitFor(() -> auditText().contains("olive disabled bob"));
        assertThat(auditText(), containsString("bob joined the team"));
        assertThat(auditText(), containsString("olive invited bob"));
        assertThat(owner.violations(), is("[]"));
        assertThat(colleague.violations(), is("[]"));
    }

    private static String auditText() {
        return Chromium.text(owner.script("const list = document.getElementById('audit-list');"
                + " return list && !list.closest('section').hidden ? list.innerText : ''"));
    }

    /** A phone's width: the team, a reset's new link and the invitation's page fit it. */
    @Test
    @Order(2)
    void theTeamAndTheInvitationFitAPhone() throws IOException {
        openTeam(2);
        assertThat("a disabled account's credential is not reset", rows(owner).get(1), endsWith("disabled Enable"));
        owner.script("document.getElementById('account-bob-toggle').focus()");
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> owner.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        press(owner, "Tab", 9, true);
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> rows(owner).get(1).endsWith("active Disable Reset credential"));
        press(owner, "Tab", 9, false);
        assertThat(focused(owner), is("account-bob-reset"));
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> owner.script("return document.getElementById('confirm').open").equals(JsonValue.TRUE));
        press(owner, "Tab", 9, true);
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> visible(owner, "team-link") && focused(owner).equals("team-link-url"));
        assertThat(text(owner, "status"), is("The credential of bob is reset."));
        colleague.open(value(owner, "team-link-url"));
        colleague.waitFor(() -> visible(colleague, "invite") && focused(colleague).equals("invite-accept"));
        press(colleague, "Enter", 13, false);
        colleague.waitFor(() -> visible(colleague, "invite-done"));
        // Key presses are not taken under a phone's emulation: the pages are measured once they are drawn.
        try {
            for (Chromium browser : new Chromium[] {owner, colleague}) {
                browser.viewport(320, 640, true);
                browser.pause(100);
                assertThat(browser.script("return document.documentElement.scrollWidth"), is(Json.createValue(320)));
            }
            owner.script("document.getElementById('team-list').scrollIntoView()");
            save(owner, "console-team-320px.png");
            save(colleague, "console-invite-320px.png");
        } finally {
            owner.resetViewport();
            colleague.resetViewport();
        }
        assertThat(owner.violations(), is("[]"));
        assertThat(colleague.violations(), is("[]"));
    }

    /** docs/api.md#team: a link is shown once; when it has expired, the row says that a reset gives a new one. */
    @Test
    @Order(3)
    void anInvitedAccountWhoseLinkExpiredIsOfferedAReset() throws SQLException {
        openTeam(2);
        owner.script("document.getElementById('team-name').focus()");
        owner.type("cleo");
        press(owner, "Tab", 9, false);
        press(owner, "Tab", 9, false);
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> visible(owner, "team-link") && rows(owner).size() == 3);
        try (Connection connection = database.connect();
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE admin_invites SET expires_at = 1 WHERE account = 'cleo'");
        }

        openTeam(3);

        assertThat(rows(owner).get(2), containsString("invited, link expired: Reset credential gives a new one"));
        assertThat(rows(owner).get(2), endsWith("Disable Reset credential"));
        assertThat(owner.violations(), is("[]"));
    }

    /** The owner's team page, loaded afresh, once it lists {@code accounts}. */
    private static void openTeam(int accounts) {
        owner.open(server.uri() + "/console/#/team");
        owner.script("document.getElementById('team-nav').click()");
        owner.waitFor(() -> visible(owner, "team") && rows(owner).size() == accounts);
    }

    private static void signInAsOlive() {
        owner.open(server.uri() + "/console/");
        owner.waitFor(() -> visible(owner, "sign-in") && focused(owner).equals("sign-in-name"));
        owner.type("olive");
        press(owner, "Tab", 9, false);
        owner.type(OLIVE);
        press(owner, "Enter", 13, false);
        owner.waitFor(() -> visible(owner, "projects") && text(owner, "who-name").equals("olive (owner)"));
    }

    /** The team's rows, each its cells' texts joined by a space. */
    private static List<String> rows(Chromium browser) {
        return Chromium.strings(browser.script("return [...document.querySelectorAll('#team-list tbody tr')]"
                + ".map((row) => [...row.cells].map((c) => c.textContent.trim()).join(' ').trim())"));
    }

    private static void press(Chromium browser, String key, int code, boolean shift) {
        browser.press(key, code, shift);
    }

    private static boolean visible(Chromium browser, String id) {
        return browser.script("const e = document.getElementById(arguments[0]);"
                + " return !!e && !e.hidden && e.offsetParent !== null", id).equals(JsonValue.TRUE);
    }

    private static String text(Chromium browser, String id) {
        return Chromium.text(browser.script("return document.getElementById(arguments[0]).textContent", id));
    }

    private static String value(Chromium browser, String id) {
        return Chromium.text(browser.script("return document.getElementById(arguments[0]).value", id));
    }

    private static String focused(Chromium browser) {
        return Chromium.text(browser.script("return document.activeElement.id || ''"));
    }

    private static void save(Chromium browser, String name) throws IOException {
        byte[] png = browser.screenshot();
        assertThat("a PNG of some substance", png.length, greaterThan(5_000));
        Files.write(SCREENSHOTS.resolve(name), png);
    }
}
