package dev.herald.browser;

import java.io.IOException;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import dev.herald.outbox.EventType;
import dev.herald.project.Project;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * The console's webhooks page (docs/console.md#webhooks) in a real Chromium, by keyboard, under the console's
 * Content-Security-Policy, against a Herald whose delivery worker sends to a real receiver on loopback (allowed by
 * {@code webhooks.allowed-addresses}, which refuses loopback by default).
 */
class ConsoleWebhooksBrowserTest {

    private static ConsoleDriver console;
    private WebhookReceiver receiver;

    @BeforeAll
    static void startConsole() throws IOException, InterruptedException {
        Map<String, String> settings = new HashMap<>(ConsoleDriver.ALICE_AND_VICTOR);
        // The instance's own worker delivers (test instances run none unless asked), to loopback, at once.
        settings.put("webhooks.enabled", "true");
        settings.put("webhooks.allowed-addresses.0", "127.0.0.0/8");
        settings.put("webhooks.poll-interval", "PT0.1S");
        console = ConsoleDriver.start(settings);
    }

    @AfterAll
    static void stopConsole() throws SQLException {
        if (console != null) {
            console.close();
        }
    }

    @BeforeEach
    void signedOut() {
        console.signedOut();
    }

    @AfterEach
    void stopReceiver() throws IOException {
        if (receiver != null) {
            receiver.close();
        }
    }

    /**
     * An editor adds an endpoint (refused first for its URL, then for no event), sees its secret once, sees a failed
     * delivery with its status and next attempt, replays it and all since an instant, disables and enables it,
     * changes its events, rotates its secret and deletes it; each delivery the receiver got is signed with the secret
     * the page showed.
     */
    @Test
    void anEditorAddsAnEndpointSeesItsSecretOnceFollowsItsDeliveriesAndManagesIt() throws IOException {
        receiver = WebhookReceiver.answering(500);
        Project project = console.projectShown();
        console.focus("#project-webhooks");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("webhooks") && console.visible("no-webhooks"));
        assertThat(console.text("webhooks-title"), is("Webhooks of " + project.name()));
        assertThat("a checkbox for each event type the API accepts", Chromium.strings(console.browser.script(
                "return [...document.querySelectorAll('#new-webhook-types input[type=checkbox]')].map((e) => e.value)")),
                   is(EventType.wireNames()));

