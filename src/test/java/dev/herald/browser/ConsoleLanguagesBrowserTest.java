package dev.herald.browser;

import java.io.IOException;
import java.util.List;

import dev.herald.project.Project;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Issue 32, point 5, in a real browser by the keyboard: a project's default and required languages; an announcement's
 * languages as tabs (the own one first, a translation added with "+ Add language", removed after a question), each
 * with the same fields and the preview in its language and direction; the list's mark of a required language
 * missing, and a publish refused for it, saying which. Zero Content-Security-Policy reports ({@link ConsoleDriver}).
 */
class ConsoleLanguagesBrowserTest extends DrivenConsoleTest {

    /** The direction and language of the light preview's message, as the widget's panel lays it out. */
    private static final String PREVIEW_DIRECTION = ConsoleDriver.PREVIEW + "const m = message('light');"
            + " return getComputedStyle(m).direction + ' ' + (m.closest('[lang]')"
            + " || m.getRootNode().host?.closest('[lang]'))?.lang";

    /** The tabs' names, the selected one marked with a star. */
    private static final String TABS = "return [...document.querySelectorAll('#language-tabs [role=tab]')]"
            + ".map((t) => (t.getAttribute('aria-selected') === 'true' ? '*' : '') + t.textContent).join(' | ')";

