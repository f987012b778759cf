package dev.herald.browser;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.herald.project.Project;
import dev.herald.support.JsonBodies;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * What a save of the composer sends (docs/console.md, "What a save sends"), and what the editor makes of a message:
 * every attribute Herald stores, and HTML pasted from Google Docs and Word.
 */
class ConsoleMessageBrowserTest extends DrivenConsoleTest {

    /** A document with every attribute docs/api.md lists for its nodes and marks. */
    private static final String RICH = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":["
            + "{\"type\":\"text\",\"text\":\"See \"},"
            + "{\"type\":\"text\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"https://example.com/guide\","
            + "\"target\":\"_blank\",\"title\":\"The whole guide\"}}],\"text\":\"the guide\"},"
            + "{\"type\":\"image\",\"attrs\":{\"src\":\"https://example.com/chart.png\",\"alt\":\"Sales by month\","
            + "\"title\":\"Sales\"}}]},"
            + "{\"type\":\"codeBlock\",\"attrs\":{\"language\":\"bash\"},\"content\":[{\"type\":\"text\","
            + "\"text\":\"herald --help\"}]},"
            + "{\"type\":\"orderedList\",\"attrs\":{\"order\":3},\"content\":[{\"type\":\"listItem\",\"content\":"
            + "[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Third\"}]}]}]}]}";

