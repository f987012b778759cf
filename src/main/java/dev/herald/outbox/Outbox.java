package dev.herald.outbox;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.changes.ChangeLog;
import dev.herald.storage.Rows;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

import jakarta.json.JsonObject;

/**
 * Writes events in the transaction of the change that causes them (docs/webhooks.md#events-and-payloads): a rolled
 * back change leaves no event, a committed one its event and a delivery row per endpoint that wants it. Notification
 * writes call {@link #write} with their DB Client transaction; interactions and user states {@link #append} copies
 * of their items with their JDBC connection, or, from a group commit, {@link #appendRows} ranges naming the rows.
 *
 * <p>In order: is the type wanted at all ({@link Subscriptions}, from memory); the deliveries, one per enabled
 * endpoint of the project that wants it (none: nothing more is written); the source's next sequence number; the
 * event with its payload, the exact bytes every attempt sends.
 */
public final class Outbox {

    /** The most items in one event: a payload of interactions stays below some 300 KB (their metadata aside). */
    public static final int MAX_ITEMS = 1000;
    /**
     * The most characters of items in one event, about 256 KiB: a sender holds an event's body in memory, and
     * {@code webhooks.senders} of them at once must fit beside the rest (interactions carry up to 16 KiB of metadata).
     */
    public static final int MAX_EVENT_CHARACTERS = 256 * 1024;
    /** After its window, how long an event waits before it is sealed: time for a lane's last batch to commit. */
    static final Duration SEAL_GRACE = Duration.ofSeconds(2);
    /** Open events remembered at most (lanes × projects × types); past it they are forgotten, and others opened. */
    private static final int MAX_OPEN_EVENTS = 100_000;

    private final ServingDatabase database;
    private final Subscriptions subscriptions;
    private final Duration window;
    private final Clock clock;
    private final Map<OpenKey, OpenEvent> openEvents = new ConcurrentHashMap<>();

    /**
     * @param window how long an event of interactions takes more ({@code webhooks.interaction-window})
     * @param cached whether the subscriptions are kept in memory ({@code feed.cache.enabled}); off, every event asks
     *               the database
     */
    public Outbox(ServingDatabase database, ChangeLog changes, boolean cached, Duration window, Clock clock) {
        this.database = database;
        this.window = window;
        this.subscriptions = new Subscriptions(changes, cached);
        this.clock = clock;
        changes.listen(subscriptions);
    }

    /**
     * The cheap check, before anything is built: false only when no enabled endpoint of the project wants it. In the
     * caller's transaction, whose connection reads what memory does not hold.
     */
    public boolean wants(Connection connection, String projectId, EventType type) throws SQLException {
        return subscriptions.wants(OutboxSql.of(connection, database::statement), projectId, type);
    }

    /** The same outside a transaction (a pass deciding whether to read what it would send). */
    public boolean wants(String projectId, EventType type) {
        try {
            return subscriptions.wants(OutboxSql.of(database.client().execute()), projectId, type);
        } catch (SQLException e) {
            throw new IllegalStateException("The DB Client does not throw SQLException", e);
        }
    }

    /** In a management write's transaction. @return whether an endpoint wanted it */
    public boolean write(DbExecute transaction, Event event) {
        try {
            return write(OutboxSql.of(transaction), event);
        } catch (SQLException e) {
            throw new IllegalStateException("The DB Client does not throw SQLException", e);
        }
    }

    private boolean write(OutboxSql sql, Event event) throws SQLException {
        if (!subscriptions.wants(sql, event.projectId(), event.type())) {
            return false;
        }
        long now = clock.millis();
        String id = event.id() == null ? newId() : event.id();
        long deliveries = sql.update("outbox-insert-deliveries", id, now, now, event.projectId(),
                                     event.type().wireName());
        if (deliveries == 0) {
            return false;
        }
        long sequence = nextSequence(sql, event.source());
        JsonObject payload = Json.builders().createObjectBuilder()
                .add("type", event.type().wireName())
                .add("timestamp", Timestamps.format(now))
                .add("source", event.source())
                .add("sequence", sequence)
                .add("data", event.data().get())
                .build();
        sql.update("outbox-insert-event", id, event.projectId(), event.type().wireName(), event.source(), sequence,
                   Json.write(payload), 0, now, false, false);
        return true;
    }

