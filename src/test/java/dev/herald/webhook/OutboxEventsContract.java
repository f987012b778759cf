package dev.herald.webhook;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;
import dev.herald.changes.Change;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.outbox.Event;
import dev.herald.outbox.EventType;
import dev.herald.outbox.Outbox;
import dev.herald.outbox.TimePassed;
import dev.herald.project.Project;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

import static dev.herald.webhook.WebhookTestSupport.count;
import static dev.herald.webhook.WebhookTestSupport.endpoint;
import static dev.herald.webhook.WebhookTestSupport.strings;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Events of a notification's life, in the transaction of the write that caused them (docs/webhooks.md). */
abstract class OutboxEventsContract {

    abstract TestDatabase database();

    @Test
    void aCreatedNotificationIsAnEventForTheEndpointThatWantsIt() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            WebhookEndpoint wants = endpoint(herald, project, "notification.created");
            endpoint(herald, project, "interaction.click");
            Notification notification = herald.notification(project).status(NotificationStatus.DRAFT).save();

            List<String> events = strings(herald, "SELECT id FROM outbox_events WHERE project_id = ?", project.id());
            assertThat(events.size(), is(1));
            assertThat(strings(herald, "SELECT endpoint_id FROM webhook_deliveries WHERE event_id = ?", events.get(0)),
                       contains(wants.id()));
            JsonObject payload = payload(herald, events.get(0));
            assertThat(payload.getString("type"), is("notification.created"));
            assertThat(payload.getString("source"), is("notification:" + notification.id()));
            assertThat(payload.getJsonNumber("sequence").longValue(), is(1L));
            assertThat(payload.getJsonObject("data").getString("notificationId"), is(notification.id()));
        }
    }

    @Test
    void noEndpointNoEventAtAll() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            endpoint(herald, project, "notification.deleted");
            herald.notification(project).save();
            assertThat(count(herald, "SELECT COUNT(*) FROM outbox_events WHERE project_id = ?", project.id()), is(0L));
        }
    }

    @Test
    void aWriteRolledBackLeavesNoEvent() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            endpoint(herald, project, "notification.created");
            Outbox outbox = herald.services().outbox();
            assertThrows(IllegalStateException.class, () -> herald.services().changes().write(
                    Change.ofProject(project.id()), transaction -> {
                        assertThat(outbox.write(transaction, Event.of(project.id(), EventType.NOTIFICATION_CREATED,
                                "notification:x", () -> JsonValue.EMPTY_JSON_OBJECT)), is(true));
                        throw new IllegalStateException("the write fails after its event");
                    }));
            assertThat(count(herald, "SELECT COUNT(*) FROM outbox_events WHERE project_id = ?", project.id()), is(0L));
            assertThat(count(herald, "SELECT COUNT(*) FROM webhook_deliveries WHERE project_id = ?", project.id()),
                       is(0L));
            assertThat(count(herald, "SELECT COUNT(*) FROM outbox_sequences WHERE source = ?", "notification:x"),
                       is(0L));
        }
    }

    @Test
    void aNotificationsEventsAreNumberedInOrderByItsSource() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            endpoint(herald, project, "notification.created", "notification.published", "notification.deleted");
            Notification notification = herald.notification(project).save();
            herald.services().notifications().delete(notification, (current, draft) -> { },
                    before -> herald.fixture("notification.deleted", project.id(), notification.id()));
            assertThat(strings(herald, "SELECT event_type FROM outbox_events WHERE source = ? ORDER BY sequence",
                               "notification:" + notification.id()),
                       contains("notification.created", "notification.published", "notification.deleted"));
            assertThat(strings(herald, "SELECT CAST(sequence AS CHAR) FROM outbox_events WHERE source = ?"
                               + " ORDER BY sequence", "notification:" + notification.id()), contains("1", "2", "3"));
        }
    }

    @Test
    void aStartAndAnEndThatPassedAreEventsWrittenOnceByEveryInstanceThatLooks() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            endpoint(herald, project, "notification.live", "notification.ended");
            java.time.Instant now = herald.clock().instant();
            Notification notification = herald.notification(project).start(now.plusSeconds(60))
                    .end(now.plusSeconds(120)).save();
            TimePassed one = new TimePassed(herald.serving().client(), herald.services().outbox(), herald.clock());
            TimePassed other = new TimePassed(herald.serving().client(), herald.services().outbox(), herald.clock());
            assertThat("nothing passed yet", one.pass(), is(0));
            herald.clock().advance(java.time.Duration.ofSeconds(61));
            assertThat(one.pass(), is(1));
            assertThat("the other instance finds it written", other.pass(), is(0));
            herald.clock().advance(java.time.Duration.ofSeconds(60));
            assertThat(other.pass() + one.pass(), is(1));
            assertThat(strings(herald, "SELECT event_type FROM outbox_events WHERE source = ? ORDER BY sequence",
                               "notification:" + notification.id()),
                       contains("notification.live", "notification.ended"));
        }
    }

    @Test
    void anEventOfInteractionsHoldsAtMostAQuarterMebibyteOfThem() throws Exception {
        try (TestHerald herald = TestHerald.start(database())) {
            Project project = herald.project();
            endpoint(herald, project, "interaction.click");
            String large = "{\"metadata\":\"" + "x".repeat(100_000) + "\"}";
            Outbox outbox = herald.services().outbox();
            dev.herald.storage.Transactions.run(herald.serving().pool(), connection -> outbox.append(connection,
                    "interactions:3", project.id(), EventType.INTERACTION_CLICK, List.of(large, large, large, large,
                            large)));
            assertThat(strings(herald, "SELECT CAST(item_count AS CHAR) FROM outbox_events WHERE project_id = ?"
                               + " ORDER BY sequence", project.id()), contains("2", "2", "1"));
        }
    }

    /**
     * A group commit asks which events a project's endpoints want on its own connection, in its transaction. It
     * asked the request pool, holding a writer's connection meanwhile: with that pool busy (requests, or every lane
     * asking at once after the change log's reset), the batch waited for it and failed, and its requests answered
     * 500 although the writer's connection served.
     */
    @Test
    void aBatchAsksWhatEndpointsWantOnItsOwnConnectionNotTheRequestPools() throws Exception {
        // The change log stays fresh while the pool is held: the types are asked, not assumed.
        try (TestHerald herald = TestHerald.start(database(), Map.of("db.connection.maximumPoolSize", "2",
                                                                     "feed.cache.max-staleness", "PT60S"))) {
            Project project = herald.project();
            endpoint(herald, project, "interaction.click");
            Outbox outbox = herald.services().outbox();
            List<Connection> held = new ArrayList<>();
            try (Connection writer = herald.database().connect()) {
                writer.setAutoCommit(false);
                held.add(herald.serving().pool().connection());
                held.add(herald.serving().pool().connection());
                assertThat(outbox.append(writer, "interactions:5", project.id(), EventType.INTERACTION_CLICK,
                                         List.of("{\"type\":\"click\"}")), is(true));
                writer.commit();
            } finally {
                for (Connection connection : held) {
                    connection.close();
                }
            }
            assertThat(strings(herald, "SELECT CAST(item_count AS CHAR) FROM outbox_events WHERE project_id = ?",
                               project.id()), contains("1"));
        }
    }

    static JsonObject payload(TestHerald herald, String eventId) throws Exception {
        String text = strings(herald, "SELECT payload FROM outbox_events WHERE id = ?", eventId).get(0);
        return Json.parseObject(text.getBytes(StandardCharsets.UTF_8)).orElseThrow();
    }
}