        console.focus("#new-webhook-url");
        console.browser.type("ftp://example.com/hook");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("new-webhook-url-error").isEmpty());
        assertThat(console.text("new-webhook-url-error"), startsWith("url must be an absolute http or https URL"));
        assertThat(console.focused(), is("new-webhook-url"));
        console.browser.script("document.getElementById('new-webhook-url').select()");
        console.browser.type(receiver.url("/hooks/herald"));
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("new-webhook-types-error").isEmpty());
        assertThat(console.text("new-webhook-types-error"), startsWith("eventTypes must be a non-empty list of"));
        assertThat(console.text("new-webhook-url-error"), is(""));
        assertThat("the first event's checkbox", console.focused(), is("new-webhook-type-notification-created"));
        console.press(" ", 32);
        console.press("Tab", 9);
        console.press(" ", 32);
        // Past the other checkboxes to the button.
        tab(EventType.values().length - 1);
        assertThat(console.script("return document.activeElement.textContent"), is("Add endpoint"));
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("webhook-secret") && console.focused().equals("webhook-secret-value"));
        String secret = console.value("webhook-secret-value");
        assertThat(secret, secret.matches("whsec_[A-Za-z0-9+/]{43}="), is(true));
        assertThat(console.text("webhook-secret-text"), containsString("shown this once"));
        assertThat(console.text("webhook-secret-text"), containsString("You will not see it again"));
        assertThat(states(), is(List.of("enabled")));
        assertThat("the form afresh: no URL, no event ticked", console.value("new-webhook-url"), is(""));
        assertThat(Chromium.strings(console.browser.script("return [...document.querySelectorAll("
                + "'#new-webhook-types input[type=checkbox]')].filter((e) => e.checked).map((e) => e.value)")),
                   is(List.of()));
        console.browser.script("document.getElementById('webhook-secret').scrollIntoView()");
        console.save("console-webhooks-secret.png");
        JsonObject endpoint = endpoints(project).getFirst().asJsonObject();
        String id = endpoint.getString("id");
        assertThat(endpoint.get("eventTypes").toString(), is("[\"notification.created\",\"notification.published\"]"));

        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {message: 'Spring sale'}))", project.id());
        console.waitFor(() -> receiver.requests().size() == 1);
        WebhookReceiver.Request first = receiver.requests().getFirst();
        assertThat("signed with the secret shown", first.signedWith(secret), is(true));
        assertThat(first.body(), containsString("notification.created"));

        console.focus("#webhook-" + id + "-deliveries");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("webhook-deliveries") && console.focused().equals("webhook-deliveries-title"));
        assertThat(console.text("webhook-deliveries-title"), is("Deliveries to " + receiver.url("/hooks/herald")));
        refreshUntil(row -> row.contains("pending HTTP 500"));
        List<String> failed = List.of(deliveries().getFirst().split(" \\| "));
        assertThat(failed.getFirst(), startsWith("notification.created "));
        assertThat("its id, the receiver's idempotency key", failed.getFirst(),
                   containsString(first.headers().get("webhook-id")));
        assertThat(failed.get(1), startsWith("pending HTTP 500"));
        assertThat("attempts", failed.get(2), is("1"));
        assertThat("latency", failed.get(3).matches("\\d+ ms"), is(true));
        assertThat("when it is tried next", failed.get(4), not(is("—")));
        assertThat(failed.get(5), is("Replay"));
        assertThat("Refresh read the endpoint's state too", states().getFirst(),
                   startsWith("enabled Failing since "));
        assertThat(states().getFirst(), endsWith(": Herald disables it if it keeps failing for days."));
        console.browser.script("document.getElementById('webhook-list-title').scrollIntoView()");
        console.save("console-webhooks-failing.png");

        receiver.answer(204);
        console.focus("#webhook-delivery-list tbody tr button");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").endsWith("will be sent again."));
        console.waitFor(() -> receiver.requests().size() == 2);
        assertThat("the same message again", receiver.requests().get(1).headers().get("webhook-id"),
                   is(first.headers().get("webhook-id")));
        refreshUntil(row -> row.contains("delivered HTTP 204"));
        List<String> delivered = List.of(deliveries().getFirst().split(" \\| "));
        assertThat(delivered.get(1), startsWith("delivered HTTP 204"));
        assertThat("counted afresh", delivered.get(2), is("1"));
        assertThat("nothing to wait for", delivered.get(4), is("—"));
        assertThat("failing no more", states(), is(List.of("enabled")));

        console.saveLightAndPhone("console-webhooks",
                () -> console.browser.script("document.getElementById('webhook-deliveries').scrollIntoView()"));
        try {
            console.browser.emulateMedia("prefers-color-scheme", "dark");
            console.browser.script("document.getElementById('webhook-deliveries').scrollIntoView()");
            console.save("console-webhooks-dark.png");
        } finally {
            console.browser.emulateMedia(null, null);
        }

        console.browser.script("const since = new Date(Date.parse(arguments[0]) - 3600000);"
                + " since.setMinutes(since.getMinutes() - since.getTimezoneOffset());"
                + " document.getElementById('webhook-replay-since').value = since.toISOString().slice(0, 16)",
                endpoint.getString("createdAt"));
        console.focus("#webhook-replay button[type=submit]");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), startsWith("Send again every delivery to " + receiver.url("/")));
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").equals("1 delivery will be sent again."));
        console.waitFor(() -> receiver.requests().size() == 3);

        // A load of the console (no fragment), then the page again.
        console.browser.open(console.console());
        console.waitFor(() -> console.visible("projects"));
        console.browser.open(console.console() + "#/projects/" + project.id() + "/webhooks");
        console.waitFor(() -> console.visible("webhooks") && states().size() == 1);
        assertThat("the secret is gone with the page it was shown on", console.visible("webhook-secret"), is(false));
        assertThat(console.script("return document.documentElement.outerHTML + [...document.querySelectorAll('input')]"
                + ".map((e) => e.value).join(' ')"), not(containsString(secret)));

        console.focus("#webhook-" + id + "-toggle");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.focused(), is("confirm-no"));
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> states().getFirst().startsWith("disabled"));
        assertThat(states().getFirst(), is("disabled Disabled by alice. Herald sends it nothing until it is enabled"
                + " again."));
        console.waitFor(() -> console.focused().equals("webhook-" + id + "-toggle"));
        assertThat(console.text("webhook-" + id + "-toggle"), is("Enable"));
        console.press("Enter", 13);
        console.waitFor(() -> states().getFirst().equals("enabled"));
        assertThat(console.text("status"), is(receiver.url("/hooks/herald") + " enabled."));

        assertThat(console.text("webhook-" + id + "-types-summary"),
                   is("Events: notification.created, notification.published"));
        console.focus("#webhook-" + id + "-types-summary");
        console.press("Enter", 13);
        console.waitFor(() -> console.script("return String(document.getElementById(arguments[0]).checkVisibility())",
                                             "webhook-" + id + "-type-interaction-click").equals("true"));
        for (String type : List.of("notification-created", "notification-published")) {
            console.focus("#webhook-" + id + "-type-" + type);
            console.press(" ", 32);
        }
        console.focus("#webhook-" + id + "-save-types");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("webhook-" + id + "-types-error").isEmpty());
        assertThat("the API's refusal in the card, in the page's error style",
                   console.script("return document.getElementById(arguments[0]).className + ' '"
                           + " + document.getElementById(arguments[0]).textContent", "webhook-" + id + "-types-error"),
                   startsWith("error eventTypes must be a non-empty list of notification.created"));
        assertThat(console.focused(), is("webhook-" + id + "-type-notification-created"));
        for (String type : List.of("notification-created", "notification-published", "interaction-click")) {
            console.focus("#webhook-" + id + "-type-" + type);
            console.press(" ", 32);
        }
        console.focus("#webhook-" + id + "-save-types");
        console.press("Enter", 13);
        console.waitFor(() -> console.text("status").equals("The events of " + receiver.url("/hooks/herald")
                + " are saved."));
        // The list is drawn again, the focus on the line that names the events.
        console.waitFor(() -> console.focused().equals("webhook-" + id + "-types-summary"));
        assertThat(console.text("webhook-" + id + "-types-summary"),
                   is("Events: notification.created, notification.published, interaction.click"));
        assertThat(endpoints(project).getFirst().asJsonObject().get("eventTypes").toString(),
                   is("[\"notification.created\",\"notification.published\",\"interaction.click\"]"));

        console.focus("#webhook-" + id + "-rotate");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("webhook-secret") && console.focused().equals("webhook-secret-value"));
        String rotated = console.value("webhook-secret-value");
        assertThat(rotated, rotated.matches("whsec_[A-Za-z0-9+/]{43}="), is(true));
        assertThat(rotated, not(is(secret)));
        assertThat(console.text("webhook-secret-text"), containsString("You will not see it again"));
        assertThat(console.text("webhook-secret-text"), containsString("The previous secret still signs beside it"));
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {message: 'Summer sale'}))", project.id());
        console.waitFor(() -> receiver.requests().size() == 4);
        WebhookReceiver.Request during = receiver.requests().get(3);
        assertThat("during the rotation, signed with both", during.signedWith(rotated) && during.signedWith(secret),
                   is(true));

        console.focus("#webhook-" + id + "-delete");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.text("confirm-text"), startsWith("Delete " + receiver.url("/hooks/herald") + "?"));
        console.press("Tab", 9, true);
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("no-webhooks") && console.focused().equals("new-webhook-url"));
        assertThat(console.text("status"), is(receiver.url("/hooks/herald") + " deleted."));
        assertThat(console.visible("webhook-secret"), is(false));
        assertThat(endpoints(project).size(), is(0));

        // Each step is a sentence of the audit log, the replays among them (they left no line before).
        console.browser.open(console.console() + "#/audit");
        console.waitFor(() -> console.visible("audit") && console.rows("#audit-list tbody tr td.value").stream()
                .anyMatch(line -> line.contains("deleted the webhook endpoint")));
        String url = receiver.url("/hooks/herald");
        String in = " in " + project.name();
        assertThat(console.rows("#audit-list tbody tr td.value").stream()
                .filter(line -> line.contains("webhook endpoint") && line.endsWith(in)).toList(), is(List.of(
                        "alice deleted the webhook endpoint " + url + in,
                        "alice rotated the secret of the webhook endpoint" + in,
                        "alice changed the webhook endpoint" + in,
                        "alice changed the webhook endpoint" + in,
                        "alice changed the webhook endpoint" + in,
                        "alice replayed deliveries to the webhook endpoint " + url + in,
                        "alice replayed deliveries to the webhook endpoint " + url + in,
                        "alice added the webhook endpoint " + url + in)));
        assertThat(console.violations(), is("[]"));
    }

    /** An endpoint that answers 410 is disabled by Herald, and its card says so and why. */
    @Test
    void anEndpointDisabledByHeraldSaysWhy() throws IOException {
        receiver = WebhookReceiver.answering(410);
        Project project = console.projectShown();
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/webhooks',"
                + " {url: arguments[1], eventTypes: ['notification.created']}))", project.id(),
                receiver.url("/gone"));
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {message: 'Gone'}))", project.id());
        console.waitFor(() -> receiver.requests().size() == 1);
        console.waitFor(() -> !endpoints(project).getFirst().asJsonObject().getBoolean("enabled"));
        console.browser.open(console.console() + "#/projects/" + project.id() + "/webhooks");
        console.waitFor(() -> console.visible("webhooks") && states().size() == 1);
        assertThat(states().getFirst(), startsWith("disabled The endpoint answered 410 Gone at "));
        assertThat(states().getFirst(), endsWith("it asks not to be called again. Herald sends it nothing until it is"
                + " enabled again."));
        console.browser.script("document.getElementById('webhook-list-title').scrollIntoView()");
        console.save("console-webhooks-disabled.png");
        assertThat(console.violations(), is("[]"));
    }

    /** A viewer reads the endpoints and their deliveries, and is offered nothing that changes them. */
    @Test
    void aViewerReadsEndpointsAndDeliveriesAndChangesNothing() {
        receiver = WebhookReceiver.answering(204);
        Project project = console.projectShown();
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/webhooks',"
                + " {url: arguments[1], eventTypes: ['notification.created']}))", project.id(), receiver.url("/"));
        console.api("return JSON.stringify(await send('POST', '/projects/' + arguments[0] + '/notifications',"
                + " {message: 'Read only'}))", project.id());
        console.waitFor(() -> receiver.requests().size() == 1);
        console.signedOut();
        console.signIn("victor", ConsoleDriver.VICTOR);
        console.browser.open(console.console() + "#/projects/" + project.id() + "/webhooks");
        console.waitFor(() -> console.visible("webhooks") && states().size() == 1);
        assertThat("no form to add one", console.script(
                "return String(document.getElementById('new-webhook').checkVisibility())"), is("false"));
        assertThat(console.script("return [...document.querySelectorAll('#webhook-list button')]"
                + ".map((b) => b.textContent).join()"), is("Deliveries"));
        assertThat("its events shown, not changeable", console.script(
                "return [...document.querySelectorAll('#webhook-list input')].every((e) => e.disabled)"
                + " + ' ' + [...document.querySelectorAll('#webhook-list input:checked')].map((e) => e.value)"),
                   is("true notification.created"));
        console.focus("#webhook-list button");
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("webhook-deliveries"));
        refreshUntil(row -> row.contains("delivered"));
        assertThat("no replay", deliveries().getFirst(), not(containsString("Replay")));
        assertThat(console.script("return String(document.getElementById('webhook-replay').checkVisibility())"),
                   is("false"));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * Keyboard only, from the page's content: every control is reached with Tab in order, each shows where the focus
     * is, a dialog's Escape says no, and closing the deliveries gives the focus back to the button that opened them.
     */
    @Test
    void theWholePageWorksByKeyboardAloneWithTheFocusAlwaysShown() {
        receiver = WebhookReceiver.answering(204);
        Project project = console.server.herald().project();
        console.signIn("alice", ConsoleDriver.ALICE);
        console.browser.open(console.console() + "#/projects/" + project.id() + "/webhooks");
        console.waitFor(() -> console.visible("no-webhooks") && console.focused().equals("main"));
        console.press("Tab", 9);
        assertFocus("webhooks-back");
        console.press("Tab", 9);
        assertFocus("new-webhook-url");
        console.browser.type(receiver.url("/keys"));
        console.press("Tab", 9);
        assertFocus("new-webhook-description");
        console.browser.type("Our CRM");
        console.press("Tab", 9);
        assertFocus("new-webhook-type-notification-created");
        console.press(" ", 32);
        for (int i = 1; i < EventType.values().length; i++) {
            console.press("Tab", 9);
            assertFocus("");
        }
        console.press("Tab", 9);
        assertThat(console.script("return document.activeElement.textContent"), is("Add endpoint"));
        assertFocus("");
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().equals("webhook-secret-value"));
        console.press("Tab", 9);
        assertFocus("webhook-secret-copy");
        console.press("Enter", 13);
        console.waitFor(() -> !console.text("status").contains("added"));
        assertThat("the secret selected for the reader, or copied", console.focused(), is("webhook-secret-value"));
        String id = endpoints(project).getFirst().asJsonObject().getString("id");
        console.press("Tab", 9);
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-types-summary");
        assertThat(console.text("webhook-" + id + "-types-summary"), is("Events: notification.created"));
        console.press("Enter", 13);
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-type-notification-created");
        tab(EventType.values().length);
        assertFocus("webhook-" + id + "-save-types");
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-deliveries");
        console.press("Enter", 13);
        console.waitFor(() -> console.focused().equals("webhook-deliveries-title"));
        console.press("Tab", 9);
        assertFocus("webhook-deliveries-refresh");
        console.press("Tab", 9);
        assertFocus("webhook-deliveries-close");
        console.press("Enter", 13);
        console.waitFor(() -> !console.visible("webhook-deliveries"));
        assertFocus("webhook-" + id + "-deliveries");
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-toggle");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        assertThat(console.focused(), is("confirm-no"));
        console.press("Escape", 27);
        console.waitFor(() -> !console.confirmOpen() && console.focused().equals("webhook-" + id + "-toggle"));
        assertThat("Escape said no", states().getFirst(), is("enabled"));
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-rotate");
        console.press("Tab", 9);
        assertFocus("webhook-" + id + "-delete");
        console.press("Enter", 13);
        console.waitFor(console::confirmOpen);
        console.press("Tab", 9, true);
        assertThat(console.focused(), is("confirm-yes"));
        console.press("Enter", 13);
        console.waitFor(() -> console.visible("no-webhooks") && console.focused().equals("new-webhook-url"));
        assertThat(console.violations(), is("[]"));
    }

    /** What has the focus is this element ({@code ""}: whatever it is), and it shows so: an outline of 3 px. */
    private static void assertFocus(String id) {
        if (!id.isEmpty()) {
            assertThat(console.focused(), is(id));
        }
        assertThat("the focus is seen on " + console.focused(), console.script(
                "const style = getComputedStyle(document.activeElement);"
                + " return style.outlineStyle + ' ' + style.outlineWidth"), is("solid 3px"));
    }

    private static void tab(int times) {
        for (int i = 0; i < times; i++) {
            console.press("Tab", 9);
        }
    }

    /** Each endpoint's state line, as its card says it. */
    private static List<String> states() {
        return console.rows("#webhook-list .webhook-state");
    }

    /** Each delivery's row, its cells' texts joined by " | ". */
    private static List<String> deliveries() {
        return Chromium.strings(console.browser.script("return [...document.querySelectorAll("
                + "'#webhook-delivery-list tbody tr')].map((row) => [...row.cells].map((c) => c.textContent.trim())"
                + ".join(' | '))"));
    }

    /** Refresh, pressed by keyboard, until the newest delivery's row says so. */
    private static void refreshUntil(Predicate<String> newest) {
        console.waitFor(() -> {
            console.focus("#webhook-deliveries-refresh");
            console.press("Enter", 13);
            console.browser.pause(100);
            List<String> rows = deliveries();
            return !rows.isEmpty() && newest.test(rows.getFirst());
        });
    }

    private static JsonArray endpoints(Project project) {
        return console.api("return JSON.stringify({list: await send('GET', '/projects/' + arguments[0] + '/webhooks')})",
                project.id()).getJsonArray("list");
    }
}