    /**
     * Adds items (interactions) to the source's open event of that project and type, in a group commit's transaction,
     * or opens one: an event stays open for {@code webhooks.interaction-window}, {@value #MAX_ITEMS} items or
     * {@value #MAX_EVENT_CHARACTERS} characters of them, so that
     * a stream of small batches becomes one event a window per lane, not one per batch. The delivery worker
     * {@linkplain #seal seals} it after the window; its deliveries are due then.
     *
     * @param source one writer lane's: only its transactions add to its events (a second adding at once finds the
     *               count changed and opens another)
     * @return whether an endpoint wanted them
     */
    public boolean append(Connection connection, String source, String projectId, EventType type,
                          List<String> items) throws SQLException {
        if (items.isEmpty() || !wants(connection, projectId, type)) {
            return false;
        }
        long[] characters = new long[items.size()];
        for (int i = 0; i < characters.length; i++) {
            characters[i] = items.get(i).length();
        }
        boolean wanted = false;
        for (Part part : parts(characters)) {
            wanted |= appendPart(connection, source, projectId, type, items.subList(part.from(), part.to()),
                                 part.characters());
        }
        return wanted;
    }

    /**
     * A batch's items cut into parts that each fit in one event: at most {@value #MAX_ITEMS} items and
     * {@value #MAX_EVENT_CHARACTERS} characters (the bound that keeps a sender's memory small); an item alone past it is
     * a part of its own.
     */
    private static List<Part> parts(long[] characters) {
        List<Part> parts = new ArrayList<>(1);
        int from = 0;
        while (from < characters.length) {
            int to = from;
            long bytes = 0;
            while (to < characters.length && to - from < MAX_ITEMS
                    && (to == from || bytes + characters[to] <= MAX_EVENT_CHARACTERS)) {
                bytes += characters[to];
                to++;
            }
            parts.add(new Part(from, to, bytes));
            from = to;
        }
        return parts;
    }

    private record Part(int from, int to, long characters) {
    }

    private boolean appendPart(Connection connection, String source, String projectId, EventType type,
                               List<String> items, long characters) throws SQLException {
        Placed placed = place(connection, source, projectId, type, items.size(), characters, false);
        if (placed == null) {
            return false;
        }
        insertItems(connection, placed.eventId(), placed.position(), items);
        return true;
    }

    /**
     * Part of a batch's interactions in an event that names their rows (migration 30): of the batch's rows of the
     * event's project and type (those carrying its mark), {@code count} after the first {@code skipped}, the event's
     * items from {@code position} on.
     */
    public record Range(String eventId, int position, int skipped, int count) {
    }

    /**
     * Adds a batch's interactions of one project and type to the source's open event, or opens one, as {@link #append}
     * does, without copying them: the event names their rows ({@link Range}), which the caller marks with the
     * batch's mark and names after its insert ({@link #rangesAfterInsert}, {@link #insertRanges}). Adding to an open
     * event runs no statement: the range's key is the guard against a seal meanwhile ({@link #seal}).
     *
     * @param characters each interaction's characters in the event at most ({@link InteractionItems#bound}), in the
     *                   order of the rows
     * @return the ranges to write, none when no endpoint wants them
     */
    public List<Range> appendRows(Connection connection, String source, String projectId, EventType type,
                                  long[] characters) throws SQLException {
        if (characters.length == 0 || !wants(connection, projectId, type)) {
            return List.of();
        }
        List<Range> ranges = new ArrayList<>(1);
        for (Part part : parts(characters)) {
            int count = part.to() - part.from();
            Placed placed = place(connection, source, projectId, type, count, part.characters(), true);
            if (placed != null) {
                ranges.add(new Range(placed.eventId(), placed.position(), part.from(), count));
            }
        }
        return ranges;
    }

    /**
     * The ranges' rows for a script, right after the interactions' insert, whose first seq they take.
     *
     * @param batch the mark the batch's rows that events take carry ({@code interactions.event_batch})
     */
    public void rangesAfterInsert(Deferred after, List<Range> ranges, long batch) {
        for (Range range : ranges) {
            after.add(database.statement("outbox-insert-range-at-last-insert"), range.eventId(), range.position(),
                      batch, range.skipped(), range.count());
        }
    }

