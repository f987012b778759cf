package dev.herald.webhook;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.Timestamps;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.herald.webhook.WebhookTestSupport.count;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Webhook endpoints in the management API (docs/webhooks.md#endpoints-deliveries-and-replay), run against each
 * database by a subclass. The server's own worker is off: the tests deliver with a worker of their own.
 */
abstract class WebhookAdminContract extends HeraldServerTest {

    private static final String NEW = "{\"url\":\"https://hooks.example/in\",\"eventTypes\":[\"notification.created\"]}";

    private final AdminClient admin;

    WebhookAdminContract(Http1Client http) {
        this.admin = new AdminClient(http);
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN, "webhooks.enabled", "false"));
    }

    @Test
    void theSecretIsInTheCreateAndRotateAnswersOnlyAndNeverInTheAuditLog() throws Exception {
        Project project = herald.project();
        JsonObject created = admin.created("/projects/" + project.id() + "/webhooks", NEW);
        String secret = created.getString("secret");
        assertThat(secret, startsWith("whsec_"));
        String path = "/webhooks/" + created.getString("id");
        assertThat(admin.call(Method.GET, path).object(), not(hasKey("secret")));
        assertThat(admin.call(Method.GET, "/projects/" + project.id() + "/webhooks").array().getJsonObject(0),
                   not(hasKey("secret")));
        assertThat(admin.call(Method.PATCH, path, "{\"description\":\"Slack\"}").object(), not(hasKey("secret")));

        AdminClient.Answer rotated = admin.call(Method.POST, path + "/rotate-secret");
        assertThat(rotated.status(), is(200));
        String next = rotated.object().getString("secret");
        assertThat(next, not(is(secret)));
        assertThat(rotated.object().getString("previousSecretExpiresAt"),
                   is(herald.clock().instant().plus(Duration.ofHours(24)).toString().replace("Z", ".000Z")));
        assertThat(count(herald, "SELECT COUNT(*) FROM audit_log WHERE project_id = ? AND action LIKE 'webhook.%'",
                         project.id()), is(3L));
        assertThat(count(herald, "SELECT COUNT(*) FROM audit_log WHERE details LIKE ?", "%whsec_%"), is(0L));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "{\"eventTypes\":[\"notification.created\"]};url",
            "{\"url\":\"ftp://hooks.example/in\",\"eventTypes\":[\"notification.created\"]};url",
            "{\"url\":\"https://user:pw@hooks.example/in\",\"eventTypes\":[\"notification.created\"]};url",
            "{\"url\":\"https://hooks.example/in\"};eventTypes",
            "{\"url\":\"https://hooks.example/in\",\"eventTypes\":[]};eventTypes",
            "{\"url\":\"https://hooks.example/in\",\"eventTypes\":[\"notification.sent\"]};eventTypes[0]",
            "{\"url\":\"https://hooks.example/in\",\"eventTypes\":[\"notification.created\"],\"secret\":\"x\"};secret"})
    void badInputIsAJson400NamingTheField(String body, String field) {
        AdminClient.Answer answer = admin.call(Method.POST, "/projects/" + herald.project().id() + "/webhooks", body);
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
    }

    /** 200 characters as a person counts them (code points): an emoji is one, on every database. */
    @Test
    void aDescriptionOf200EmojiIsKeptAndOf201IsA400() {
        String path = "/projects/" + herald.project().id() + "/webhooks";
        String emoji = "\uD83D\uDE00";
        JsonObject created = admin.created(path, "{\"url\":\"https://hooks.example/in\",\"eventTypes\":"
                + "[\"notification.created\"],\"description\":\"" + emoji.repeat(150) + "\"}");
        assertThat(created.getString("description"), is(emoji.repeat(150)));
        AdminClient.Answer changed = admin.call(Method.PATCH, "/webhooks/" + created.getString("id"),
                                                "{\"description\":\"" + emoji.repeat(200) + "\"}");
        assertThat(changed.body(), changed.status(), is(200));
        assertThat(changed.object().getString("description"), is(emoji.repeat(200)));
        AdminClient.Answer tooLong = admin.call(Method.PATCH, "/webhooks/" + created.getString("id"),
                                                "{\"description\":\"" + emoji.repeat(201) + "\"}");
        assertThat(tooLong.body(), tooLong.status(), is(400));
        assertThat(tooLong.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(tooLong.object().getJsonObject("details").getString("field"), is("description"));
    }

    /**
     * A URL no attempt could ever call is refused when it is given, not at each delivery (counting to disabling). A
     * lone surrogate is refused with the body that holds it, as in any field (IdsOutsideTheirFormContract).
     */
    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {"http://127.0.0.2:0/x;url", "http://127.0.0.2:65536/x;url",
                                         "http://127.0.0.2:/x;url", "https://[::1]:/x;url",
                                         "https://hooks.example/in\\ud800;body"})
    void aUrlWithAPortOutOfRangeOrALoneSurrogateIsA400OnCreateAndUpdate(String url, String field) {
        String path = "/projects/" + herald.project().id() + "/webhooks";
        AdminClient.Answer refused = admin.call(Method.POST, path, "{\"url\":\"" + url
                + "\",\"eventTypes\":[\"notification.created\"]}");
        assertThat(refused.body(), refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is(field));
        JsonObject created = admin.created(path, NEW);
        AdminClient.Answer changed = admin.call(Method.PATCH, "/webhooks/" + created.getString("id"),
                                                "{\"url\":\"" + url + "\"}");
        assertThat(changed.body(), changed.status(), is(400));
        assertThat(changed.object().getJsonObject("details").getString("field"), is(field));
    }

    @Test
    void aRotationTakesNoBody() throws Exception {
        Project project = herald.project();
        String path = "/webhooks/" + admin.created("/projects/" + project.id() + "/webhooks", NEW).getString("id");
        AdminClient.Answer refused = admin.call(Method.POST, path + "/rotate-secret",
                                                "{\"secret\":\"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\"}");
        assertThat(refused.body(), refused.status(), is(400));
        assertThat(refused.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("secret"));
        assertThat("not rotated", count(herald, "SELECT COUNT(*) FROM audit_log WHERE project_id = ? AND action ="
                + " 'webhook.secret-rotated'", project.id()), is(0L));
        assertThat(admin.call(Method.POST, path + "/rotate-secret", "{}").status(), is(200));
    }

    @Test
    void aQueryParameterGivenTwiceIsA400NamingIt() {
        String path = "/webhooks/" + admin.created("/projects/" + herald.project().id() + "/webhooks", NEW)
                .getString("id") + "/deliveries";
        for (String query : new String[] {"limit=1&limit=abc", "limit=1&limit=1", "cursor=&cursor="}) {
            AdminClient.Answer answer = admin.call(Method.GET, path + "?" + query);
            assertThat(query, answer.status(), is(400));
            assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
            assertThat(answer.object().getJsonObject("details").getString("field"), is(query.split("=")[0]));
        }
    }

    @Test
    void disabledByAPersonItSaysSoAndEnabledAgainItStartsAfresh() {
        JsonObject created = admin.created("/projects/" + herald.project().id() + "/webhooks", NEW);
        String path = "/webhooks/" + created.getString("id");
        JsonObject disabled = admin.call(Method.PATCH, path, "{\"enabled\":false}").object();
        assertThat(disabled.getBoolean("enabled"), is(false));
        assertThat(disabled.getString("disabledReason"), startsWith("Disabled by "));
        JsonObject enabled = admin.call(Method.PATCH, path, "{\"enabled\":true}").object();
        assertThat(enabled.isNull("disabledReason"), is(true));
        assertThat(enabled.isNull("failingSince"), is(true));
    }

    /** After an outage, the receiver back: what waits for its retry in minutes or hours goes at the replay. */
    @Test
    void replaySinceSendsNowWhatWaitsForItsNextAttempt() throws Exception {
        String path = endpointWithOneEvent();
        WebhookTestSupport.ScriptedTransport receiver = new WebhookTestSupport.ScriptedTransport();
        receiver.answer = delivery -> WebhookTestSupport.attempt(Attempt.Outcome.FAILED, 503);
        try (DeliveryWorker worker = worker(receiver)) {
            assertThat(worker.deliverDue(), is(1));
            assertThat("its next attempt is not due yet", worker.deliverDue(), is(0));
            receiver.answer = delivery -> WebhookTestSupport.attempt(Attempt.Outcome.DELIVERED, 204);
            AdminClient.Answer all = admin.call(Method.POST, path + "/replay", "{\"since\":\""
                    + herald.clock().instant().minusSeconds(60) + "\"}");
            assertThat(all.object().getInt("replayed"), is(1));
            assertThat(worker.deliverDue(), is(1));
        }
        JsonObject delivered = admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0);
        assertThat(delivered.getString("status"), is("DELIVERED"));
        assertThat(receiver.received.size(), is(2));
    }

    @Test
    void deliveriesAreListedAndReplayedOneOrAllSinceAnInstant() throws Exception {
        Project project = herald.project();
        JsonObject created = admin.created("/projects/" + project.id() + "/webhooks", NEW);
        String path = "/webhooks/" + created.getString("id");
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        JsonObject pending = admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0);
        assertThat(pending.getString("status"), is("PENDING"));
        assertThat(pending.getInt("attempts"), is(0));

        WebhookTestSupport.ScriptedTransport receiver = new WebhookTestSupport.ScriptedTransport();
        try (DeliveryWorker worker = worker(receiver)) {
            assertThat(worker.deliverDue(), is(2));
            JsonObject delivered = admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0);
            assertThat(delivered.getString("status"), is("DELIVERED"));
            assertThat(delivered.getInt("attempts"), is(1));
            assertThat(delivered.getInt("lastStatus"), is(204));
            assertThat(delivered.getString("eventType"), is("notification.created"));

            String eventId = delivered.getString("eventId");
            // It takes no body, as a rotation does not: one given is a mistake, and it was taken without a word.
            AdminClient.Answer withBody = admin.call(Method.POST, path + "/deliveries/" + eventId + "/replay",
                                                     "{\"since\":\"2026-01-01T00:00:00Z\"}");
            assertThat(withBody.body(), withBody.status(), is(400));
            assertThat(admin.call(Method.POST, path + "/deliveries/" + eventId + "/replay").status(), is(202));
            assertThat(admin.call(Method.POST, path + "/deliveries/msg_unknown/replay").status(), is(404));
            assertThat(worker.deliverDue(), is(1));
            Instant since = herald.clock().instant().minusSeconds(60);
            AdminClient.Answer all = admin.call(Method.POST, path + "/replay", "{\"since\":\"" + since + "\"}");
            assertThat(all.status(), is(202));
            assertThat(all.object().getInt("replayed"), is(2));
            assertThat(worker.deliverDue(), is(2));

            // A replay sends events to wherever the URL now points: each is a line of the audit log, the unknown
            // delivery's none (an outside review found none at all). Newest first.
            List<JsonObject> replays = admin.call(Method.GET, "/audit?targetId=" + created.getString("id")).array()
                    .getValuesAs(JsonObject.class).stream()
                    .filter(line -> line.getString("action").equals("webhook.replayed")).toList();
            assertThat(replays.size(), is(2));
            assertThat(replays.get(0).getJsonObject("details"), is(Json.createObjectBuilder()
                    .add("since", Timestamps.format(since.toEpochMilli()))
                    .add("url", created.getString("url")).add("replayed", 2).build()));
            assertThat(replays.get(1).getJsonObject("details"), is(Json.createObjectBuilder().add("eventId", eventId)
                    .add("url", created.getString("url")).add("replayed", 1).build()));
            assertThat(replays.get(1).getString("projectId"), is(project.id()));
        }
        assertThat("the same ids each time", receiver.received.stream().map(Delivery::messageId).distinct().count(),
                   is(2L));
        assertThat(receiver.received.size(), is(5));
    }

    /**
     * docs/api.md's objects name every member of the webhook answers, no more: a reader builds a client from them.
     * A WebhookEndpointWithSecret is a WebhookEndpoint and its secret (and, after a rotation, when the previous one
     * stops signing).
     */
    @Test
    void theWebhookObjectsOfTheApiDocumentAreTheAnswersMembers() throws Exception {
        String document = Files.readString(Path.of("docs/api.md"));
        Set<String> endpoint = documented(document, "WebhookEndpoint");
        Project project = herald.project();
        JsonObject created = admin.created("/projects/" + project.id() + "/webhooks", NEW);
        String path = "/webhooks/" + created.getString("id");
        assertThat(admin.call(Method.GET, path).object().keySet(), is(endpoint));
        Set<String> withSecret = new TreeSet<>(endpoint);
        withSecret.add("secret");
        assertThat(new TreeSet<>(created.keySet()), is(withSecret));
        assertThat(document, containsString("- **WebhookEndpointWithSecret**: a WebhookEndpoint and `secret`"));
        withSecret.add("previousSecretExpiresAt");
        assertThat(new TreeSet<>(admin.call(Method.POST, path + "/rotate-secret").object().keySet()), is(withSecret));

        herald.notification(project).status(NotificationStatus.DRAFT).save();
        assertThat(admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0).keySet(),
                   is(documented(document, "WebhookDelivery")));
        assertThat(admin.call(Method.POST, path + "/replay", "{\"since\":\"2026-01-01T00:00:00Z\"}").object()
                           .keySet(), is(documented(document, "WebhookReplayed")));
        // Its delivery, queued again, is no other test's to send.
        assertThat(admin.call(Method.DELETE, path).status(), is(204));
    }

    /** The members an object's entry in docs/api.md's objects lists: {@code - **Name**: `{"a","b"}`}. */
    private static Set<String> documented(String document, String object) {
        Matcher entry = Pattern.compile("\n- \\*\\*" + object + "\\*\\*: `\\{([^}]*)}`").matcher(document);
        assertThat(object + " in docs/api.md's objects", entry.find(), is(true));
        Set<String> members = new TreeSet<>();
        for (String member : entry.group(1).split(",")) {
            members.add(member.replace("\"", ""));
        }
        return members;
    }

    /** A disabled endpoint sends nothing: a replay would only queue what no worker sends, so it is refused. */
    @Test
    void aReplayOnADisabledEndpointIsA409UntilItIsEnabledAgain() throws Exception {
        String path = endpointWithOneEvent();
        WebhookTestSupport.ScriptedTransport receiver = new WebhookTestSupport.ScriptedTransport();
        try (DeliveryWorker worker = worker(receiver)) {
            assertThat(worker.deliverDue(), is(1));
        }
        String eventId = admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0).getString("eventId");
        admin.call(Method.PATCH, path, "{\"enabled\":false}");
        String since = "{\"since\":\"" + herald.clock().instant().minusSeconds(60) + "\"}";

        for (AdminClient.Answer refused : java.util.List.of(admin.call(Method.POST, path + "/replay", since),
                admin.call(Method.POST, path + "/deliveries/" + eventId + "/replay"))) {
            assertThat(refused.status(), is(409));
            assertThat(refused.object().getString("code"), is("ENDPOINT_DISABLED"));
            assertThat(refused.object().getString("error"), containsString("Disabled by "));
        }
        assertThat("nothing was queued", admin.call(Method.GET, path + "/deliveries").array().getJsonObject(0)
                .getString("status"), is("DELIVERED"));
        admin.call(Method.PATCH, path, "{\"enabled\":true}");
        assertThat(admin.call(Method.POST, path + "/replay", since).object().getInt("replayed"), is(1));
        try (DeliveryWorker worker = worker(receiver)) {
            assertThat("sent, leaving nothing for the other tests' workers", worker.deliverDue(), is(1));
        }
    }

    @Test
    void aDeletedEndpointGetsNoMoreEvents() throws Exception {
        Project project = herald.project();
        JsonObject created = admin.created("/projects/" + project.id() + "/webhooks", NEW);
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        assertThat(admin.call(Method.DELETE, "/webhooks/" + created.getString("id")).status(), is(204));
        assertThat(admin.call(Method.GET, "/webhooks/" + created.getString("id")).status(), is(404));
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        assertThat(count(herald, "SELECT COUNT(*) FROM webhook_deliveries WHERE project_id = ?", project.id()),
                   is(0L));
    }

    private static DeliveryWorker worker(WebhookTransport transport) {
        return new DeliveryWorker(new DeliveryStore(herald.serving().client()), herald.services().webhookEndpoints(),
                                  herald.services().outbox(), transport, herald.services().webhooks(),
                                  RetrySchedule.standard(new SplittableRandom(5)), herald.clock());
    }

    /** A new project's endpoint, and one event for it: the endpoint's path. */
    private String endpointWithOneEvent() {
        Project project = herald.project();
        JsonObject created = admin.created("/projects/" + project.id() + "/webhooks", NEW);
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        return "/webhooks/" + created.getString("id");
    }
}