    @Test
    void anArabicTranslationIsWrittenAndPreviewedRightToLeft() throws IOException {
        console.composeInANewProject();
        console.typeInEditor("Our spring sale starts today.");
        console.focus("#announcement-title");
        console.browser.type("Spring sale");
        assertThat(console.script(TABS), is("*English (en), its own"));
        assertThat(console.script(PREVIEW_DIRECTION), is("ltr en"));

        addLanguage("ar");
        assertThat(console.script(TABS), is("English (en), its own | *Arabic (ar)"));
        assertThat("the editor of the new tab has the focus", console.focusedClass(), containsString("ProseMirror"));
        console.typeInEditor("تبدأ تخفيضات الربيع اليوم.");
        assertThat(console.script(PREVIEW_DIRECTION), is("rtl ar"));
        assertThat("typed right to left", console.script("return getComputedStyle(document.querySelector("
                + "'#message-editor [contenteditable]')).direction"), is("rtl"));
        assertThat("an empty title is the own one, shown where it would be",
                   console.script("return document.getElementById('language-hint').textContent"),
                   containsString("left empty is the English (en) one"));
        // Tall enough for the tabs, the fields and the preview in one picture.
        Runnable toTheTabs = () -> console.browser.script("document.getElementById('composer-title').scrollIntoView()");
        try {
            console.browser.viewport(1024, 1250, false);
            toTheTabs.run();
            console.save("console-languages.png");
            console.browser.viewport(320, 900, true);
            toTheTabs.run();
            console.assertNothingPastThePhonesEdge("the language tabs");
            console.save("console-languages-320px.png");
        } finally {
            console.browser.resetViewport();
        }

        // Back to the own language by the arrow keys: its text, left to right.
        console.focus("#language-tab-ar");
        console.press("ArrowLeft", 37);
        console.waitFor(() -> console.focused().equals("language-tab-own"));
        assertThat(console.script(TABS), is("*English (en), its own | Arabic (ar)"));
        assertThat(console.previewText(), containsString("Our spring sale starts today."));
        assertThat(console.script(PREVIEW_DIRECTION), is("ltr en"));
        console.press("End", 35);
        console.waitFor(() -> console.focused().equals("language-tab-ar"));
        assertThat("kept while the other tab was shown", console.previewText(), containsString("تبدأ تخفيضات الربيع اليوم."));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void theProjectsLanguagesAreSavedAndTheListMarksWhatAnAnnouncementLacks() throws IOException {
        Project project = console.server.herald().project();
        console.server.herald().notification(project).message("Spring sale: 20% off every boot.").save();
        projectOpened(project);
        assertThat(console.value("default-locale"), is("en"));
        assertThat(console.value("required-locales"), is(""));
        assertThat("nothing required, nothing missing", console.rows("#notification-list .missing"), is(List.of()));

        // A tag Herald cannot read: refused beside its field, which keeps the focus.
        console.focus("#required-locales");
        console.browser.type("de, not a tag!");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("requiredLocales-error").isEmpty());
        assertThat(console.focused(), is("required-locales"));
        assertThat(console.script("return document.getElementById('required-locales').getAttribute('aria-invalid')"),
                   is("true"));

        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type("DE, fr");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").startsWith("Languages saved"));
        assertThat(console.text("status"), is("Languages saved: en by default; required: de, fr."));
        assertThat("canonical, as stored", console.value("required-locales"), is("de, fr"));
        assertThat("in words, not colour alone", console.rows("#notification-list .missing"),
                   is(List.of("missing de, fr")));
        console.saveLightAndPhone("console-project-languages", () -> console.browser.script(
                "document.getElementById('languages-title').scrollIntoView()"));

        reload();
        console.waitFor(() -> console.value("required-locales").equals("de, fr"));
        assertThat(console.rows("#notification-list .missing"), is(List.of("missing de, fr")));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aTranslationAddedThroughTheTabsIsSavedFoundAfterAReloadAndRemovedAfterAQuestion() {
        Project project = console.composeInANewProject();
        console.typeInEditor("Our spring sale starts today.");
        console.focus("#announcement-title");
        console.browser.type("Spring sale");
        addLanguage("FR");
        assertThat("canonical", console.script(TABS), is("English (en), its own | *French (fr)"));
        assertThat("the own title, shown where the translation's would be",
                   console.script("return document.getElementById('announcement-title').placeholder"),
                   is("Spring sale"));
        console.typeInEditor("Les soldes de printemps commencent aujourd'hui.");
        console.focus("#announcement-title");
        console.browser.type("Soldes");
        saveAsDraft();
        JsonObject fr = console.api("const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify(list[0].translations);", project.id()).getJsonObject("fr");
        assertThat(fr.getString("title"), is("Soldes"));
        assertThat(fr.getString("message"), containsString("Les soldes de printemps commencent aujourd'hui."));
        assertThat("empty: the own one", fr.isNull("image") && fr.isNull("action"), is(true));

        reload();
        console.waitFor(() -> !console.rows("#notification-list tbody tr").isEmpty());
        console.openFirstAnnouncement();
        assertThat(console.script(TABS), is("*English (en), its own | French (fr)"));
        console.focus("#language-tab-own");
        console.press("ArrowRight", 39);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));
        assertThat(console.value("announcement-title"), is("Soldes"));
        assertThat(console.previewText(), containsString("Les soldes de printemps commencent aujourd'hui."));
        // Looking at a language changes nothing: Close asks no question.
        console.focus("#close-composer");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
        assertThat(console.confirmOpen(), is(false));
        console.openFirstAnnouncement();
        console.focus("#language-tab-own");
        console.press("End", 35);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));

        console.focus("#remove-language");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), containsString("Remove the French (fr) translation?"));
        assertThat("Cancel first", console.focused(), is("confirm-no"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.confirmOpen());
        assertThat("kept on Cancel", console.script(TABS), is("English (en), its own | *French (fr)"));
        console.focus("#remove-language");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.script(TABS).equals("*English (en), its own"));
        assertThat(console.focused(), is("language-tab-own"));
        saveAsDraft();
        assertThat(console.api("const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify(list[0]);", project.id()).getJsonObject("translations").size(), is(0));
        // The history says which translation went, with its words.
        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && !console.rows("#history-list > li").isEmpty());
        assertThat(console.rows("#history-list > li:first-child dt"), is(List.of("Translations")));
        assertThat(console.rows("#history-list > li:first-child dd").get(0),
                   containsString("fr: Soldes. Les soldes de printemps commencent aujourd'hui."));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void publishingWithoutARequiredLanguageIsRefusedNamingItAndADraftOfChangesKeepsTranslations() {
        Project project = console.server.herald().project();
        console.server.herald().notification(project).message("Spring sale: 20% off every boot.").save();
        projectOpened(project);
        console.api("return JSON.stringify(await send('PATCH', '/projects/' + arguments[0],"
                + " {requiredLocales: ['fr', 'de']}));", project.id());
        reload();
        console.waitFor(() -> console.rows("#notification-list .missing").size() == 1);
        console.openNewAnnouncement();
        console.typeInEditor("Free delivery all week.");
        assertThat("said before publishing", console.text("languages-required"),
                   is("This project requires fr, de; without a message yet: French (fr), German (de)."));
        publishThroughTheDialog();
        console.waitFor(() -> !console.text("translations-error").isEmpty());
        assertThat(console.text("translations-error"), containsString("missing: "));
        assertThat(console.text("translations-error"), containsString("French (fr)"));
        assertThat(console.text("translations-error"), containsString("German (de)"));
        assertThat("where languages are added", console.focused(), is("add-language"));

        // The required ones are the first suggestions, said so.
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().equals("add-language-tag"));
        List<String> suggested = console.rows("#language-suggestion-buttons button");
        assertThat(suggested.toString(), suggested.subList(0, 2).stream().sorted().toList(),
                   is(List.of("French (fr) · required", "German (de) · required")));
        assertThat("offered once", suggested.stream().filter(s -> s.contains("(fr)")).count(), is(1L));
        console.browser.script("[...document.querySelectorAll('#language-suggestion-buttons button')]"
                + ".find((b) => b.textContent.includes('(de)')).focus()");
        console.press("Enter", 13);
        console.waitFor(() -> console.focusedClass().contains("ProseMirror"));
        console.typeInEditor("Kostenlose Lieferung die ganze Woche.");
        addLanguage("fr");
        // A translation without its message: refused naming it, its tab shown, its editor focused.
        console.focus("#language-tab-fr");
        console.press("Home", 36);
        console.waitFor(() -> console.focused().equals("language-tab-own"));
        publishThroughTheDialog();
        console.waitFor(() -> console.text("translations-error").startsWith("translations.fr"));
        assertThat(console.script(TABS), is("English (en), its own | German (de) | *French (fr)"));
        assertThat(console.focusedClass(), containsString("ProseMirror"));
        console.typeInEditor("Livraison gratuite toute la semaine.");
        assertThat(console.text("languages-required"), is("This project requires fr, de: all here."));
        publishThroughTheDialog();
        console.waitFor(() -> !console.visible("composer"));
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 2);
        assertThat("only the older one lacks them", console.rows("#notification-list tbody tr .missing").size(),
                   is(1));
        assertThat(console.rows("#notification-list tbody tr:first-child .missing"), is(List.of()));
        console.browser.script("document.getElementById('notifications-title').scrollIntoView()");

        // A published one: a translation added and saved as a draft of changes stays out of the feed, in the draft.
        console.openFirstAnnouncement();
        assertThat(console.script(TABS), is("*English (en), its own | German (de) | French (fr)"));
        addLanguage("es");
        console.typeInEditor("Envío gratis toda la semana.");
        saveAsDraft();
        assertThat(console.api("const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify(list[0]);", project.id()).getJsonObject("translations").keySet(),
                   is(java.util.Set.of("de", "fr")));
        console.openFirstAnnouncement();
        assertThat("the draft's languages", console.script(TABS),
                   is("*English (en), its own | German (de) | Spanish (es) | French (fr)"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aTranslationWrittenBeforeTheOwnTextChangedIsToReadAgainUntilMarkedUpToDate() throws IOException {
        Project project = console.composeInANewProject();
        console.typeInEditor("Our spring sale starts today.");
        addLanguage("fr");
        console.typeInEditor("Les soldes de printemps commencent aujourd'hui.");
        saveAsDraft();
        assertThat("written together: up to date", console.rows("#notification-list .outdated"), is(List.of()));

        // The own text changed and French saved as it was (the console sends it back as stored): said at once.
        console.openFirstAnnouncement();
        console.typeInEditor("Ends Sunday");
        saveAsDraft();
        console.waitFor(() -> console.text("status").contains("To read again"));
        assertThat(console.text("status"), containsString(": “Ends SundayOur spring sale starts today.”. To read"
                + " again: French (fr)."));
        assertThat("in words, in the list", console.rows("#notification-list .outdated"),
                   is(List.of("to read again: fr")));

        console.openFirstAnnouncement();
        assertThat(console.script(TABS), is("*English (en), its own | French (fr) · to read again"));
        assertThat("only on its tab", console.visible("outdated-row"), is(false));
        console.focus("#language-tab-own");
        console.press("ArrowRight", 39);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));
        assertThat(console.visible("outdated-row"), is(true));
        assertThat(console.text("outdated-note"), is("Written before the English (en) text last changed: read it"
                + " again, then change it or mark it as up to date."));
        console.saveLightAndPhone("console-translation-to-read-again", () -> console.browser.script(
                "document.getElementById('composer-title').scrollIntoView()"));

        // Not while the own text has changes not yet saved: saving them would leave it out of date again.
        console.focus("#language-tab-fr");
        console.press("Home", 36);
        console.waitFor(() -> console.focused().equals("language-tab-own"));
        console.focus("#announcement-title");
        console.browser.type("Sale");
        console.focus("#language-tab-own");
        console.press("End", 35);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));
        console.focus("#mark-current");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("status-error").isEmpty());
        assertThat(console.text("status-error"), is("Save the English (en) text first: its changes not yet saved would"
                + " leave French (fr) to read again once saved."));
        assertThat(console.script(TABS), is("English (en), its own | *French (fr) · to read again"));
        console.focus("#language-tab-fr");
        console.press("Home", 36);
        console.waitFor(() -> console.focused().equals("language-tab-own"));
        console.focus("#announcement-title");
        console.browser.chord("a", "KeyA", 65, 2);
        console.press("Backspace", 8);
        console.focus("#language-tab-own");
        console.press("End", 35);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));

        console.focus("#mark-current");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").equals("French (fr) marked as up to date."));
        assertThat(console.script(TABS), is("English (en), its own | *French (fr)"));
        assertThat(console.visible("outdated-row"), is(false));
        assertThat(console.text("status-error"), is(""));
        assertThat("the focus back on its tab", console.focused(), is("language-tab-fr"));
        console.waitFor(() -> console.rows("#notification-list .outdated").isEmpty());
        String translations = "const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify(list[0].translations);";
        assertThat(console.api(translations, project.id()).getJsonObject("fr").getBoolean("outdated"), is(false));

        // The composer's tag followed the mark: saving after it is not refused as someone else's change.
        saveAsDraft();
        assertThat(console.text("status"), containsString("Ends SundayOur spring sale starts today."));
        assertThat(console.text("status").contains("To read again"), is(false));
        assertThat(console.rows("#notification-list .outdated"), is(List.of()));

        // The audit log says which save left it to read again, and the mark has a line of its own.
        console.browser.open(console.console() + "#/audit");
        console.waitFor(() -> console.visible("audit") && console.rows("#audit-list tbody tr").size() > 2);
        List<String> changes = console.rows("#audit-list tbody tr td.change");
        assertThat(changes.get(0), is("Translations to read again: fr → none"));
        assertThat(changes.get(1), containsString("Translations to read again: none → fr"));
        assertThat(console.violations(), is("[]"));
    }

    /** The page loaded anew, as F5 does (the same address opened again would not load it). */
    private static void reload() {
        console.browser.script("document.getElementById('project').hidden = true; location.reload()");
        console.waitFor(() -> console.visible("project") && !console.rows("#notification-list tbody tr").isEmpty());
    }

    private static void projectOpened(Project project) {
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> console.visible("project") && console.text("project-title").equals(project.name())
                && !console.rows("#notification-list tbody tr").isEmpty());
    }

    @Test
    void theOwnLanguageIsChangedOnItsTabAndSavedOnlyWhenChanged() {
        Project project = console.composeInANewProject();
        console.typeInEditor("שלום לכולם");
        assertThat(console.value("own-locale"), is("en"));
        console.focus("#own-locale");
        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type("HE");
        console.press("Tab", 9);
        console.waitFor(() -> console.script(TABS).equals("*Hebrew (he), its own"));
        assertThat(console.script(PREVIEW_DIRECTION), is("rtl he"));
        saveAsDraft();
        String stored = "const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify({locale: list[0].locale});";
        assertThat(console.api(stored, project.id()).getString("locale"), is("he"));

        // Untouched, no locale is sent: the announcement follows the project's default, whatever it becomes.
        console.openNewAnnouncement();
        console.typeInEditor("Hello everyone");
        saveAsDraft();
        console.waitFor(() -> console.rows("#notification-list tbody tr").size() == 2);
        console.api("return JSON.stringify(await send('PATCH', '/projects/' + arguments[0], {defaultLocale: 'de'}));",
                    project.id());
        JsonObject locales = console.api("const list = await send('GET', '/projects/' + arguments[0]"
                + " + '/notifications'); return JSON.stringify(Object.fromEntries(list.map((n) => [n.locale,"
                + " n.message.includes('Hello') ? 'untouched' : 'hebrew'])));", project.id());
        assertThat(locales.toString(), locales, is(jakarta.json.Json.createObjectBuilder().add("de", "untouched")
                .add("he", "hebrew").build()));
        assertThat(console.violations(), is("[]"));
    }

    /** "Publish", and Yes in the dialog that asks first (Cancel has the focus). */
    private static void publishThroughTheDialog() {
        console.focus("#publish");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
    }

    /** "Save as draft": the composer closes once Herald has it. */
    private static void saveAsDraft() {
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
    }

    /** "+ Add language", the tag typed, Enter: the new tab selected, its editor focused. */
    private static void addLanguage(String tag) {
        console.focus("#add-language");
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().equals("add-language-tag"));
        console.browser.type(tag);
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().isEmpty() && console.focusedClass().contains("ProseMirror"));
    }
}