    /** The ranges' rows, once the interactions' insert gave its first row {@code firstSeq}. */
    public void insertRanges(Connection connection, List<Range> ranges, long firstSeq, long batch)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(database.statement("outbox-insert-range"))) {
            for (Range range : ranges) {
                insert.setString(1, range.eventId());
                insert.setInt(2, range.position());
                insert.setLong(3, firstSeq);
                insert.setLong(4, batch);
                insert.setInt(5, range.skipped());
                insert.setInt(6, range.count());
                insert.executeUpdate();
            }
        }
    }

    /**
     * The source's open event of that project and type, counting {@code count} more, or a new one: where the items go,
     * or null when no enabled endpoint wants them.
     */
    private Placed place(Connection connection, String source, String projectId, EventType type, int count,
                         long characters, boolean fromInteractions) throws SQLException {
        OutboxSql sql = OutboxSql.of(connection, database::statement);
        long now = clock.millis();
        OpenKey key = new OpenKey(source, projectId, type);
        OpenEvent open = openEvents.get(key);
        if (open != null && now < open.openedAt() + window.toMillis()
                && open.count() + count <= MAX_ITEMS
                && open.characters() + characters <= MAX_EVENT_CHARACTERS) {
            if (fromInteractions) {
                // No statement of its own: its range's key is the guard (sealRanges).
                appended(key, open, count, characters);
                return new Placed(open.eventId(), open.count());
            }
            // Sealed meanwhile, or counted otherwise than memory says (another transaction of the lane added): none.
            if (sql.update("outbox-append-items", count, open.eventId(), open.count()) == 1) {
                appended(key, open, count, characters);
                return new Placed(open.eventId(), open.count());
            }
        }
        String id = newId();
        long due = now + window.toMillis() + SEAL_GRACE.toMillis();
        if (sql.update("outbox-insert-deliveries", id, due, now, projectId, type.wireName()) == 0) {
            return null;
        }
        long sequence = nextSequence(sql, source);
        sql.update("outbox-insert-event", id, projectId, type.wireName(), source, sequence, null, count, now, true,
                   fromInteractions);
        if (openEvents.size() >= MAX_OPEN_EVENTS) {
            openEvents.clear();
        }
        openEvents.put(key, new OpenEvent(id, now, count, characters));
        return new Placed(id, 0);
    }

    private record Placed(String eventId, int position) {
    }

    private void appended(OpenKey key, OpenEvent open, int count, long characters) {
        openEvents.put(key, new OpenEvent(open.eventId(), open.openedAt(), open.count() + count,
                                          open.characters() + characters));
    }

    /**
     * Forgets the open events of a source whose transaction failed: memory may count items that were rolled back,
     * and the source's next batch opens new events rather than failing at their guard again.
     */
    public void forgetSource(String source) {
        openEvents.keySet().removeIf(key -> key.source().equals(source));
    }

    /**
     * Statements for a group commit's script, with their parameters in order: the ranges of its events, right after
     * its insert ({@link #rangesAfterInsert}).
     */
    public static final class Deferred {
        private final StringBuilder sql = new StringBuilder();
        private final List<Object> parameters = new ArrayList<>();

        void add(String statement, Object... values) {
            sql.append(statement).append(";\n");
            Collections.addAll(parameters, values);
        }

        /** The statements, each ended by a semicolon and a new line; empty when there are none. */
        public String sql() {
            return sql.toString();
        }

        /** Binds the parameters from position {@code from}; returns the next position. */
        public int bind(PreparedStatement statement, int from) throws SQLException {
            int next = from;
            for (Object parameter : parameters) {
                statement.setObject(next++, parameter);
            }
            return next;
        }
    }

    /**
     * One row for the batch's items, their JSON objects joined by commas, at the position of its first: a row per
     * interaction doubled the rows a tracking commit writes, and tracking with an endpoint ran at 0.71 x its rate
     * without one (bench/webhooks.sh).
     */
    private void insertItems(Connection connection, String eventId, int first, List<String> items)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(database.statement("outbox-insert-items"))) {
            insert.setString(1, eventId);
            insert.setInt(2, first);
            insert.setString(3, String.join(",", items));
            insert.executeUpdate();
        }
    }

    /**
     * The payload of an event, sealing it first if it is still open: its items read in order under the event's lock
     * (a lane that adds meanwhile waits for the lock, then finds it sealed and opens another; on Galera one of the two
     * loses certification and runs again). An event that keeps its items is sent from them at every attempt, the same
     * bytes each time, and only marked sealed: its payload written and its items deleted, as the version before
     * sealed, cost the database some 200 bytes an interaction received, logged and written again, and nearly doubled
     * its CPU per interaction with an endpoint (bench/webhooks.sh, docs/performance.md). An event of the version
     * before (migration 29) is sealed as that version seals it, since its lanes' guard looks at the payload alone. An
     * event of ranges (migration 30) is sealed under its ranges' lock, then read from its interaction rows.
     *
     * @throws IllegalStateException when the event is gone (retention), or its items or interactions are
     */
    public String seal(String eventId) {
        AtomicReference<String> sealed = new AtomicReference<>();
        AtomicReference<LockedRanges> ranges = new AtomicReference<>();
        Transactions.run(database.client(), transaction -> {
            DbRow event = transaction.namedGet("outbox-select-open-event-for-update", eventId)
                    .orElseThrow(() -> new IllegalStateException("Event " + eventId + " is gone"));
            String payload = Rows.string(event, "payload");
            if (payload == null && Rows.bool(event, "from_interactions")) {
                ranges.set(sealRanges(transaction, eventId, event));
                return;
            }
            if (payload == null) {
                List<String> rows = transaction.namedQuery("outbox-select-event-items", eventId)
                        .map(row -> Rows.string(row, "item")).toList();
                if (rows.isEmpty() && Rows.longValue(event, "item_count") > 0) {
                    throw new IllegalStateException("Event " + eventId + "'s items are gone");
                }
                payload = sealedPayload(event, rows, Rows.longValue(event, "item_count"));
                if (!Rows.bool(event, "items_kept")) {
                    transaction.namedUpdate("outbox-seal-event", payload, eventId);
                    transaction.namedDelete("outbox-delete-event-items", eventId);
                } else if (Rows.nullableLong(event, "sealed_at") == null) {
                    transaction.namedUpdate("outbox-mark-sealed", clock.millis(), eventId);
                }
            }
            sealed.set(payload);
        });
        return ranges.get() == null ? sealed.get() : interactionsPayload(eventId, ranges.get());
    }

    /**
     * Seals an event of ranges: its ranges read under their lock; if still open, an empty range written at the next
     * position, the one its lane's next batch would take, which that batch then fails on and is written again in a
     * new event (on Galera, one of the two loses certification). So a lane's batch adds its range and nothing else,
     * where a guarded update of the event's row a batch cost the database a third of what an endpoint added
     * (bench/webhooks.sh, docs/performance.md). The empty range keeps the highest seq then: every batch of the
     * event committed before its ranges could be locked, so its rows end there, and reading them never goes past it.
     */
    private LockedRanges sealRanges(DbExecute transaction, String eventId, DbRow event) {
        List<StoredRange> ranges = transaction.namedQuery("outbox-select-event-ranges-for-update", eventId)
                .map(range -> new StoredRange(Rows.longValue(range, "first_seq"), Rows.longValue(range, "batch"),
                                              Rows.longValue(range, "skipped"), Rows.longValue(range, "item_count")))
                .toList();
        long count = 0;
        for (StoredRange range : ranges) {
            count += range.count();
        }
        if (Rows.nullableLong(event, "sealed_at") == null) {
            long lastSeq = transaction.namedGet("outbox-select-last-interaction-seq")
                    .map(row -> Rows.nullableLong(row, "last_seq")).orElse(0L);
            transaction.namedInsert("outbox-insert-range", eventId, count, lastSeq, 0L, 0L, 0L);
            transaction.namedUpdate("outbox-mark-sealed-counted", clock.millis(), count, eventId);
            ranges = new ArrayList<>(ranges);
            ranges.add(new StoredRange(lastSeq, 0L, 0L, 0L));
        }
        return new LockedRanges(event, ranges, count);
    }

    private record LockedRanges(DbRow event, List<StoredRange> ranges, long count) {
    }

    /**
     * The payload of a sealed event of ranges, its items read from its batches' interaction rows in one statement
     * through plain JDBC, by the primary key from its first range's seq to the end its seal kept: a statement a range
     * was as many statements as the lanes' inserts (bench/webhooks.sh), and through the DB Client's rows, reading them
     * took half of a sender's time (JFR).
     *
     * @throws IllegalStateException when fewer rows are found than its ranges count: the raw interactions' retention
     *                               ({@code tracking.retention.raw-days}) deleted them
     */
    private String interactionsPayload(String eventId, LockedRanges sealed) {
        String projectId = Rows.string(sealed.event(), "project_id");
        String eventType = Rows.string(sealed.event(), "event_type");
        String interactionType = eventType.substring(eventType.indexOf('.') + 1);
        EventRows wanted = new EventRows(sealed.ranges());
        if (wanted.marks().isEmpty()) {
            return sealedPayload(sealed.event(), List.of(), sealed.count());
        }
        StringBuilder items = new StringBuilder((int) Math.min(sealed.count() * 192, MAX_EVENT_CHARACTERS + 4096));
        int found = 0;
        String statement = database.statement("outbox-select-event-interactions")
                .replace("${marks}", "?" + ",?".repeat(wanted.marks().size() - 1));
        try (Connection connection = database.pool().connection();
             PreparedStatement select = connection.prepareStatement(statement)) {
            int parameter = 1;
            select.setLong(parameter++, wanted.firstSeq());
            select.setLong(parameter++, wanted.lastSeq());
            select.setString(parameter++, projectId);
            select.setString(parameter++, interactionType);
            for (long mark : wanted.marks()) {
                select.setLong(parameter++, mark);
            }
            select.setLong(parameter, wanted.rows());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    if (wanted.takes(rows.getLong(1))) {
                        // The row's seq is the export's id: read with the row, no statement of its own.
                        InteractionItems.append(found++ == 0 ? items : items.append(','), rows.getLong(2),
                                                rows.getString(3), rows.getString(4), rows.getLong(5),
                                                rows.getLong(6), rows.getString(7), rows.getString(8));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Event " + eventId + "'s interactions not read: " + e.getMessage(), e);
        }
        if (found != sealed.count()) {
            throw new IllegalStateException("Event " + eventId + "'s interactions are gone: " + found + " of "
                    + sealed.count() + " found (tracking.retention.raw-days deleted them)");
        }
        return sealedPayload(sealed.event(), found == 0 ? List.of() : List.of(items.toString()), sealed.count());
    }

    /**
     * The payload of an event of items, written as text around its items' rows (each a run of JSON objects that
     * JSON-P wrote, joined by commas): parsing them into a tree and writing it whole took most of a sender's time
     * with interactions flowing (bench/webhooks.sh, JFR). The text is what that writing gave: every part of it is
     * JSON-P's own output, and {@code OutboxEventsContract} checks the payload is a fixed point of parse and write.
     */
    private static String sealedPayload(DbRow event, List<String> rows, long count) {
        String type = Rows.string(event, "event_type");
        int characters = 256;
        for (String row : rows) {
            characters += row.length() + 1;
        }
        StringBuilder json = new StringBuilder(characters).append("{\"type\":");
        Json.appendString(json, type).append(",\"timestamp\":");
        Timestamps.appendQuoted(json, Rows.longValue(event, "created_at")).append(",\"source\":");
        Json.appendString(json, Rows.string(event, "source")).append(",\"sequence\":")
                .append(Rows.longValue(event, "sequence")).append(",\"data\":{\"projectId\":");
        Json.appendString(json, Rows.string(event, "project_id")).append(",\"count\":")
                .append(count)
                .append(EventType.USER_STATE.wireName().equals(type) ? ",\"states\":[" : ",\"interactions\":[");
        for (int i = 0; i < rows.size(); i++) {
            json.append(i == 0 ? "" : ",").append(rows.get(i));
        }
        return json.append("]}}").toString();
    }

    private static long nextSequence(OutboxSql sql, String source) throws SQLException {
        if (sql.update("outbox-advance-sequence", source) == 0) {
            sql.update("outbox-insert-sequence", source);
        }
        return sql.firstLong("outbox-select-sequence", "last_sequence", source).orElseThrow();
    }

    private record OpenKey(String source, String projectId, EventType type) {
    }

    private record OpenEvent(String eventId, long openedAt, int count, long characters) {
    }

    /** {@code msg_} and 128 random bits: unique, not secret (it is sent in the clear in every delivery). */
    static String newId() {
        ByteBuffer bytes = ByteBuffer.allocate(16);
        bytes.putLong(ThreadLocalRandom.current().nextLong()).putLong(ThreadLocalRandom.current().nextLong());
        return "msg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }
}
