package dev.herald.browser;

import java.io.IOException;

import dev.herald.project.Project;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * An open console whose session ends under it (idle past {@code admin.sessions.idle-timeout}, or ended from another
 * client): it goes to the sign-in page at its next request, loses nothing typed, and goes on where it was asked to.
 */
class ConsoleSessionBrowserTest extends DrivenConsoleTest {

    /**
     * A paragraph typed, the session ended elsewhere and the announcement changed there meanwhile: "Save as draft"
     * goes to the sign-in page, and after signing in the composer holds the paragraph again, saying it was kept and
     * that the announcement changed since; saved, it is stored, and nothing is left in the tab's storage.
     */
    @Test
    void unsavedWritingSurvivesTheSessionsEnd() throws IOException {
        Project project = console.projectShown();
        String id = console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0]"
                + " + '/notifications', {status: 'DRAFT', title: 'Maintenance', message: 'Tonight.'}))",
                project.id()).getString("id");
        console.browser.open(console.console() + "#/projects/" + project.id() + "/announcements/" + id);
        console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
        console.typeInEditor("Typed before the session ended. ");

        endAlicesSessionsElsewhere();
        asAnotherClient("'PATCH', '/notifications/" + id + "', {preset: 'banner'}");
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("sign-in"));
        assertThat(console.text("sign-in-error"), is("Your session has ended; sign in again."));
        assertThat("the tab keeps no credential", console.script("return JSON.stringify(sessionStorage)"),
                   not(containsString(ConsoleDriver.ALICE)));

        signInAgain();
        console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
        assertThat(console.previewText(), containsString("Typed before the session ended. "));
        assertThat(console.visible("kept-note"), is(true));
        assertThat(console.text("kept-note"), containsString("Your unsaved changes to “Maintenance” were kept"));
        assertThat(console.text("kept-note"), containsString("Someone has saved it since you opened it"));
        console.saveLightAndPhone("console-kept-edits", () -> console.browser.script(
                "document.getElementById('kept-note').scrollIntoView({block: 'center'})"));

        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        JsonObject stored = console.api("return JSON.stringify(await send('GET', '/notifications/' + arguments[0]))",
                                        id);
        assertThat(stored.getString("message"), containsString("Typed before the session ended. Tonight."));
        assertThat("cleared once saved", console.script("return sessionStorage.length + ''"), is("0"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * A new announcement's words, the session ended by another client: after signing in, the composer of a new
     * announcement holds them again; Close asks first, and discarding them leaves nothing in the tab's storage.
     */
    @Test
    void aNewAnnouncementsWordsSurviveTheSessionsEndUntilDiscarded() {
        console.composeInANewProject();
        console.typeInEditor("Words of a new one.");
        endAlicesSessionsElsewhere();
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("sign-in"));

        signInAgain();
        console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
        assertThat(console.text("composer-title"), is("New announcement"));
        assertThat(console.previewText(), containsString("Words of a new one."));
        assertThat(console.text("kept-note"), is("Your unsaved changes to this new announcement were kept when your"
                + " session ended, and are back here: not saved yet."));

        console.focus("#close-composer");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat("cleared once discarded", console.script("return sessionStorage.length + ''"), is("0"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Signed in on the projects, the session ended elsewhere: a link to an announcement (or a project's webhooks)
     * followed then goes to the sign-in page, its name focused, the address kept; after signing in, the console goes
     * on to the page asked for.
     */
    @Test
    void aLinkFollowedAfterTheSessionEndedGoesOnThereAfterSigningIn() {
        Project project = console.projectShown();
        String id = console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0]"
                + " + '/notifications', {status: 'DRAFT', title: 'Linked', message: 'Here.'}))",
                project.id()).getString("id");
        for (String page : new String[] {"/announcements/" + id, "/webhooks"}) {
            console.browser.open(console.console() + "#/projects");
            console.waitFor(() -> console.visible("projects") && !console.rows("#project-list tbody tr").isEmpty());
            endAlicesSessionsElsewhere();
            String link = "#/projects/" + project.id() + page;
            console.browser.script("location.hash = arguments[0]", link);
            console.waitFor(() -> console.visible("sign-in") && console.focused().equals("sign-in-name"));
            assertThat(console.text("sign-in-error"), is("Your session has ended; sign in again."));
            assertThat("no other page shown", console.visible("projects") || console.visible("project")
                    || console.visible("webhooks"), is(false));
            assertThat(console.script("return location.hash"), is(link));
            signInAgain();
            if (page.equals("/webhooks")) {
                console.waitFor(() -> console.visible("webhooks")
                        && console.text("webhooks-project").equals(project.name()));
            } else {
                console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
                assertThat(console.previewText(), containsString("Here."));
            }
        }
        assertThat(console.violations(), is("[]"));
    }

    /** Alice signs in again, her name (still in its field, focused) typed over. */
    private static void signInAgain() {
        assertThat(console.focused(), is("sign-in-name"));
        console.browser.script("document.getElementById('sign-in-name').select()");
        console.browser.type("alice");
        console.press("Tab", 9);
        console.browser.type(ConsoleDriver.ALICE);
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("sign-in"));
    }

    /** Every session of alice's ended, as another client's "sign out other sessions" does (with her bearer token). */
    private static void endAlicesSessionsElsewhere() {
        asAnotherClient("'DELETE', '/sessions?account=alice'");
    }

    /** A request of the management API from outside the page's session: alice's token, no cookie. */
    private static void asAnotherClient(String methodPathAndBody) {
        console.browser.await("const [method, path, body] = [" + methodPathAndBody + "];"
                + "const answer = await fetch('/api/v1/admin' + path, {method, credentials: 'omit', headers:"
                + " {'Content-Type': 'application/json', Authorization: 'Bearer ' + arguments[0]},"
                + " body: body === undefined ? undefined : JSON.stringify(body)});"
                + "if (!answer.ok) throw new Error(path + ' ' + answer.status + ' ' + await answer.text());",
                ConsoleDriver.ALICE);
    }
}
