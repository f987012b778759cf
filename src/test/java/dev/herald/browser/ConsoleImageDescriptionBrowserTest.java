package dev.herald.browser;

import java.io.IOException;
import java.util.List;

import dev.herald.apikey.ApiKey;
import dev.herald.project.Project;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * An announcement's image described (its alt text, the API's {@code imageAlt}), in the composer: a field under the
 * image's URL, in the Tab order, named by its label and its hint; what is typed is the preview's alt, is saved, served
 * and shown again, in a draft of changes and a restored version too; a translation keeping the own image shows the
 * own description greyed and previews it, one with its own image has only its own; the API's refusal is said beside
 * the field, in its language's tab, the focus on it. The history compares it. By keyboard, under the console's
 * Content-Security-Policy: every violation fails the test.
 */
class ConsoleImageDescriptionBrowserTest extends DrivenConsoleTest {

    /** The alt of the image in the preview of that scheme (the widget's panel, in its shadow root), or null. */
    private static final String PREVIEW_ALT = "return document.querySelector('#preview-' + arguments[0]"
            + " + ' .herald-preview')?.shadowRoot.querySelector('img[part=image]')?.alt ?? null";
    private static final String DESCRIBED = "A brown leather boot on a wooden floor";

    @Test
    void aDescriptionTypedIsTheAltOfThePreviewedImageAndIsSavedServedAndShownAgain() throws IOException {
        Project project = composeWithTheBootImage();
        ApiKey key = console.server.herald().key(project);
        console.press("Tab", 9);
        assertThat("next in the Tab order", console.focused(), is("image-alt"));
        assertThat(console.script("return document.getElementById('image-alt').labels[0].textContent"),
                   is("Image description (alt text)"));
        assertThat("its hint is read with it", console.script("return document.getElementById('image-alt')"
                + ".getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent"
                + ".replace(/\\s+/g, ' ')).join('|')"), is("|Read to people who cannot see the image. Leave it empty if the image is only"
                + " decoration."));
        console.browser.type(DESCRIBED);
        previewAltIs(DESCRIBED);

        // Tall enough for the preview and the field under it in one picture; at 320 px, nothing past the edge.
        console.browser.viewport(1024, 1100, false);
        console.saveLightAndPhone("console-image-description", () -> console.browser.script(
                "document.getElementById('image-alt-hint').scrollIntoView({block: 'end'}); window.scrollBy(0, 24)"));
        saveAsDraft();
        assertThat(stored(project).getString("imageAlt"), is(DESCRIBED));

        console.openFirstAnnouncement();
        assertThat(console.value("image-alt"), is(DESCRIBED));
        previewAltIs(DESCRIBED);
        publishThroughTheDialog();
        console.waitFor(() -> !console.visible("composer"));
        console.waitFor(() -> console.feed(key).contains("\"imageAlt\":\"" + DESCRIBED + "\""));

        // A published one's "Save as draft" keeps a draft of changes: the feed keeps its description, the draft opens
        // with the new one.
        console.openFirstAnnouncement();
        console.focus("#image-alt");
        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type("A black boot");
        saveAsDraft();
        assertThat(console.feed(key), containsString("\"imageAlt\":\"" + DESCRIBED + "\""));
        console.openFirstAnnouncement();
        assertThat(console.visible("draft-note"), is(true));
        assertThat(console.value("image-alt"), is("A black boot"));
        previewAltIs("A black boot");
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aTranslationKeepingTheOwnImageShowsAndPreviewsTheOwnDescriptionOneWithItsOwnImageOnlyItsOwn() {
        Project project = composeWithTheBootImage();
        console.focus("#image-alt");
        console.browser.type(DESCRIBED);
        addLanguage("fr");
        console.typeInEditor("Les nouvelles bottes sont là.");
        assertThat(console.value("image-alt"), is(""));
        assertThat("the own description, greyed where the translation's would be",
                   console.script("return document.getElementById('image-alt').placeholder"), is(DESCRIBED));
        previewAltIs(DESCRIBED);

        // Its own image: the own description describes another picture, so it is neither shown nor previewed.
        console.focus("#image-url");
        console.browser.type(image("botte"));
        assertThat(console.script("return document.getElementById('image-alt').placeholder"), is(""));
        console.press("Tab", 9);
        assertThat(console.focused(), is("image-alt"));
        console.waitFor(() -> console.script("return document.querySelector('#preview-light .herald-preview')"
                + "?.shadowRoot.querySelector('img[part=image]')?.src || ''").equals(image("botte")));
        previewAltIs("");
        console.browser.type("Une botte en cuir brun");
        previewAltIs("Une botte en cuir brun");
        assertThat("its own description only, not the own one's", console.value("image-alt"),
                   is("Une botte en cuir brun"));

        // Its image cleared again: the own image, and the own description with it while it has none of its own.
        console.focus("#image-alt");
        console.browser.chord("a", "KeyA", 65, 2);
        console.press("Backspace", 8);
        console.focus("#image-url");
        console.browser.chord("a", "KeyA", 65, 2);
        console.press("Backspace", 8);
        console.press("Tab", 9);
        assertThat(console.script("return document.getElementById('image-alt').placeholder"), is(DESCRIBED));
        previewAltIs(DESCRIBED);
        console.focus("#image-url");
        console.browser.type(image("botte"));
        clickOn("label[for=image-alt]");
        assertThat("its label, clicked, is the field's", console.focused(), is("image-alt"));
        console.browser.type("Une botte en cuir brun");
        saveAsDraft();

        JsonObject stored = stored(project);
        assertThat(stored.getString("imageAlt"), is(DESCRIBED));
        JsonObject fr = stored.getJsonObject("translations").getJsonObject("fr");
        assertThat(fr.getString("image"), is(image("botte")));
        assertThat(fr.getString("imageAlt"), is("Une botte en cuir brun"));
        console.openFirstAnnouncement();
        console.focus("#language-tab-own");
        console.press("End", 35);
        console.waitFor(() -> console.focused().equals("language-tab-fr"));
        assertThat(console.value("image-alt"), is("Une botte en cuir brun"));
        assertThat(console.script("return document.getElementById('image-alt').placeholder"), is(""));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void aDescriptionTooLongIsRefusedBesideItsFieldInItsLanguagesTabTheFocusOnIt() {
        Project project = composeWithTheBootImage();
        console.focus("#image-alt");
        // No field cuts what is typed at its limit: 251 characters, said to be too long by Herald.
        String tooLong = "A boot. ".repeat(31) + "Boo";
        console.browser.type(tooLong);
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("imageAlt-error").isEmpty());
        assertThat(console.text("imageAlt-error"), is("imageAlt is too long: 251 characters, more than the 250 allowed"));
        assertThat(console.focused(), is("image-alt"));
        assertThat(console.value("image-alt"), is(tooLong));
        assertThat(console.visible("composer"), is(true));

        // A translation's, refused while another tab is shown: its tab is shown, the refusal beside its field.
        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type(DESCRIBED);
        addLanguage("fr");
        console.typeInEditor("Les nouvelles bottes sont là.");
        console.focus("#image-alt");
        console.browser.type(tooLong);
        console.focus("#language-tab-fr");
        console.press("Home", 36);
        console.waitFor(() -> console.focused().equals("language-tab-own"));
        assertThat(console.value("image-alt"), is(DESCRIBED));
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("imageAlt-error").startsWith("translations."));
        assertThat(console.text("imageAlt-error"),
                   is("translations.fr.imageAlt is too long: 251 characters, more than the 250 allowed"));
        assertThat(console.script("return document.querySelector('#language-tabs [aria-selected=true]').id"),
                   is("language-tab-fr"));
        assertThat(console.focused(), is("image-alt"));
        assertThat(console.value("image-alt"), is(tooLong));
        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type("Une botte en cuir brun");
        saveAsDraft();
        assertThat(stored(project).getJsonObject("translations").getJsonObject("fr").getString("imageAlt"),
                   is("Une botte en cuir brun"));
        assertThat(console.violations(), is("[]"));
    }

