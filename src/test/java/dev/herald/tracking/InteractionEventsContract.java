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
import java.util.Comparator;
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
        List<String> keyed = new ArrayList<>();
        for (String payload : payloads) {
            JsonObject event = Json.parseObject(payload.getBytes(StandardCharsets.UTF_8)).orElseThrow();
            assertThat("written as text, the very text JSON-P writes", Json.write(event), is(payload));
            assertThat(event.getString("type"), is("interaction.click"));
            JsonObject data = event.getJsonObject("data");
            assertThat(data.getInt("count"), is(data.getJsonArray("interactions").size()));
            for (JsonValue interaction : data.getJsonArray("interactions")) {
                seen.add(interaction.asJsonObject().getJsonObject("metadata").getInt("n"));
                keyed.add(interaction.asJsonObject().getJsonNumber("id").longValue() + " "
                          + Json.write(interaction.asJsonObject().getJsonObject("metadata")));
            }
        }
        assertThat("each item keyed by its row's id, the export's", keyed.stream().sorted().toList(),
                   is(strings("SELECT CONCAT(seq, ' ', metadata) FROM interactions WHERE project_id = ?",
                              project.id()).stream().sorted().toList()));
        assertThat("every interaction once", seen.stream().sorted().toList(),
                   is(java.util.stream.IntStream.range(0, total).boxed().toList()));
        assertThat("at most an event per writer lane in one window", payloads.size(), lessThanOrEqualTo(maxEvents()));
        assertThat("sealed, each event's payload never copied out of its items", strings("SELECT id FROM outbox_events"
                + " WHERE project_id = ? AND payload IS NULL AND sealed_at IS NOT NULL", project.id()).stream()
                .sorted().toList(), is(ids.stream().sorted().toList()));
        if (namesItsRows()) {
            assertThat("no interaction copied", strings("SELECT i.event_id FROM outbox_event_items i"
                    + " JOIN outbox_events e ON e.id = i.event_id WHERE e.project_id = ?", project.id()).size(), is(0));
            assertThat("every event names its rows", strings("SELECT DISTINCT r.event_id FROM outbox_event_ranges r"
                    + " JOIN outbox_events e ON e.id = r.event_id WHERE e.project_id = ? AND e.from_interactions = TRUE",
                    project.id()).size(), is(ids.size()));
            assertThat("every row marked with the batch whose event took it", strings("SELECT seq FROM interactions"
                    + " WHERE project_id = ? AND event_batch IS NOT NULL", project.id()).size(), is(total));
        } else {
            assertThat("every event sent from its items", strings("SELECT DISTINCT i.event_id FROM outbox_event_items i"
                    + " JOIN outbox_events e ON e.id = i.event_id WHERE e.project_id = ?", project.id()).size(),
                       is(ids.size()));
            assertThat("no row marked", strings("SELECT seq FROM interactions WHERE project_id = ?"
                    + " AND event_batch IS NOT NULL", project.id()).size(), is(0));
        }
    }

    /**
     * A range takes its batch's rows of the event's project and type from its first seq, past those an earlier part of
     * the batch took, and no other: rows of another batch, of none (no endpoint wanted them), of another type or
     * project, interleaved in its span as Galera's interleaved auto-increments and several lanes at once leave them.
     */
    @Test
    void anEventOfRangesTakesItsLanesRowsAndNoOthers() throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.click");
        long base = longValue("SELECT COALESCE(MAX(seq), 0) + 1000 FROM interactions");
        Object[][] rows = {
            {0, 7, project.id(), "click"}, {1, 8, project.id(), "click"}, {2, null, project.id(), "click"},
            {3, 7, project.id(), "impression"}, {4, 7, "another", "click"}, {5, 7, project.id(), "click"},
            {6, 7, project.id(), "click"}, {7, 9, project.id(), "click"}, {8, 10, project.id(), "click"},
            {9, 11, project.id(), "click"}};
        for (Object[] row : rows) {
            execute("INSERT INTO interactions (seq, notification_id, project_id, type, occurred_at, received_at,"
                    + " endpoint, metadata, locale, event_batch) VALUES (" + (base + (int) row[0]) + ", 'n', '" + row[2]
                    + "', '" + row[3] + "', 0, 0, 'enhanced', '{\"n\":" + row[0] + "}', NULL, " + row[1] + ")");
        }
        String event = "msg_ranges" + base;
        execute("INSERT INTO outbox_events (id, project_id, event_type, source, sequence, payload, item_count,"
                + " created_at, items_kept, from_interactions) VALUES ('" + event + "', '" + project.id()
                + "', 'interaction.click', 'interactions:7', 1, NULL, 4, 0, TRUE, TRUE)");
        // Batch 7, whose first part went to an earlier event: past its first row, two; then batches 9 and 10.
        execute("INSERT INTO outbox_event_ranges (event_id, position, first_seq, batch, skipped, item_count) VALUES ('"
                + event + "', 0, " + base + ", 7, 1, 2), ('" + event + "', 2, " + (base + 7) + ", 9, 0, 1), ('" + event
                + "', 3, " + (base + 8) + ", 10, 0, 1)");
        String sealed = herald.services().outbox().seal(event);
        JsonObject payload = Json.parseObject(sealed.getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertThat(payload.getJsonObject("data").getJsonArray("interactions").stream()
                           .map(one -> one.asJsonObject().getJsonObject("metadata").getInt("n")).toList(),
                   is(List.of(5, 6, 7, 8)));
        assertThat(payload.getJsonObject("data").getInt("count"), is(4));
        // Its rows end where its seal saw the last (its empty range keeps it): a later attempt reads no further.
        assertThat(longValue("SELECT first_seq FROM outbox_event_ranges WHERE event_id = '" + event
                + "' AND item_count = 0"), is(base + 9));
        assertThat("every attempt sends the same bytes", herald.services().outbox().seal(event), is(sealed));

        // The raw interactions' retention deleted one: the event says so rather than sending fewer than it counts, or
        // a row of a later batch of the same lane in its stead.
        execute("DELETE FROM interactions WHERE seq = " + (base + 7));
        String again = "msg_gone" + base;
        execute("INSERT INTO outbox_events (id, project_id, event_type, source, sequence, payload, item_count,"
                + " created_at, items_kept, from_interactions) VALUES ('" + again + "', '" + project.id()
                + "', 'interaction.click', 'interactions:7', 2, NULL, 1, 0, TRUE, TRUE)");
        execute("INSERT INTO outbox_event_ranges (event_id, position, first_seq, batch, skipped, item_count) VALUES ('"
                + again + "', 0, " + (base + 7) + ", 9, 0, 1)");
        IllegalStateException gone = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> herald.services().outbox().seal(again));
        assertThat(gone.getMessage().contains("0 of 1 found (tracking.retention.raw-days deleted them)"), is(true));
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
     * payload alone and would otherwise add to an event already sent. Its next batch goes in a new event. (Lanes of
     * this version that copy items are such lanes too; a group commit's lanes name their rows, whose events that
     * version cannot seal.)
     */
    @Test
    void anEventOfTheVersionBeforeIsSealedAsThatVersionSealsIt() throws Exception {
        if (namesItsRows()) {
            Project project = herald.project();
            String open = "msg_v29" + project.id();
            execute("INSERT INTO outbox_events (id, project_id, event_type, source, sequence, payload, item_count,"
                    + " created_at) VALUES ('" + open + "', '" + project.id() + "', 'interaction.click',"
                    + " 'interactions:5', 1, NULL, 1, 0)");
            execute("INSERT INTO outbox_event_items (event_id, position, item) VALUES ('" + open
                    + "', 0, '{\"metadata\":{\"n\":0}}')");
            sealedAsTheVersionBeforeSeals(open);
            return;
        }
        List<List<Integer>> events = twoClicksSealingTheFirstEventBetween(open -> {
            execute("UPDATE outbox_events SET items_kept = FALSE WHERE id = '" + open + "'");
            sealedAsTheVersionBeforeSeals(open);
        });
        assertThat("each interaction in one event, the second in a new one", events,
                   is(List.of(List.of(0), List.of(1))));
    }

    private static void sealedAsTheVersionBeforeSeals(String open) throws SQLException {
        String payload = herald.services().outbox().seal(open);
        assertThat(strings("SELECT payload FROM outbox_events WHERE id = ?", open), is(List.of(payload)));
        assertThat(strings("SELECT event_id FROM outbox_event_items WHERE event_id = ?", open).size(), is(0));
        assertThat(Json.parseObject(payload.getBytes(StandardCharsets.UTF_8)).orElseThrow().getJsonObject("data")
                           .getJsonArray("interactions").getJsonObject(0).getJsonObject("metadata").getInt("n"), is(0));
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
        // Each writer connection is a lane of its own (a source, its sequence from 1): the two clicks' events may be
        // in two lanes, whose sequences say nothing of one against the other. Compared by what they hold.
        events.sort(Comparator.comparing(held -> held.isEmpty() ? -1 : held.getFirst()));
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

    /** Whether its events name their rows (a group commit's lanes) or copy them (tracking without batching). */
    boolean namesItsRows() {
        return true;
    }

    /** The writer lanes (tracking.batch.max-in-flight): the clock stands still, so one window holds every batch. */
    int maxEvents() {
        return 8;
    }

    /** An interaction sent again with its eventId is answered 204 and goes to the endpoints once, like its row. */
    @Test
    void anInteractionSentAgainWithItsEventIdIsInOneEventOnce() throws Exception {
        Project project = herald.project();
        endpoint(project, "interaction.click");
        Notification notification = herald.notification(project).save();
        try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
            for (int copy = 0; copy < 3; copy++) {
                assertThat(connection.postJson("/api/v1/public/track/" + notification.id() + "/enhanced",
                        "{\"type\":\"click\",\"eventId\":\"once\",\"metadata\":{\"n\":" + copy + "}}").status(),
                           is(204));
            }
        }
        List<Integer> seen = new ArrayList<>();
        for (String id : strings("SELECT id FROM outbox_events WHERE project_id = ?", project.id())) {
            String payload = herald.services().outbox().seal(id);
            JsonObject event = Json.parseObject(payload.getBytes(StandardCharsets.UTF_8)).orElseThrow();
            for (JsonValue interaction : event.getJsonObject("data").getJsonArray("interactions")) {
                seen.add(interaction.asJsonObject().getJsonObject("metadata").getInt("n"));
            }
        }
        assertThat("the first copy, once", seen, is(List.of(0)));
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

    private static long longValue(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
