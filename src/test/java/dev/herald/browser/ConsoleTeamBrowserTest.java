package dev.herald.browser;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

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
import static org.hamcrest.Matchers.is;

/**
 * The console's team page (docs/console.md#team) in two real browsers, one the owner's and one a colleague's, both
 * driven by the keyboard, under the console's Content-Security-Policy: the owner invites, the colleague takes the link
 * in a browser of their own, receives a token and signs in; the owner disables them, and their open console ends.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleTeamBrowserTest {

    private static final String OLIVE = "olive-console-token-0123456789abcdef0123456789";
    private static final Map<String, String> ACCOUNTS = Map.of(
            "admin.accounts.0.name", "olive", "admin.accounts.0.role", "owner",
            "admin.accounts.0.token-sha256", Tokens.sha256(OLIVE));

    private static ConsoleDriver owner;
    private static ConsoleDriver colleague;

    /** Not {@link DrivenConsoleTest}: the second test goes on as the owner the first signed in. */
    @BeforeAll
    static void start() throws IOException, InterruptedException {
        owner = ConsoleDriver.start(ACCOUNTS);
        colleague = owner.anotherBrowser();
    }

    @AfterAll
    static void stop() throws SQLException {
        for (ConsoleDriver driver : new ConsoleDriver[] {colleague, owner}) {
            if (driver != null) {
                driver.close();
            }
        }
    }

    @Test
    @Order(1)
    void anOwnerInvitesAColleagueWhoTakesTheLinkSignsInAndIsEndedWhenDisabled() throws IOException {
        signInAsOlive();
        assertThat("an owner sees the team's link", visible(owner, "team-nav"), is(true));
        owner.press("Tab", 9, true);
        owner.press("Tab", 9, true);
        owner.press("Tab", 9, true);
        assertThat("before the account's name and Sign out", owner.focused(), is("team-nav"));
        owner.press("Enter", 13);
        owner.waitFor(() -> visible(owner, "team") && rows(owner).size() == 1);
        assertThat(rows(owner).getFirst(), is("olive owner configured (read-only: change it in the configuration)"));

        owner.press("Tab", 9);
        assertThat(owner.focused(), is("team-name"));
        owner.browser.type("bob");
        owner.press("Tab", 9);
        assertThat("the role, editor unless chosen", owner.focused(), is("team-role"));
        owner.press("Tab", 9);
        owner.press("Enter", 13);
        owner.waitFor(() -> visible(owner, "team-link") && owner.focused().equals("team-link-url"));
        String link = owner.value("team-link-url");
        assertThat(link, link.matches("http://127\\.0\\.0\\.1:\\d+/console/#/invite/[A-Za-z0-9_-]{43}"), is(true));
        assertThat(rows(owner).get(1), containsString("invited, link valid until"));
        assertThat(rows(owner).get(1), endsWith("Disable Reset credential"));
        assertThat(owner.value("account-bob-role"), is("editor"));
        owner.save("console-team.png");

        colleague.browser.open(link);
        colleague.waitFor(() -> visible(colleague, "invite") && colleague.focused().equals("invite-accept"));
        assertThat("the secret leaves the address at once",
                Chromium.text(colleague.browser.script("return location.hash")),
                   is("#/invite"));
        colleague.press("Enter", 13);
        colleague.waitFor(() -> visible(colleague, "invite-done") && colleague.focused().equals("invite-token"));
        String token = colleague.value("invite-token");
        assertThat(token, token.matches("[0-9a-f]{64}"), is(true));
        assertThat(colleague.text("invite-name"), is("bob"));
        colleague.save("console-invite.png");
        colleague.press("Tab", 9);
        assertThat(colleague.focused(), is("invite-copy"));
        colleague.press("Tab", 9);
        assertThat(colleague.focused(), is("invite-sign-in"));
        colleague.press("Enter", 13);
        colleague.waitFor(() -> visible(colleague, "sign-in") && colleague.focused().equals("sign-in-token"));
        assertThat(colleague.value("sign-in-name"), is("bob"));
        colleague.browser.type(token);
        colleague.press("Enter", 13);
        colleague.waitFor(() -> visible(colleague, "projects") && colleague.text("who-name").equals("bob (editor)"));
        assertThat("an editor sees no team", visible(colleague, "team-nav"), is(false));

        owner.browser.script("document.getElementById('team-nav').focus()");
        owner.press("Enter", 13);
        owner.waitFor(() -> rows(owner).size() == 2 && rows(owner).get(1).contains(" active"));
        owner.browser.script("document.getElementById('account-bob-toggle').focus()");
        owner.press("Enter", 13);
        owner.waitFor(owner::confirmOpen);
        assertThat(owner.focused(), is("confirm-no"));
        owner.press("Tab", 9, true);
        assertThat(owner.focused(), is("confirm-yes"));
        owner.press("Enter", 13);
        owner.waitFor(() -> rows(owner).get(1).contains(" disabled"));
        owner.waitFor(() -> owner.focused().equals("account-bob-toggle"));
        assertThat(owner.text("account-bob-toggle"), is("Enable"));
        assertThat(owner.text("status"), is("bob disabled."));

        colleague.browser.script("location.hash = '#/audit'");
        colleague.waitFor(() -> visible(colleague, "sign-in"));
        assertThat(colleague.text("sign-in-error"), is("Your session has ended; sign in again."));

        colleague.browser.open(link);
        colleague.waitFor(() -> visible(colleague, "invite") && colleague.focused().equals("invite-accept"));
        colleague.press("Enter", 13);
        colleague.waitFor(() -> !colleague.text("invite-error").isEmpty());
        assertThat(colleague.text("invite-error"), is("This link is unknown, used already or expired. Ask an owner"
                + " of the team for a new one."));
        owner.browser.script("location.hash = '#/audit'");
        owner.waitFor(() -> auditText().contains("olive disabled bob"));
        assertThat(auditText(), containsString("bob joined the team"));
        assertThat(auditText(), containsString("olive invited bob"));
        assertThat(owner.violations(), is("[]"));
        assertThat(colleague.violations(), is("[]"));
    }

    private static String auditText() {
        return Chromium.text(owner.browser.script("const list = document.getElementById('audit-list');"
                + " return list && !list.closest('section').hidden ? list.innerText : ''"));
    }

    /** A phone's width: the team, a reset's new link and the invitation's page fit it. */
    @Test
    @Order(2)
    void theTeamAndTheInvitationFitAPhone() throws IOException {
        openTeam(2);
        assertThat("a disabled account's credential is not reset", rows(owner).get(1), endsWith("disabled Enable"));
        owner.browser.script("document.getElementById('account-bob-toggle').focus()");
        owner.press("Enter", 13);
        owner.waitFor(owner::confirmOpen);
        owner.press("Tab", 9, true);
        owner.press("Enter", 13);
        owner.waitFor(() -> rows(owner).get(1).endsWith("active Disable Reset credential"));
        owner.press("Tab", 9);
        assertThat(owner.focused(), is("account-bob-reset"));
        owner.press("Enter", 13);
        owner.waitFor(owner::confirmOpen);
        owner.press("Tab", 9, true);
        owner.press("Enter", 13);
        owner.waitFor(() -> visible(owner, "team-link") && owner.focused().equals("team-link-url"));
        assertThat(owner.text("status"), is("The credential of bob is reset."));
        colleague.browser.open(owner.value("team-link-url"));
        colleague.waitFor(() -> visible(colleague, "invite") && colleague.focused().equals("invite-accept"));
        colleague.press("Enter", 13);
        colleague.waitFor(() -> visible(colleague, "invite-done"));
        // Key presses are not taken under a phone's emulation: the pages are measured once they are drawn.
        try {
            for (Chromium browser : new Chromium[] {owner.browser, colleague.browser}) {
                browser.viewport(320, 640, true);
                browser.pause(100);
                assertThat(browser.script("return document.documentElement.scrollWidth"), is(Json.createValue(320)));
            }
            owner.browser.script("document.getElementById('team-list').scrollIntoView()");
            owner.save("console-team-320px.png");
            colleague.save("console-invite-320px.png");
        } finally {
            owner.browser.resetViewport();
            colleague.browser.resetViewport();
        }
        assertThat(owner.violations(), is("[]"));
        assertThat(colleague.violations(), is("[]"));
    }

    /** docs/api.md#team: a link is shown once; when it has expired, the row says that a reset gives a new one. */
    @Test
    @Order(3)
    void anInvitedAccountWhoseLinkExpiredIsOfferedAReset() throws SQLException {
        openTeam(2);
        owner.browser.script("document.getElementById('team-name').focus()");
        owner.browser.type("cleo");
        owner.press("Tab", 9);
        owner.press("Tab", 9);
        owner.press("Enter", 13);
        owner.waitFor(() -> visible(owner, "team-link") && rows(owner).size() == 3);
        try (Connection connection = owner.database.connect();
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
        owner.browser.open(owner.console() + "#/team");
        owner.browser.script("document.getElementById('team-nav').click()");
        owner.waitFor(() -> visible(owner, "team") && rows(owner).size() == accounts);
    }

    private static void signInAsOlive() {
        owner.browser.open(owner.console());
        owner.waitFor(() -> visible(owner, "sign-in") && owner.focused().equals("sign-in-name"));
        owner.browser.type("olive");
        owner.press("Tab", 9);
        owner.browser.type(OLIVE);
        owner.press("Enter", 13);
        owner.waitFor(() -> visible(owner, "projects") && owner.text("who-name").equals("olive (owner)"));
    }

    /** The team's rows, each its cells' texts joined by a space. */
    private static List<String> rows(ConsoleDriver driver) {
        return Chromium.strings(driver.browser.script("return [...document.querySelectorAll('#team-list tbody tr')]"
                + ".map((row) => [...row.cells].map((c) => c.textContent.trim()).join(' ').trim())"));
    }

    /** Neither hidden nor inside what is hidden: laid out, which {@link ConsoleDriver#visible} does not ask. */
    private static boolean visible(ConsoleDriver driver, String id) {
        return driver.browser.script("const e = document.getElementById(arguments[0]);"
                + " return !!e && !e.hidden && e.offsetParent !== null", id).equals(JsonValue.TRUE);
    }
}
