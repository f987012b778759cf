package dev.herald.tracking;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.admin.Ids;
import dev.herald.api.Json;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.KeepAliveConnection;
import dev.herald.webhook.EndpointStore;
import dev.herald.webhook.WebhookEndpoint;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * Interactions as webhook events (docs/webhooks.md#events-and-payloads): in the transaction of their group commit,
 * many in one event, each interaction in exactly one event; none where no endpoint wants them.
 */
abstract class InteractionEventsContract extends HeraldServerTest {

    private static final int CLIENTS = 16;
    private static final int REQUESTS_EACH = 25;

    private final URI uri;

    InteractionEventsContract(URI uri) {
        this.uri = uri;
    }

    @Test
    void manyInteractionsBecomeFewEventsEachInteractionInExactlyOne() throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.click");
        Notification notification = herald.notification(project).save();

        List<Integer> statuses = concurrently(notification, "click");

        int total = CLIENTS * REQUESTS_EACH;
        assertThat(statuses, everyItem(is(204)));
        List<String> ids = strings("SELECT id FROM outbox_events WHERE project_id = ?", project.id());
        assertThat("nothing sealed while the events are open", strings("SELECT id FROM outbox_events"
                + " WHERE project_id = ? AND (payload IS NOT NULL OR sealed_at IS NOT NULL)", project.id()).size(),
                   is(0));
        List<String> payloads = ids.stream().map(id -> herald.services().outbox().seal(id)).toList();
        assertThat("sealed once: the same payload again", ids.stream().map(id -> herald.services().outbox().seal(id))
                .toList(), is(payloads));
        List<Integer> seen = new ArrayList<>();
        for (String payload : payloads) {
            JsonObject event = Json.parseObject(payload.getBytes(StandardCharsets.UTF_8)).orElseThrow();
            assertThat("written as text, the very text JSON-P writes", Json.write(event), is(payload));
            assertThat(event.getString("type"), is("interaction.click"));
            JsonObject data = event.getJsonObject("data");
            assertThat(data.getInt("count"), is(data.getJsonArray("interactions").size()));
            for (JsonValue interaction : data.getJsonArray("interactions")) {
                seen.add(interaction.asJsonObject().getJsonObject("metadata").getInt("n"));
            }
        }
        assertThat("every interaction once", seen.stream().sorted().toList(),
                   is(java.util.stream.IntStream.range(0, total).boxed().toList()));
        assertThat("at most an event per writer lane in one window", payloads.size(), lessThanOrEqualTo(maxEvents()));
        assertThat("sealed, each event's payload never copied out of its items", strings("SELECT id FROM outbox_events"
                + " WHERE project_id = ? AND payload IS NULL AND sealed_at IS NOT NULL", project.id()).stream()
                .sorted().toList(), is(ids.stream().sorted().toList()));
        assertThat("every event sent from its items", strings("SELECT DISTINCT i.event_id FROM outbox_event_items i"
                + " JOIN outbox_events e ON e.id = i.event_id WHERE e.project_id = ?", project.id()).size(),
                   is(ids.size()));
    }

    @Test
    void interactionsNoEndpointWantsWriteNoEvent() throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.conversion");
        Notification notification = herald.notification(project).save();
        assertThat(concurrently(notification, "click"), everyItem(is(204)));
        assertThat(strings("SELECT id FROM outbox_events WHERE project_id = ?", project.id()).size(), is(0));
    }

    /**
     * The delivery worker seals an event while its lane still counts it open (a batch held up longer than the seal's
     * grace, by a failover): the lane's next batch goes in a new event, never in the sealed one, where it would
     * never be sent. MariaDB's script stops at its guard and the batch is written again; H2 checks the count.
     */
    @Test
    void aBatchAddingToAnEventSealedMeanwhileGoesInANewEvent() throws Exception {
        assertThat("each interaction in one event, the second in a new one",
                   twoClicksSealingTheFirstEventBetween(open -> herald.services().outbox().seal(open)),
                   is(List.of(List.of(0), List.of(1))));
    }

    /**
     * An event that a lane of the version before opened (migration 29: it names no {@code items_kept}, so FALSE) is
     * sealed as that version seals: its payload written and its items deleted, since that lane's guard looks at the
     * payload alone and would otherwise add to an event already sent. Its next batch goes in a new event.
     */
    @Test
    void anEventOfTheVersionBeforeIsSealedAsThatVersionSealsIt() throws Exception {
        List<List<Integer>> events = twoClicksSealingTheFirstEventBetween(open -> {
            execute("UPDATE outbox_events SET items_kept = FALSE WHERE id = '" + open + "'");
            String payload = herald.services().outbox().seal(open);
            assertThat(strings("SELECT payload FROM outbox_events WHERE id = ?", open), is(List.of(payload)));
            assertThat(strings("SELECT event_id FROM outbox_event_items WHERE event_id = ?", open).size(), is(0));
        });
        assertThat("each interaction in one event, the second in a new one", events,
                   is(List.of(List.of(0), List.of(1))));
    }

    /**
     * What the events of a project hold ({@code n} of each interaction), once a click, {@code sealing} its event and a
     * second click on the same connection are done.
     */
    private List<List<Integer>> twoClicksSealingTheFirstEventBetween(Sealing sealing) throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.click");
        Notification notification = herald.notification(project).save();
        try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
            assertThat(track(connection, notification, "click", 0), is(204));
            List<String> open = strings("SELECT id FROM outbox_events WHERE project_id = ?", project.id());
            assertThat(open.size(), is(1));
            sealing.seal(open.get(0));
            assertThat(track(connection, notification, "click", 1), is(204));
        }
        List<List<Integer>> events = new ArrayList<>();
        for (String id : strings("SELECT id FROM outbox_events WHERE project_id = ? ORDER BY sequence", project.id())) {
            JsonObject event = Json.parseObject(herald.services().outbox().seal(id).getBytes(StandardCharsets.UTF_8))
                    .orElseThrow();
            events.add(event.getJsonObject("data").getJsonArray("interactions").stream()
                               .map(one -> one.asJsonObject().getJsonObject("metadata").getInt("n")).toList());
        }
        return events;
    }

    private interface Sealing {
        void seal(String eventId) throws Exception;
    }

    /** The interactions' insert fails after their events were written: the batch and its events roll back together. */
    @Test
    void aFailedBatchLeavesNoEvent() throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.click");
        Notification notification = herald.notification(project).save();
        execute("ALTER TABLE interactions RENAME TO interactions_away");
        try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
            assertThat(track(connection, notification, "click", 0), is(500));
        } finally {
            execute("ALTER TABLE interactions_away RENAME TO interactions");
        }
        assertThat(strings("SELECT id FROM outbox_events WHERE project_id = ?", project.id()).size(), is(0));
        assertThat(strings("SELECT event_id FROM webhook_deliveries WHERE project_id = ?", project.id()).size(),
                   is(0));
    }

    /** The writer lanes (tracking.batch.max-in-flight): the clock stands still, so one window holds every batch. */
    int maxEvents() {
        return 8;
    }

    private static WebhookEndpoint endpoint(Project project, String... types) {
        long now = herald.clock().millis();
        WebhookEndpoint endpoint = new WebhookEndpoint(Ids.newId(), project.id(), "https://receiver.example/hook",
                null, List.of(types), "whsec_dGVzdA==", null, null, true, null, null, now, now);
        new EndpointStore(herald.serving().client(), herald.services().changes())
                .create(endpoint, herald.fixture("webhook.created", project.id(), endpoint.id()));
        return endpoint;
    }

    private static int track(KeepAliveConnection connection, Notification notification, String type, int n)
            throws IOException {
        return connection.postJson("/api/v1/public/track/" + notification.id() + "/enhanced",
                                   "{\"type\":\"" + type + "\",\"metadata\":{\"n\":" + n + "}}").status();
    }

    private List<Integer> concurrently(Notification notification, String type) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<List<Integer>>> futures = new ArrayList<>();
            for (int client = 0; client < CLIENTS; client++) {
                int first = client * REQUESTS_EACH;
                futures.add(executor.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
                        for (int i = 0; i < REQUESTS_EACH; i++) {
                            statuses.add(track(connection, notification, type, first + i));
                        }
                    }
                    return statuses;
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<List<Integer>> future : futures) {
                statuses.addAll(future.get());
            }
            return statuses;
        } finally {
            executor.shutdownNow();
        }
    }

    private static List<String> strings(String sql, String parameter) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = herald.database().connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