    @Test
    void theHistoryComparesTheDescriptionAndARestoredVersionOpensWithItsOwn() {
        Project project = console.projectShown();
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {status: 'DRAFT', message: 'New boots are in.', image: arguments[1], imageAlt: 'A boot'}))", project.id(),
                    image("boot"));
        console.browser.open(console.console() + "#/projects");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> !console.rows("#notification-list tbody tr").isEmpty());
        console.openFirstAnnouncement();
        assertThat(console.value("image-alt"), is("A boot"));
        console.focus("#image-alt");
        console.browser.chord("a", "KeyA", 65, 2);
        console.browser.type("A brown boot");
        saveAsDraft();

        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.rows("#history-list > li > h3").size() == 2);
        assertThat(console.rows("#history-list > li:first-child dt"), is(List.of("Image description")));
        assertThat(console.rows("#history-list > li:first-child dd"), is(List.of("A [added: brown ]boot")));
        assertThat(console.rows("#history-list > li:last-child dt"), is(List.of("Message", "Image",
                "Image description", "Call to action", "Preset", "Starts", "Ends")));

        console.browser.script("document.querySelector('[aria-label=\"Restore version 1 as draft\"]').focus()");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("composer")
                && console.text("status").equals("Version 1 restored as the draft."));
        assertThat(console.value("image-alt"), is("A boot"));
        previewAltIs("A boot");
        assertThat(stored(project).getString("imageAlt"), is("A boot"));
        assertThat(console.violations(), is("[]"));
    }

    /** A version that changes only a translation's image or description says so (an outside trial saw it empty). */
    @Test
    void theHistoryShowsATranslationsOwnImageAndDescription() {
        Project project = console.projectShown();
        String id = console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0]"
                + " + '/notifications', {status: 'DRAFT', message: 'New boots are in.', image: arguments[1],"
                + " imageAlt: 'A boot', translations: {fr: {message: 'Nouvelles bottes.'}}}))", project.id(),
                                image("boot")).getString("id");
        console.api("return JSON.stringify(await send('PATCH', '/notifications/' + arguments[0] + '/translations/fr',"
                + " {imageAlt: 'Une botte brune'}))", id);
        console.browser.open(console.console() + "#/projects");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.waitFor(() -> !console.rows("#notification-list tbody tr").isEmpty());
        console.openFirstAnnouncement();
        console.focus("#show-history");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("history") && console.rows("#history-list > li > h3").size() == 2);
        assertThat(console.rows("#history-list > li:first-child dt"), is(List.of("Translations")));
        String change = console.rows("#history-list > li:first-child dd").get(0);
        assertThat(change, containsString("image as above"));
        assertThat(change, containsString("Une botte brune"));
        assertThat(console.violations(), is("[]"));
    }

    /** A new announcement in a new project, its message typed and the boot's image URL in its field, focused. */
    private static Project composeWithTheBootImage() {
        Project project = console.composeInANewProject();
        console.typeInEditor("New boots are in.");
        console.focus("#image-url");
        console.browser.type(image("boot"));
        return project;
    }

    /** An image the console's policy loads (Herald's own origin), told apart by its name. */
    private static String image(String name) {
        return console.server.uri() + "/console/favicon.svg?" + name;
    }

    /** A click of the mouse, the left button, at the middle of what the selector finds, brought into view. */
    private static void clickOn(String selector) {
        JsonObject at = (JsonObject) console.browser.script("const e = document.querySelector(arguments[0]);"
                + " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
                + " return {x: r.x + r.width / 2, y: r.y + r.height / 2};", selector);
        console.browser.clickAt(at.getJsonNumber("x").doubleValue(), at.getJsonNumber("y").doubleValue());
    }

    /** Both previews' image described so, once drawn. */
    private static void previewAltIs(String alt) {
        for (String theme : List.of("light", "dark")) {
            console.waitFor(() -> alt.equals(previewAlt(theme)));
        }
    }

    private static String previewAlt(String theme) {
        JsonValue alt = console.browser.script(PREVIEW_ALT, theme);
        return alt instanceof jakarta.json.JsonString text ? text.getString() : null;
    }

    /** The project's newest announcement, as the management API answers it. */
    private static JsonObject stored(Project project) {
        return console.api("const list = await send('GET', '/projects/' + arguments[0] + '/notifications');"
                + " return JSON.stringify(list[0]);", project.id());
    }

    /** "Save as draft": the composer closes once Herald has it. */
    private static void saveAsDraft() {
        console.focus("#save-draft");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("composer"));
    }

    /** "Publish", and Yes in the dialog that asks first (Cancel has the focus). */
    private static void publishThroughTheDialog() {
        console.focus("#publish");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
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