    /**
     * Each announcement, its title alone changed in the composer of a Berlin browser, is stored as it was but for its
     * title, and its history says the title alone changed: an end at the second 02:30 of the night summer time ends,
     * a start with seconds, a document with every attribute, plain text with a line break (its translation's too).
     */
    @Test
    void savingTheTitleAloneLeavesTheDatesAndTheMessagesAsStored() {
        Project project = inBerlin();
        List<String> drafts = List.of(
                "{\"title\":\"DST\",\"message\":\"Ends at 02:30 CET\",\"startDate\":\"2027-10-30T10:00:00.000Z\","
                        + "\"endDate\":\"2027-10-31T01:30:00.000Z\"}",
                "{\"title\":\"Seconds\",\"message\":\"Starts on the second\","
                        + "\"startDate\":\"2027-01-15T08:00:45.500Z\"}",
                "{\"title\":\"Rich\",\"message\":" + Json.createValue(RICH) + "}",
                "{\"title\":\"Plain\",\"message\":\"Line one\\nLine two\","
                        + "\"translations\":{\"fr\":{\"message\":\"Ligne un\\nLigne deux\"}}}");
        Map<String, JsonObject> expected = new LinkedHashMap<>();
        Map<String, JsonObject> saved = new LinkedHashMap<>();
        for (String draft : drafts) {
            String title = JsonBodies.object(draft).getString("title");
            String id = create(project, draft);
            // The title is text its translations follow: saved as they were, they are to read again, and the audit
            // line says so.
            JsonObject before = stored(id);
            var changed = Json.createArrayBuilder().add("title");
            if (!before.getJsonObject("translations").isEmpty()) {
                changed.add("outdatedTranslations");
            }
            expected.put(title, withoutTitle(toReadAgain(before)).add("changed", changed).build());
            openInComposer(project, id);
            console.browser.script("document.getElementById('announcement-title').select()");
            console.browser.type("Edited " + title);
            saveDraft();
            JsonObject after = stored(id);
            assertThat(after.getString("title"), is("Edited " + title));
            saved.put(title, withoutTitle(after).add("changed", Json.createArrayBuilder(
                    List.copyOf(lastChange(id).getJsonObject("details").keySet()))).build());
        }
        assertThat("all but the title as stored, and the history says the title alone changed", saved, is(expected));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Two tabs opened the same announcement; the first saved; the second's save said nothing and replaced the first's
     * words (a product manager's trial). The second is now refused beside its buttons, and the first's stays.
     */
    @Test
    void aSaveOverSomeoneElsesSaveSinceOpeningIsRefusedAndTheirsStays() throws IOException {
        String id = openedInBerlin("{\"title\":\"Opened\",\"message\":\"Words\"}");
        console.api("return JSON.stringify(await send('PATCH', '/notifications/' + arguments[0], {title: 'Theirs'}))",
                    id);
        titleTypedAndSavedIsRefused();
        console.saveLightAndPhone("console-changed-since-opened", () -> scrollTo("status-error"));
        assertThat(stored(id).getString("title"), is("Theirs"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Two editors of one live announcement (an outside security review): A opens it, B saves a draft of changes,
     * and A's "Save as draft", "Update live announcement" and "Discard draft" each replaced, or deleted, B's draft
     * without a word. Each is now refused beside the buttons, the composer open, and B's draft kept.
     */
    @Test
    void aDraftOfChangesSavedBySomeoneSinceOpeningIsNeitherReplacedNorDeleted() {
        String id = openedInBerlin("{\"message\":\"Live words\",\"status\":\"PUBLISHED\"}");
        saveDraftAsColleague(id, "Theirs");
        titleTypedAndSavedIsRefused();
        assertThat(draftTitle(id), is("Theirs"));

        confirmedAfterAColleaguesDraft("#update-live", id, "Theirs again");
        assertThat("nothing went live: the draft opened, titled Theirs, is not applied",
                   String.valueOf(stored(id).get("title")), is("null"));
        assertThat("their draft is kept", draftTitle(id), is("Theirs again"));

        confirmedAfterAColleaguesDraft("#discard-draft", id, "Theirs at last");
        assertThat(draftTitle(id), is("Theirs at last"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * The announcement opened again (the composer closed first, its edits discarded if it asks), a colleague's draft
     * saved, then {@code button} pressed and its dialog's yes: refused, the composer still open.
     */
    private static void confirmedAfterAColleaguesDraft(String button, String id, String colleaguesTitle) {
        console.focus("#close-composer");
        console.press("Enter", 13);
        console.waitFor(() -> console.confirmOpen() || !console.visible("composer"));
        if (console.confirmOpen()) {
            console.press("Tab", 9, true);
            console.press("Enter", 13);
        }
        console.waitFor(() -> !console.visible("composer"));
        console.openFirstAnnouncement();
        saveDraftAsColleague(id, colleaguesTitle);
        console.focus(button);
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        waitForChangedSinceOpened();
        assertThat(console.visible("composer"), is(true));
    }

    /** A colleague's draft of changes of that notification, titled so, saved as another tab would. */
    private static void saveDraftAsColleague(String id, String title) {
        console.api("return JSON.stringify(await send('PUT', '/notifications/' + arguments[0] + '/draft',"
                + " {title: arguments[1]}))", id, title);
    }

    private static String draftTitle(String id) {
        return console.api("return JSON.stringify((await send('GET', '/notifications/' + arguments[0]"
                + " + '/draft')).changes)", id).getString("title");
    }

    /** An announcement created in a Berlin browser's project, opened in the composer: its id. */
    private static String openedInBerlin(String body) {
        Project project = inBerlin();
        String id = create(project, body);
        openInComposer(project, id);
        return id;
    }

    /** "Mine" typed as the title and "Save as draft" pressed: refused, the composer still open with it. */
    private static void titleTypedAndSavedIsRefused() {
        console.browser.script("document.getElementById('announcement-title').select()");
        console.browser.type("Mine");
        console.focus("#save-draft");
        console.press("Enter", 13);
        waitForChangedSinceOpened();
        assertThat("still open, with what was typed", console.value("announcement-title"), is("Mine"));
    }

    /** The refusal of a write over someone's save since the composer opened, said beside its buttons. */
    private static void waitForChangedSinceOpened() {
        console.waitFor(() -> console.script("return document.getElementById('status-error').textContent")
                .startsWith("Someone saved this announcement or its draft of changes since you opened it"));
    }

    /** Opening from a list in which someone deleted an announcement since: said, the list read again, no error. */
    @Test
    void anAnnouncementDeletedSinceTheListWasReadIsSaidToBeGone() {
        Project project = console.projectShown();
        String id = create(project, "{\"title\":\"Gone soon\",\"message\":\"Words\"}");
        console.browser.script("location.reload()");
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 1);
        console.api("await send('DELETE', '/notifications/' + arguments[0]); return '{}'", id);
        console.focus("#notification-list tbody tr button");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").equals("That announcement is no longer here: someone deleted it."));
        assertThat(console.visible("composer"), is(false));
        console.waitFor(() -> console.rows("#notification-list tbody tr").isEmpty());
        assertThat(console.violations(), is("[]"));
    }

    /**
     * A published announcement's draft of changes, saved again with its title alone changed, keeps the end and the
     * message it held (a draft is replaced whole), as they were.
     */
    @Test
    void aDraftOfChangesSavedAgainKeepsWhatItHeld() {
        Project project = inBerlin();
        String id = create(project, "{\"message\":\"Live words\",\"status\":\"PUBLISHED\"}");
        console.api("return JSON.stringify(await send('PUT', '/notifications/' + arguments[0] + '/draft',"
                + " {message: 'Line one\\nLine two', endDate: '2027-10-31T01:30:00.000Z'}))", id);
        openInComposer(project, id);
        console.browser.script("document.getElementById('announcement-title').select()");
        console.browser.type("Changes");
        saveDraft();
        JsonObject changes = console.api("return JSON.stringify((await send('GET', '/notifications/' + arguments[0]"
                + " + '/draft')).changes)", id);
        assertThat(changes.getString("title"), is("Changes"));
        assertThat(changes.getString("message"), is("Line one\nLine two"));
        assertThat(changes.getString("endDate"), is("2027-10-31T01:30:00.000Z"));
        assertThat(stored(id).getString("message"), is("Live words"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * In Berlin, a start at 02:30 of the night summer time begins (which does not exist) and an end at 02:30 of the
     * night it ends (which happens twice) are each said beside their field, in a live region the field names: what
     * is saved, and of the two, which one with its UTC offset; stored as said, and a time of no change says nothing.
     */
    @Test
    void aTimeTheClocksSkipOrPassTwiceIsSaidBesideItsField() throws IOException {
        Project project = inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("Clock change");
        typeDate("start-date", "2027-03-28T02:30");
        assertThat(console.text("start-date-note"), is("2:30 AM on March 28, 2027 in Europe/Berlin does not exist"
                + " (clocks go forward): saved as 3:30 AM."));
        typeDate("end-date", "2027-10-31T02:30");
        assertThat(console.text("end-date-note"), is("2:30 AM on October 31, 2027 in Europe/Berlin happens twice"
                + " (clocks go back): saved as the first, 2:30 AM UTC+02:00; the second is UTC+01:00."));
        console.saveLightAndPhone("console-clock-change", () -> scrollTo("start-date"));
        for (String id : List.of("start-date", "end-date")) {
            assertThat(console.script("return document.getElementById(arguments[0]).getAttribute('aria-describedby')",
                                      id), containsString(id + "-note"));
            assertThat(console.script("return document.getElementById(arguments[0]).getAttribute('role')",
                                      id + "-note"), is("status"));
        }
        saveDraft();
        JsonObject saved = console.api("return JSON.stringify((await send('GET', '/projects/' + arguments[0]"
                + " + '/notifications'))[0])", project.id());
        assertThat(saved.getString("startDate"), is("2027-03-28T01:30:00.000Z"));
        assertThat(saved.getString("endDate"), is("2027-10-31T00:30:00.000Z"));

        console.openFirstAnnouncement();
        assertThat("nothing said of a time as stored", console.text("end-date-note"), is(""));
        typeDate("end-date", "2027-10-31T04:30");
        assertThat(console.text("end-date-note"), is(""));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * The second of a time the clocks pass twice is chosen by the box shown under its field, by keyboard: said, stored
     * so, ticked again when opened, and the first again once unticked (the field alone could name only the first).
     */
    @Test
    void theSecondOfATimeThatHappensTwiceIsChosenByItsBox() throws IOException {
        Project project = inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("The second 2:30");
        typeDate("start-date", "2027-10-30T12:00");
        assertThat("no choice for a time that happens once", console.visible("start-date-twice"), is(false));
        typeDate("end-date", "2027-10-31T02:30");
        assertThat(console.visible("end-date-twice"), is(true));
        assertThat(console.text("end-date-second-label"), is("The second 2:30 AM, UTC+01:00"));
        console.focus("#end-date-second");
        console.press(" ", 32);
        assertThat(console.text("end-date-note"), is("2:30 AM on October 31, 2027 in Europe/Berlin happens twice"
                + " (clocks go back): saved as the second, 2:30 AM UTC+01:00; the first is UTC+02:00."));
        console.saveLightAndPhone("console-clock-second", () -> scrollTo("end-date"));
        saveDraft();
        String id = console.api("return JSON.stringify((await send('GET', '/projects/' + arguments[0]"
                + " + '/notifications'))[0])", project.id()).getString("id");
        assertThat(stored(id).getString("endDate"), is("2027-10-31T01:30:00.000Z"));

        openInComposer(project, id);
        assertThat("opened as stored: the second", console.script(
                "return String(document.getElementById('end-date-second').checked)"), is("true"));
        assertThat(console.visible("end-date-twice"), is(true));
        assertThat(console.text("end-date-note"), is(""));
        console.focus("#end-date-second");
        console.press(" ", 32);
        saveDraft();
        assertThat("unticked: the first", stored(id).getString("endDate"), is("2027-10-31T00:30:00.000Z"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * An instant with seconds at the second of a repeated time (as the API may store one) opens with the box ticked,
     * and a save that changes another field leaves it as stored: it opened unticked, and would have become the first.
     */
    @Test
    void theSecondOfARepeatedTimeWithSecondsOpensTicked() {
        Project project = inBerlin();
        String id = create(project, "{\"message\":\"Seconds\",\"endDate\":\"2027-10-31T01:30:30.500Z\"}");
        openInComposer(project, id);
        assertThat(console.script("return String(document.getElementById('end-date-second').checked)"), is("true"));
        console.browser.script("document.getElementById('announcement-title').focus()");
        console.browser.type("Titled");
        saveDraft();
        assertThat(stored(id).getString("endDate"), is("2027-10-31T01:30:30.500Z"));
        assertThat(console.violations(), is("[]"));
    }

    /** The element in the middle of the window, for its screenshot. */
    private static void scrollTo(String id) {
        console.browser.script("document.getElementById(arguments[0]).scrollIntoView({block: 'center'})", id);
    }

    /** A date and time put in a datetime-local field, as its input event says a typed one. */
    /**
     * A date typed by keyboard but left unfinished (no time yet) is empty to script: it was saved as "at once" without
     * a word (an outside trial); a year of six digits threw at every key and Save did nothing. Each is now said
     * beside its field, the focus on it, and nothing is saved.
     */
    @Test
    void anUnfinishedDateOrAYearPast9999IsSaidBesideItsFieldAndNothingIsSaved() throws IOException {
        Project project = inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("Half a date");
        console.browser.browserLog();
        console.focus("#start-date");
        console.browser.typeKeys("01152027");
        assertThat("a date without its time", console.script(
                "return String(document.getElementById('start-date').validity.badInput)"), is("true"));
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("startDate-error").isEmpty());
        assertThat(console.text("startDate-error"),
                   is("Not a whole date and time (a year of four digits): finish it, or clear the field."));
        assertThat(console.focused(), is("start-date"));
        console.saveLightAndPhone("console-date-unfinished", () -> scrollTo("start-date"));

        typeDate("start-date", "");
        typeDate("end-date", "120120-12-01T02:06");
        assertThat(console.value("end-date"), is("120120-12-01T02:06"));
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("endDate-error").isEmpty());
        assertThat(console.text("startDate-error"), is(""));
        assertThat(console.text("endDate-error"),
                   is("Not a whole date and time (a year of four digits): finish it, or clear the field."));
        assertThat(console.focused(), is("end-date"));
        assertThat("the composer is still open", console.visible("composer"), is(true));
        assertThat("nothing saved", announcementCount(project), is(0));
        assertThat("no script error", console.browser.browserLog().toString(), not(containsString("RangeError")));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * The toolbar is one Tab stop (WAI-ARIA toolbar), its buttons named by what they do ("B" was a button's name to a
     * screen reader); the arrows, Home and End move along it, and Shift+Tab from the editor comes back to the last
     * one used. Opening an announcement clears what the status line said of the one before.
     */
    @Test
    void theToolbarIsOneTabStopWithNamedButtonsAndArrowsMoveAlongIt() {
        inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("Tools");
        saveDraft();
        assertThat(console.text("status"), containsString("Tools"));
        console.openFirstAnnouncement();
        assertThat("nothing said of the announcement saved before", console.text("status"), is(""));

        console.press("Tab", 9, true);
        assertThat(toolButton(), is("Heading"));
        console.press("ArrowRight", 39);
        assertThat(toolButton(), is("Bold"));
        console.press("End", 35);
        assertThat(toolButton(), is("Undo"));
        console.press("ArrowRight", 39);
        assertThat("round to the first", toolButton(), is("Heading"));
        console.press("ArrowLeft", 37);
        console.press("ArrowLeft", 37);
        console.press("ArrowLeft", 37);
        assertThat(toolButton(), is("Quote"));
        console.press("Tab", 9);
        assertThat("one Tab leaves the toolbar", console.focusedClass(), containsString("ProseMirror"));
        console.press("Tab", 9, true);
        assertThat("back to the one used last", toolButton(), is("Quote"));
        console.press("Tab", 9, true);
        assertThat("one Shift+Tab leaves it too", console.focused(), is("announcement-title"));
        assertThat(console.script("return [...document.querySelectorAll('#toolbar button')].map((b) =>"
                + " b.getAttribute('aria-label') || b.textContent).join(', ')"),
                   is("Heading, Bold, Italic, Underline, Strike, Code, Link, Bullet list, Numbered list, Quote, Image,"
                      + " Undo"));
    }

    /** The focused toolbar button's name: its aria-label, else its text. */
    private static String toolButton() {
        return console.script("const b = document.activeElement; return b.closest('#toolbar') ?"
                + " b.getAttribute('aria-label') || b.textContent : 'not in the toolbar: ' + b.id");
    }

    /** A title past 200 characters was cut by the field without a word: now the API's refusal says how long it is. */
    @Test
    void aTitleTooLongIsSaidBesideItsFieldNotCutSilently() {
        Project project = inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("Long title");
        console.focus("#announcement-title");
        console.browser.type("t".repeat(210));
        assertThat(console.value("announcement-title").length(), is(210));
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("title-error").isEmpty());
        assertThat(console.text("title-error"), is("title is too long: 210 characters, more than the 200 allowed"));
        assertThat(console.focused(), is("announcement-title"));
        assertThat("nothing saved", announcementCount(project), is(0));
    }

    /** Published with an end already past, it never goes live: the question says so, not "goes live at once". */
    @Test
    void publishingWithAnEndAlreadyPastAsksAboutThat() {
        inBerlin();
        console.openNewAnnouncement();
        console.typeInEditor("Too late");
        typeDate("end-date", "2020-01-01T10:00");
        assertThat(publishQuestion(),
                   is("Publish? Its end is past: it is ended as it is saved, and goes live in no feed."));
        typeDate("end-date", "");
        assertThat(publishQuestion(), is("Publish now? It goes live at once in the feeds of this project's keys."));
    }

    /** What Publish, pressed by keyboard, asks; answered no by Escape. */
    private static String publishQuestion() {
        console.focus("#publish");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        String question = console.text("confirm-text");
        console.press("Escape", 27);
        console.waitFor(() -> !console.confirmOpen());
        return question;
    }

    /** How many announcements the project has, read through the management API. */
    private static int announcementCount(Project project) {
        return console.api("return JSON.stringify({count: (await send('GET', '/projects/' + arguments[0]"
                + " + '/notifications')).length})", project.id()).getInt("count");
    }

    private static void typeDate(String id, String value) {
        console.browser.script("const field = document.getElementById(arguments[0]); field.value = arguments[1];"
                + " field.dispatchEvent(new Event('input', {bubbles: true}));", id, value);
    }

    /** A document written in the editor keeps an image's alt and title, a link's title, a code block's language. */
    @Test
    void anEditedDocumentKeepsEveryAttributeHeraldStores() {
        Project project = inBerlin();
        String id = create(project, "{\"message\":" + Json.createValue(RICH) + "}");
        openInComposer(project, id);
        console.typeInEditor("Now: ");
        saveDraft();
        JsonObject message = JsonBodies.object(stored(id).getString("message"));
        JsonObject paragraph = message.getJsonArray("content").getJsonObject(0);
        assertThat(paragraph.getJsonArray("content").getJsonObject(0).getString("text"), is("Now: See "));
        assertThat(paragraph.getJsonArray("content").getJsonObject(1).getJsonArray("marks").getJsonObject(0)
                           .getJsonObject("attrs"),
                   is(JsonBodies.object("{\"href\":\"https://example.com/guide\",\"target\":\"_blank\","
                           + "\"title\":\"The whole guide\"}")));
        assertThat(paragraph.getJsonArray("content").getJsonObject(2).getJsonObject("attrs"),
                   is(JsonBodies.object("{\"src\":\"https://example.com/chart.png\",\"alt\":\"Sales by month\","
                           + "\"title\":\"Sales\"}")));
        assertThat(message.getJsonArray("content").getJsonObject(1).getJsonObject("attrs"),
                   is(JsonBodies.object("{\"language\":\"bash\"}")));
        assertThat(message.getJsonArray("content").getJsonObject(2).getJsonObject("attrs").getInt("order"), is(3));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * HTML pasted from Google Docs, which wraps it all in a {@code <b>} of normal weight and says bold and italic in
     * spans' styles: bold and italic where they were, nothing else bold.
     */
    @Test
    void pastedFromGoogleDocsBoldAndItalicAreWhereTheyWere() {
        console.composeInANewProject();
        String span = "<span style=\"font-size:11pt;font-family:Arial,sans-serif;color:#000000;"
                + "background-color:transparent;font-variant:normal;text-decoration:none;vertical-align:baseline;"
                + "white-space:pre;white-space:pre-wrap;";
        paste("<meta charset=\"utf-8\"><b style=\"font-weight:normal;\" "
                + "id=\"docs-internal-guid-5a1b2c3d-7fff-1e2f-3a4b-5c6d7e8f9a0b\"><p dir=\"ltr\" "
                + "style=\"line-height:1.38;margin-top:0pt;margin-bottom:0pt;\">"
                + span + "font-weight:400;font-style:normal;\">Plain words, </span>"
                + span + "font-weight:700;font-style:normal;\">bold words</span>"
                + span + "font-weight:400;font-style:italic;\"> and italic words.</span></p></b>"
                + "<br class=\"Apple-interchange-newline\">", "Plain words, bold words and italic words.");
        assertThat(savedMessage(), is(JsonBodies.object("{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Plain words, \"},"
                + "{\"type\":\"text\",\"marks\":[{\"type\":\"bold\"}],\"text\":\"bold words\"},"
                + "{\"type\":\"text\",\"marks\":[{\"type\":\"italic\"}],\"text\":\" and italic words.\"}]}]}")));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * HTML pasted from Word, whose lists are paragraphs beginning with their markers in mso-list:Ignore spans: a
     * bullet list and a numbered one with a bullet list inside, the markers gone.
     */
    @Test
    void pastedFromWordListsAreLists() {
        console.composeInANewProject();
        paste("<html xmlns:o=\"urn:schemas-microsoft-com:office:office\"><head><style>p.MsoListParagraph"
                + " {mso-style-priority:34; margin-left:36.0pt;}</style></head><body lang=EN-GB>"
                + "<!--StartFragment--><p class=MsoNormal>Before the lists<o:p></o:p></p>"
                + word("MsoListParagraphCxSpFirst", 0, 1, "·", "Symbol", "First item")
                + word("MsoListParagraphCxSpLast", 0, 1, "·", "Symbol", "Second item")
                + "<p class=MsoNormal>Between<o:p></o:p></p>"
                + word("MsoListParagraphCxSpFirst", 1, 1, "1.", null, "Step one")
                + word("MsoListParagraphCxSpMiddle", 1, 2, "o", "Courier New", "A detail")
                + word("MsoListParagraphCxSpLast", 1, 1, "2.", null, "Step two")
                + "<!--EndFragment--></body></html>",
                "Before the lists\n·  First item\n·  Second item\nBetween\n1.  Step one\no  A detail\n2.  Step two");
        String item = "{\"type\":\"listItem\",\"content\":[{\"type\":\"paragraph\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"%s\"}]}%s]}";
        String paragraph = "{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}";
        assertThat(savedMessage(), is(JsonBodies.object("{\"type\":\"doc\",\"content\":["
                + paragraph.formatted("Before the lists") + ","
                + "{\"type\":\"bulletList\",\"content\":[" + item.formatted("First item", "") + ","
                + item.formatted("Second item", "") + "]},"
                + paragraph.formatted("Between") + ","
                + "{\"type\":\"orderedList\",\"attrs\":{\"start\":1},\"content\":["
                + item.formatted("Step one", ",{\"type\":\"bulletList\",\"content\":["
                        + item.formatted("A detail", "") + "]}") + ","
                + item.formatted("Step two", "") + "]}]}")));
        assertThat(console.violations(), is("[]"));
    }

    /** A pasted table's cells ran together ("cell 1cell 2"): the schema has no table, so each cell is a paragraph. */
    @Test
    void pastedTableCellsAreParagraphsNotRunTogether() {
        console.composeInANewProject();
        paste("<table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>9 €</td></tr></table>",
              "Plan\tPrice\nPro\t9 €");
        String paragraph = "{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"%s\"}]}";
        assertThat(savedMessage(), is(JsonBodies.object("{\"type\":\"doc\",\"content\":["
                + paragraph.formatted("Plan") + "," + paragraph.formatted("Price") + ","
                + paragraph.formatted("Pro") + "," + paragraph.formatted("9 €") + "]}")));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Pasted HTML with event handlers, as a hostile or careless page puts it on the clipboard: nothing runs (the
     * console's policy), and none is reported either, where each handler was a violation report (an outside review);
     * the words and the link stay, an attribute written twice over included.
     */
    @Test
    void pastedHandlersRunNothingAndReportNothing() {
        console.composeInANewProject();
        paste("<p onclick=\"window.pasted = 1\" onmouseover='window.pasted = 2'>Read <a href=\"https://example.com/a\""
                + " onclick=\"window.pasted = 3\">the terms</a><img src=\"x\" onerror=\"window.pasted = 4\""
                + " ONLOAD = \"window.pasted = 5\"><svg onload=\"window.pasted = 6\"></svg>"
                + "<b\nonfocus=window.pasted=7 style=\"font-weight:700\">now</b>"
                + "<img/src=\"x\"/onerror=\"window.pasted = 8\"><svg/onload=\"window.pasted = 9\"></svg>"
                + "<img src=\"x\"onerror=\"window.pasted = 10\"><img src='x'onerror='window.pasted = 11'>"
                + "<img src=\"x\" /onerror=\"window.pasted = 12\"><img src=\"x\"//onerror=\"window.pasted = 13\"></p>",
              "Read the terms now");
        assertThat(savedMessage(), is(JsonBodies.object("{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Read \"},{\"type\":\"text\",\"marks\":[{\"type\":"
                + "\"link\",\"attrs\":{\"href\":\"https://example.com/a\"}}],\"text\":\"the terms\"},"
                + "{\"type\":\"text\",\"marks\":[{\"type\":\"bold\"}],\"text\":\"now\"}]}]}")));
        assertThat(console.script("return String(window.pasted)"), is("undefined"));
        assertThat(console.violations(), is("[]"));
    }

    /** A paragraph of a Word list as Word puts it on the clipboard: its marker in a span Word itself skips. */
    private static String word(String kind, int list, int level, String marker, String font, String text) {
        return "<p class=" + kind + " style='text-indent:-18.0pt;mso-list:l" + list + " level" + level + " lfo"
                + (list + 1) + "'><![if !supportLists]><span style='" + (font == null ? "" : "font-family:"
                + font + ";") + "mso-list:Ignore'>" + marker + "<span style='font:7.0pt \"Times New Roman\"'>"
                + "&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span><![endif]>" + text + "<o:p></o:p></p>";
    }

    /**
     * HTML and its text put on the clipboard and pasted into the editor, as a browser's paste event carries them,
     * then waited for until the editor's document holds it.
     */
    private static void paste(String html, String text) {
        console.browser.script("const data = new DataTransfer(); data.setData('text/html', arguments[0]);"
                + " data.setData('text/plain', arguments[1]);"
                + " document.querySelector('#message-editor .ProseMirror').dispatchEvent(new ClipboardEvent('paste',"
                + " {clipboardData: data, bubbles: true, cancelable: true}));", html, text);
        String last = text.substring(text.lastIndexOf(' ') + 1);
        console.waitFor(() -> console.previewText().contains(last));
    }

    /** The new announcement saved as a draft: its message as stored, a document. */
    private static JsonObject savedMessage() {
        saveDraft();
        return JsonBodies.object(console.api("return JSON.stringify((await send('GET', '/projects/'"
                + " + location.hash.split('/')[2] + '/notifications'))[0])").getString("message"));
    }

    /** The Berlin time zone for the page (DevTools' emulation), alice on a new project's page. */
    private static Project inBerlin() {
        console.browser.devTools("Emulation.setTimezoneOverride",
                                 Json.createObjectBuilder().add("timezoneId", "Europe/Berlin").build());
        Project project = console.projectShown();
        assertThat(console.script("return Intl.DateTimeFormat().resolvedOptions().timeZone"), is("Europe/Berlin"));
        return project;
    }

    /** A draft of the project (unless the body says another status), made through the management API; its id. */
    private static String create(Project project, String body) {
        return console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {status: 'DRAFT', ...JSON.parse(arguments[1])}))", project.id(), body).getString("id");
    }

    /** The notification as the management API answers it. */
    private static JsonObject stored(String id) {
        return console.api("return JSON.stringify(await send('GET', '/notifications/' + arguments[0]))", id);
    }

    /** The notification but its title and when it was last updated. */
    private static JsonObject toReadAgain(JsonObject notification) {
        JsonObjectBuilder translations = Json.createObjectBuilder();
        notification.getJsonObject("translations").forEach((tag, translation) -> translations.add(tag,
                Json.createObjectBuilder(translation.asJsonObject()).add("outdated", true)));
        return Json.createObjectBuilder(notification).add("translations", translations).build();
    }

    private static JsonObjectBuilder withoutTitle(JsonObject notification) {
        return Json.createObjectBuilder(notification).remove("title").remove("updatedAt");
    }

    /** The newest line of the audit log about that notification. */
    private static JsonObject lastChange(String id) {
        return console.api("return JSON.stringify((await send('GET', '/audit?targetId=' + arguments[0]))[0])", id);
    }

    /** The announcement opened by its address, as a link to it opens it: in the composer, the editor focused. */
    private static void openInComposer(Project project, String id) {
        console.browser.open(console.console() + "#/projects/" + project.id() + "/announcements/" + id);
        console.waitFor(() -> console.visible("composer") && console.focusedClass().contains("ProseMirror"));
    }

    /** "Save as draft" by keyboard, then waited for until the composer has closed. */
    private static void saveDraft() {
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
    }
}
