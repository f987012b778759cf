package dev.herald.browser;

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
import static org.hamcrest.Matchers.is;

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
