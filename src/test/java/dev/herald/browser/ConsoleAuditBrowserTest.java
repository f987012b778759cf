package dev.herald.browser;

import java.io.IOException;
import java.util.List;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 30, finding 6: the audit log reads as sentences a person follows. Each line names its object by its name or
 * first words and links to it; a creation is a short summary, not every field; a change of message is its words
 * removed and added, even at the end of a long message; a save that changes nothing leaves no line. By keyboard, with
 * no Content-Security-Policy report.
 */
class ConsoleAuditBrowserTest extends DrivenConsoleTest {

    /** 500 characters and more: the change is past any excerpt of its beginning. */
    private static final String LONG_START = "Our spring sale brings new prices to every plan, and to every seat. "
            .repeat(8);

    @Test
    void anEditAtTheEndOfALongMessageReadsAsTheWordsRemovedAndAddedAndEachLineLinksToItsObject() throws IOException {
        console.signIn("alice", ConsoleDriver.ALICE);
        JsonObject made = console.api("const project = await send('POST', '/projects', {name: 'Spring shop'});"
                + "const created = await send('POST', '/projects/' + project.id + '/notifications',"
                + " {message: arguments[0] + 'See you on Monday.'});"
                + "await send('PATCH', '/notifications/' + created.id, {message: arguments[0] + 'See you on Friday.'});"
                // Saves that change nothing: no line.
                + "await send('PATCH', '/notifications/' + created.id, {message: arguments[0] + 'See you on Friday.'});"
                + "await send('PATCH', '/projects/' + project.id, {name: 'Spring shop'});"
                + "return JSON.stringify({project: project.id, notification: created.id});", LONG_START);
        String project = made.getString("project");
        String notification = made.getString("notification");
        console.browser.open(console.console());
        console.waitFor(() -> console.visible("projects") && console.focused().equals("main"));
        // Back past Sign out and the account's name to the header's Audit log.
        for (int i = 0; i < 3; i++) {
            console.browser.press("Tab", 9, true);
        }
        assertThat(console.script("return document.activeElement.textContent"), is("Audit log"));
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("audit") && console.rows("#audit-list tbody tr").size() > 3);

        List<String> what = console.rows("#audit-list tbody tr td.value").stream()
                .filter(line -> line.contains("Spring shop")).toList();
        assertThat("no line for the saves that changed nothing", what, is(List.of(
                "alice changed the announcement “Our spring sale brings new prices to every plan, and to…” in Spring shop",
                "alice wrote the announcement “Our spring sale brings new prices to every plan, and to…” in Spring shop",
                "alice created the project Spring shop")));
        assertThat(console.rows("#audit-list tbody tr:first-child del"), is(List.of("[removed: Monday.]")));
        assertThat(console.rows("#audit-list tbody tr:first-child ins"), is(List.of("[added: Friday.]")));
        assertThat(console.rows("#audit-list tbody tr:first-child td.change").getFirst(),
                   startsWith("Message: … to every seat. See you on"));
        assertThat("a creation in a few words, no JSON", console.rows("#audit-list tbody tr td.change").get(1),
                   is("a draft"));
        assertThat(console.rows("#audit-list tbody tr td.change").get(1), not(containsString("{")));
        assertThat(console.script("return [...document.querySelectorAll('#audit-list tbody tr:first-child a')]"
                        + ".map((a) => a.getAttribute('href')).join(' ')"),
                   is("#/projects/" + project + "/announcements/" + notification + " #/projects/" + project));
        console.saveLightAndPhone("console-audit-diff", () -> console.browser.script("window.scrollTo(0, 0)"));

        // The announcement's link, by keyboard: its project, the announcement open in the editor.
        console.focus("#audit-list tbody tr:first-child a");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("project") && console.visible("composer") && console.script(
                "return document.querySelector('#message-editor .ProseMirror')?.textContent || ''").contains("Friday"));
        assertThat(console.text("project-title"), is("Spring shop"));
        assertThat(console.script("return document.querySelector('#message-editor .ProseMirror').textContent"),
                   containsString("See you on Friday."));
        assertThat("the project's Activity reads the same", console.rows("#activity li").getFirst(),
                   containsString("alice changed the announcement “Our spring sale"));
        assertThat(console.violations(), is("[]"));
    }

    /** A viewer follows the same link: the project opens with the announcement's row focused, no editor. */
    @Test
    void aViewerFollowsALinkToItsAnnouncementsRow() {
        console.signIn("alice", ConsoleDriver.ALICE);
        JsonObject made = console.api("const project = await send('POST', '/projects', {name: 'Viewed'});"
                + "const created = await send('POST', '/projects/' + project.id + '/notifications', {message: 'Hi'});"
                + "return JSON.stringify({project: project.id, notification: created.id});");
        console.signedOut();
        console.signIn("victor", ConsoleDriver.VICTOR);
        console.browser.open(console.console() + "#/audit");
        console.waitFor(() -> console.visible("audit") && !console.rows("#audit-list tbody tr").isEmpty());
        console.focus("#audit-list tbody a[href*='/announcements/']");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("project") && console.script(
                "return document.activeElement.dataset.id || ''").equals(made.getString("notification")));
        assertThat(console.visible("composer"), is(false));
        assertThat(console.violations(), is("[]"));
    }
}
