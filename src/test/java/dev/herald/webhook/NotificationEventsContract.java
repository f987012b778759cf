package dev.herald.webhook;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;
import dev.herald.outbox.EventType;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

import static dev.herald.webhook.WebhookTestSupport.strings;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;

/**
 * The events of a notification's changes through the management API, as a consumer of every type sees them
 * (docs/webhooks.md#events-and-payloads): one write, one event, every one numbered by its source.
 */
abstract class NotificationEventsContract extends HeraldServerTest {

    private final AdminClient admin;

    NotificationEventsContract(Http1Client http) {
        this.admin = new AdminClient(http);
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN, "webhooks.enabled", "false"));
    }

    /** An endpoint, made through the API, that wants every type there is. */
    private Project projectHearingEverything() {
        Project project = herald.project();
        String types = EventType.wireNames().stream().map(type -> "\"" + type + "\"")
                .collect(java.util.stream.Collectors.joining(","));
        admin.created("/projects/" + project.id() + "/webhooks",
                      "{\"url\":\"https://hooks.example/in\",\"eventTypes\":[" + types + "]}");
        return project;
    }

    private String published(Project project, String dates) {
        return admin.created("/projects/" + project.id() + "/notifications",
                             "{\"message\":\"Hi\",\"status\":\"PUBLISHED\"" + dates + "}").getString("id");
    }

    @Test
    void unpublishingIsAnEventNumberedBetweenThePublications() throws Exception {
        Project project = projectHearingEverything();
        String id = published(project, "");
        assertThat(admin.call(Method.POST, "/notifications/" + id + "/unpublish").status(), is(200));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}").status(), is(200));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"DRAFT\"}").status(), is(200));

        assertThat(types(id), contains("notification.created", "notification.published",
                                       "notification.unpublished", "notification.published",
                                       "notification.unpublished"));
        assertThat(sequences(id), contains("1", "2", "3", "4", "5"));
        JsonObject unpublished = data(id, 3);
        assertThat(unpublished.getString("status"), is("DRAFT"));
        assertThat(unpublished.getString("previousStatus"), is("PUBLISHED"));
        assertThat(unpublished.get("startAt"), is(JsonValue.NULL));
        assertThat(data(id, 4).getString("previousStatus"), is("DRAFT"));
    }

    @Test
    void theBulkArchivesEventHasThePatchsShapeWithItsDates() throws Exception {
        Project project = projectHearingEverything();
        String start = herald.clock().instant().minus(Duration.ofHours(2)).toString();
        String end = herald.clock().instant().plus(Duration.ofMinutes(1)).toString();
        String bulk = published(project, ",\"startDate\":\"" + start + "\",\"endDate\":\"" + end + "\"");
        String patched = published(project, ",\"endDate\":\"" + end + "\"");
        herald.clock().advance(Duration.ofMinutes(2));
        assertThat(admin.call(Method.PATCH, "/notifications/" + patched, "{\"status\":\"ARCHIVED\"}").status(),
                   is(200));
        assertThat(admin.call(Method.POST, "/projects/" + project.id() + "/notifications/archive?state=ended")
                           .status(), is(200));

        JsonObject byPatch = data(patched, 3);
        JsonObject byBulk = data(bulk, 3);
        assertThat(byBulk.keySet(), is(byPatch.keySet()));
        assertThat(byBulk.getString("startAt"), is(start.replace("Z", ".000Z")));
        assertThat(byBulk.getString("endAt"), is(end.replace("Z", ".000Z")));
        assertThat(byBulk.getString("status"), is("ARCHIVED"));
        assertThat(byBulk.getString("previousStatus"), is("PUBLISHED"));
    }

    @Test
    void aChangeOfAPublishedOneIsOneUpdatedEventWithItsDatesAndWhatChanged() throws Exception {
        Project project = projectHearingEverything();
        String id = published(project, "");
        String end = herald.clock().instant().plus(Duration.ofDays(3)).toString();
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"endDate\":\"" + end
                + "\",\"title\":\"New\",\"imageAlt\":\"A shoe\"}").status(), is(200));
        assertThat("a change to nothing is no event",
                   admin.call(Method.PATCH, "/notifications/" + id, "{\"title\":\"New\"}").status(), is(200));

        assertThat(types(id), contains("notification.created", "notification.published", "notification.updated"));
        JsonObject updated = data(id, 3);
        assertThat(updated.getString("status"), is("PUBLISHED"));
        assertThat(updated.containsKey("previousStatus"), is(false));
        assertThat(updated.get("startAt"), is(JsonValue.NULL));
        assertThat(updated.getString("endAt"), is(end.replace("Z", ".000Z")));
        assertThat(updated.getJsonArray("changed").getValuesAs(JsonString::getString), contains("title", "imageAlt", "endDate"));
        assertThat("no content", updated.containsKey("title"), is(false));
    }

    @Test
    void aWriteThatChangesTheStatusToIsOnlyThatStatussEventAndADraftsChangesAreNone() throws Exception {
        Project project = projectHearingEverything();
        String draft = admin.created("/projects/" + project.id() + "/notifications",
                                     "{\"message\":\"Hi\",\"status\":\"DRAFT\"}").getString("id");
        assertThat(admin.call(Method.PATCH, "/notifications/" + draft, "{\"title\":\"Draft\"}").status(), is(200));
        String end = herald.clock().instant().plus(Duration.ofDays(3)).toString();
        assertThat(admin.call(Method.PATCH, "/notifications/" + draft, "{\"status\":\"PUBLISHED\",\"endDate\":\""
                + end + "\"}").status(), is(200));

        assertThat(types(draft), contains("notification.created", "notification.published"));
        assertThat(data(draft, 2).getString("endAt"), is(end.replace("Z", ".000Z")));
        assertThat(data(draft, 2).containsKey("changed"), is(false));
    }

    private static List<String> types(String notificationId) throws Exception {
        return strings(herald, "SELECT event_type FROM outbox_events WHERE source = ? ORDER BY sequence",
                       "notification:" + notificationId);
    }

    private static List<String> sequences(String notificationId) throws Exception {
        return strings(herald, "SELECT CAST(sequence AS CHAR) FROM outbox_events WHERE source = ? ORDER BY sequence",
                       "notification:" + notificationId);
    }

    private static JsonObject data(String notificationId, int sequence) throws Exception {
        List<String> payloads = strings(herald, "SELECT payload FROM outbox_events WHERE source = ? AND sequence = ?",
                                        "notification:" + notificationId, sequence);
        assertThat("event " + sequence + " of " + notificationId, payloads.size(), is(1));
        return Json.parseObject(payloads.get(0).getBytes(StandardCharsets.UTF_8)).orElseThrow().getJsonObject("data");
    }
}
