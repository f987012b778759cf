package dev.herald.browser;

import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 30, point 9, in a real browser by the keyboard: an announcement's title in the list and as the widget's
 * heading; duplicate, unpublish and delete, each asked first where it changes what users see or loses something;
 * the history of an announcement with its words added and removed, and a version restored as a draft. Zero
 * Content-Security-Policy reports ({@link ConsoleDriver}).
 */
class ConsoleLifecycleBrowserTest extends DrivenConsoleTest {

    @Test
    void aTitleNamesTheAnnouncementInTheListAndHeadsItInTheWidget() throws IOException {
        Project project = console.projectShown();
        ApiKey key = console.server.herald().key(project);
        console.openNewAnnouncement();
        assertThat("nothing to duplicate or delete yet", console.visible("lifecycle"), is(false));
        console.focus("#announcement-title");
        console.browser.type("Winter sale");
        console.browser.script("document.querySelector('#message-editor [contenteditable]').focus()");
        console.typeInEditor("Half price on every coat until Friday.");
        assertThat("the preview is headed by the title as the widget heads it", console.script(
                "return document.querySelector('#preview-light .herald-preview').shadowRoot"
                + ".querySelector('[part=item-title]').textContent"), is("Winter sale"));
        console.browser.script("document.getElementById('composer-title').scrollIntoView()");
        console.save("console-title.png");
        console.focus("#publish");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr td.value").equals(List.of("Winter sale")));
        assertThat("named as the list names it (it said the message's words)", console.text("status"),
                   is("Live: “Winter sale”."));
        assertThat(console.feed(key), containsString("\"title\":\"Winter sale\""));
        assertThat(console.script("return document.querySelector('#notification-list tbody tr button')"
                + ".getAttribute('aria-label')"), is("Edit “Winter sale”"));

        // The widget, as a site embeds it (on Herald's own origin here: the console's policy allows the SDK).
        console.browser.await("await import('/sdk/v1/herald.mjs');"
                + " const widget = document.createElement('herald-announcements');"
                + " widget.setAttribute('base-url', location.origin); widget.setAttribute('api-key', arguments[0]);"
                + " document.body.append(widget);", key.key());
        String widgetTitle = "const widget = document.querySelector('herald-announcements');"
                + " const title = widget.shadowRoot && widget.shadowRoot.querySelector('[part=item-title]');"
                + " return title ? title.tagName + ' ' + title.textContent : ''";
        console.waitFor(() -> !console.script(widgetTitle).isEmpty());
        assertThat(console.script(widgetTitle), is("H3 Winter sale"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void duplicateOpensTheCopyAsANewDraftInTheComposer() {
        Project project = console.server.herald().project();
        String id = console.server.herald().notification(project).message("Spring offer: two for one").save().id();
        projectOpened(project);
        console.openFirstAnnouncement();
        assertThat(console.visible("lifecycle"), is(true));
        console.focus("#duplicate");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr span.state").size() == 2);
        console.waitFor(() -> console.text("status").startsWith("Copied"));
        assertThat(console.rows("#notification-list tbody tr span.state"), is(List.of("draft", "live")));
        assertThat(console.visible("composer"), is(true));
        assertThat("the copy, a draft, is in the editor", console.visible("publish"), is(true));
        assertThat(console.previewText(), is("Spring offer: two for one"));
        assertThat(console.focusedClass(), containsString("ProseMirror"));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void unpublishAsksFirstThenTakesItOutOfTheFeed() throws IOException {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = console.server.herald().notification(project).message("Maintenance tonight").save().id();
        projectOpened(project);
        console.openFirstAnnouncement();
        console.browser.script("document.getElementById('lifecycle').scrollIntoView({block: 'center'})");
        console.save("console-lifecycle.png");
        console.focus("#unpublish");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), startsWith("Unpublish? It leaves the feeds"));
        assertThat(console.focused(), is("confirm-no"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat("Cancel changes nothing", console.feed(key), containsString("Maintenance tonight"));
        assertThat(console.focused(), is("unpublish"));

        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.browser.press("Tab", 9, true);
        assertThat(console.focused(), is("confirm-yes"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer") && console.text("status").startsWith("Unpublished"));
        assertThat(console.feed(key), is("[]"));
        assertThat(console.rows("#notification-list tbody tr span.state"), is(List.of("draft")));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.DRAFT));
        assertThat(console.focused(), is("compose"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void deleteSaysWhatIsLostAsksFirstAndDeletes() throws IOException {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = console.server.herald().notification(project).message("Old news").save().id();
        projectOpened(project);
        console.openFirstAnnouncement();
        console.focus("#delete");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), is("Delete “Old news” for good? Its users no longer see it; its text,"
                + " its history and any draft of changes are deleted and cannot be restored. Its impressions and clicks"
                + " stay in the project's totals."));
        assertThat(console.text("confirm-yes"), is("Delete for good"));
        assertThat(console.focused(), is("confirm-no"));
        console.save("console-delete-question.png");
        console.press("Escape", 27);
        console.waitFor(() -> !console.confirmOpen());
        assertThat(console.server.herald().services().notifications().find(id).isPresent(), is(true));

        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").equals("Deleted “Old news”."));
        assertThat(console.server.herald().services().notifications().find(id).isPresent(), is(false));
        assertThat(console.feed(key), is("[]"));
        assertThat(console.visible("no-notifications"), is(true));
        assertThat(console.focused(), is("compose"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void theHistoryMarksWordsAddedAndRemovedAndRestoresAVersionAsTheDraft() throws IOException {
        Project project = console.server.herald().project();
        String id = console.server.herald().notification(project).status(NotificationStatus.DRAFT)
                .message("Sale ends Friday at noon").save().id();
        projectOpened(project);
        console.openFirstAnnouncement();
        console.browser.chord("a", "KeyA", 65, 2);
        console.typeInEditor("Sale ends Monday at noon, online too");
        console.focus("#announcement-title");
        console.browser.type("Sale");
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#notification-list tbody tr td.value").equals(List.of("Sale")));

        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.focused().equals("history-title"));
        assertThat(console.visible("composer"), is(false));
        assertThat(console.text("history-title"), is("History of “Sale”"));
        List<String> headings = console.rows("#history-list > li > h3");
        assertThat(headings.size(), is(2));
        assertThat(headings.get(0), startsWith("Version 2 (the newest), "));
        assertThat(headings.get(0), containsString(" by alice"));
        assertThat(console.rows("#history-list > li:first-child dt"), is(List.of("Title", "Message")));
        assertThat("not by colour alone: a screen reader hears it", console.rows("#history-list > li:first-child dd"),
                   is(List.of("[added: Sale]", "Sale ends [removed: Friday][added: Monday] at [removed: noon]"
                           + "[added: noon, online too]")));
        assertThat(console.rows("#history-list > li:first-child del"),
                   is(List.of("[removed: Friday]", "[removed: noon]")));
        console.browser.script("document.getElementById('history').scrollIntoView()");
        console.save("console-history.png");
        console.browser.viewport(320, 800, true);
        try {
            assertThat(console.browser.script("return document.documentElement.scrollWidth").toString(), is("320"));
            console.browser.script("document.getElementById('history').scrollIntoView()");
            console.save("console-history-320px.png");
        } finally {
            console.browser.resetViewport();
        }

        restoreVersionOneAsked();
        assertThat(console.text("confirm-text"), startsWith("Restore version 1 as the draft?"));
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("composer")
                && console.text("status").equals("Version 1 restored as the draft."));
        assertThat(console.previewText(), is("Sale ends Friday at noon"));
        assertThat(console.script("return document.getElementById('announcement-title').value"),
                   is(""));
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().message(),
                   is("Sale ends Friday at noon"));
        assertThat(console.violations(), is("[]"));
    }

    /** Nothing reaches users by a restore: of a live announcement, the version becomes its draft of changes. */
    @Test
    void aVersionOfALiveAnnouncementIsRestoredAsItsDraftOfChanges() {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = console.server.herald().notification(project).message("First words").save().id();
        projectOpened(project);
        versionOneKeptAsADraftOfChanges(project, id, "published", "update it");
        assertThat(console.feed(key), containsString("Second words"));
        assertThat(console.visible("update-live"), is(true));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * An archived announcement keeps a restored version as its draft of changes (the API's restore): its composer
     * opens with it, says so, and "Save as draft" makes it the content, still archived. Before, the composer showed the
     * archived words, and its save deleted the restored version without a word (an outside review).
     */
    @Test
    void aVersionOfAnArchivedAnnouncementOpensAsItsDraftOfChangesAndSavingMakesItTheContent() {
        Project project = console.server.herald().project();
        String id = console.server.herald().notification(project).message("First words").save().id();
        projectOpened(project);
        assertThat(console.api("return JSON.stringify(await send('PATCH', '/notifications/' + arguments[0],"
                + " {status: 'ARCHIVED'}));", id).getString("status"), is("ARCHIVED"));
        versionOneKeptAsADraftOfChanges(project, id, "archived", "save or publish it");
        assertThat(console.text("draft-note"), containsString("the archived announcement keeps its content until you"
                + " save or publish this."));
        assertThat(console.visible("discard-draft"), is(true));

        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer") && console.text("status").startsWith("Archived"));
        Notification saved = console.server.herald().services().notifications().find(id).orElseThrow();
        assertThat(saved.message(), is("First words"));
        assertThat(saved.status(), is(NotificationStatus.ARCHIVED));
        assertThat("the draft of changes became the content",
                   console.server.herald().services().notifications().draft(id).isPresent(), is(false));
        assertThat(console.violations(), is("[]"));
    }

    /** Twenty versions a page; a page's last is drawn against the next page's first, which "Older versions" reads. */
    @Test
    void olderVersionsAreReadAPageAtATimeEachAgainstTheOneBeforeIt() {
        Project project = console.server.herald().project();
        String id = console.server.herald().notification(project).status(NotificationStatus.DRAFT).message("v1").save()
                .id();
        projectOpened(project);
        patchMessages(id, IntStream.rangeClosed(2, 25).mapToObj(i -> "v" + i).toArray(String[]::new));
        console.browser.open(console.console() + "#/projects");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.rows("#notification-list tbody tr td.value").equals(List.of("v25")));
        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.focused().equals("history-title"));
        assertThat(console.rows("#history-list > li > h3").size(), is(19));
        assertThat(console.rows("#history-list > li:last-child dd"), is(List.of("[removed: v6][added: v7]")));
        assertThat(console.visible("older-versions"), is(true));
        console.focus("#older-versions");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#history-list > li > h3").size() == 25);
        assertThat(console.rows("#history-list > li:nth-child(20) dd"), is(List.of("[removed: v5][added: v6]")));
        assertThat(console.rows("#history-list > li:last-child > p.hint"),
                   is(List.of("The oldest version kept: everything it holds is shown as added.")));
        assertThat(console.visible("older-versions"), is(false));
        assertThat("reading goes on at the first version read", console.script(
                "return document.activeElement.textContent"), startsWith("Version 6, "));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aViewerReadsTheHistoryFromTheListAndRestoresNothing() {
        Project project = console.server.herald().project();
        console.server.herald().notification(project).message("Read only").save();
        console.signIn("victor", ConsoleDriver.VICTOR);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && !console.rows("#notification-list tbody tr").isEmpty());
        assertThat(console.rows("#notification-list tbody tr"), is(List.of("Read only live — — 0 0 — History")));
        console.browser.script("document.querySelector('#notification-list tbody tr button').focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.focused().equals("history-title"));
        assertThat(console.rows("#history-list > li > h3").size(), is(1));
        assertThat("nothing a viewer may do", console.rows("#history-list button"), is(List.of()));
        console.focus("#close-history");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("history"));
        assertThat("back on its row", console.script(
                "return document.activeElement.getAttribute('aria-label')"), is("History of “Read only”"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * A colleague saved a draft of changes after this editor opened the announcement: unpublishing would make it the
     * content unseen, so it is refused with words that say why and what to do, and nothing changes.
     */
    @Test
    void unpublishAfterAColleaguesNewerDraftIsRefusedAndChangesNothing() {
        String id = refusedAfterAColleaguesDraft("unpublish", "it is not unpublished");
        assertThat(console.server.herald().services().notifications().find(id).orElseThrow().status(),
                   is(NotificationStatus.PUBLISHED));
    }

    /**
     * Nothing brings a deleted announcement back: one a colleague saved a draft of changes for since it opened is not
     * deleted, and the composer says why and what to do.
     */
    @Test
    void deleteAfterAColleaguesNewerDraftIsRefusedAndDeletesNothing() {
        String id = refusedAfterAColleaguesDraft("delete", "it is not deleted");
        assertThat(console.server.herald().services().notifications().draft(id).isPresent(), is(true));
    }

    /**
     * A live announcement opened, a colleague's draft of changes saved, then {@code button} pressed and confirmed by
     * keyboard: refused, said in the composer, which stays open, the announcement still in its feed.
     *
     * @return the announcement's id
     */
    private String refusedAfterAColleaguesDraft(String button, String said) {
        Project project = console.server.herald().project();
        ApiKey key = console.server.herald().key(project);
        String id = console.server.herald().notification(project).message("Live words").save().id();
        projectOpened(project);
        console.openFirstAnnouncement();
        saveDraftOfChanges(id, "A colleague's words");
        console.focus("#" + button);
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status-error").startsWith("Someone saved this announcement or its draft"
                + " of changes since you opened it: " + said));
        assertThat("the composer stays open", console.visible("composer"), is(true));
        assertThat(console.feed(key), containsString("Live words"));
        assertThat(console.violations(), is("[]"));
        return id;
    }

    /** The same for a restore from the history: a draft of changes saved since it opened is kept, not replaced. */
    @Test
    void aRestoreAfterAColleaguesNewerDraftIsRefusedAndTheirDraftIsKept() {
        Project project = console.server.herald().project();
        String id = console.server.herald().notification(project).message("First words").save().id();
        projectOpened(project);
        historyOfTwoVersions(project, id);
        saveDraftOfChanges(id, "A colleague's words");
        restoreVersionOneAsked();
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").startsWith("Someone saved this announcement or its draft of"
                + " changes since you opened its history: nothing is restored"));
        assertThat("the colleague's draft is kept", console.api("return JSON.stringify(await send('GET',"
                + " '/notifications/' + arguments[0] + '/draft'));", id).getJsonObject("changes").getString("message"),
                   is("A colleague's words"));
        assertThat(console.violations(), is("[]"));
    }

    /** A draft of changes saved as another editor would, from outside this page's state. */
    private static void saveDraftOfChanges(String id, String message) {
        assertThat(console.api("return JSON.stringify(await send('PUT', '/notifications/' + arguments[0] + '/draft',"
                + " {message: arguments[1]}));", id, message).getJsonObject("changes").getString("message"),
                   is(message));
    }

    /** The announcement's message changed to "Second words", its history open with its two versions. */
    private static void historyOfTwoVersions(Project project, String id) {
        patchMessages(id, "Second words");
        console.browser.open(console.console() + "#/projects");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.rows("#notification-list tbody tr td.value").equals(List.of("Second words")));
        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.rows("#history-list > li > h3").size() == 2);
    }

    /**
     * Version 1 ("First words") restored from the history of two versions of an announcement that is {@code status}:
     * the question says until when it stays as it is, and the composer opens with the version as its draft of changes.
     */
    private static void versionOneKeptAsADraftOfChanges(Project project, String id, String status, String until) {
        historyOfTwoVersions(project, id);
        restoreVersionOneAsked();
        assertThat(console.text("confirm-text"), startsWith("Keep version 1 as a draft of changes? The " + status
                + " announcement stays as it is until you " + until));
        console.browser.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("composer") && console.visible("draft-note"));
        assertThat(console.previewText(), is("First words"));
        assertThat(console.text("status"),
                   is("Version 1 kept as a draft of changes; the " + status + " announcement is as it was."));
    }

    /** Its first version's "Restore as draft", the question asked. */
    private static void restoreVersionOneAsked() {
        console.browser.script("document.querySelector('[aria-label=\"Restore version 1 as draft\"]').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
    }

    /** Each message in turn, as the signed-in account's PATCHes of the notification (each a version). */
    private static void patchMessages(String id, String... messages) {
        assertThat(console.api("let last = null; for (const message of arguments[1].split('\\n'))"
                + " last = await send('PATCH', '/notifications/' + arguments[0], {message});"
                + " return JSON.stringify(last);", id, String.join("\n", messages)).getString("message"),
                   is(messages[messages.length - 1]));
    }

    /** Alice, signed in, on the project's page. */
    private static void projectOpened(Project project) {
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && console.text("project-title").equals(project.name())
                && !console.rows("#notification-list tbody tr").isEmpty());
    }
}
