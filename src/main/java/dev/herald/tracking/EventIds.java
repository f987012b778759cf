package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.storage.MultiRowSql;
import dev.herald.storage.ServingDatabase;

/**
 * The event ids of tracked interactions, their clients' idempotency keys (migration 32; docs/api.md, Retrying a
 * tracking request): an interaction whose project has stored one with its id is answered 204 and not stored again.
 *
 * <p>In a batch's transaction: {@link #unseen} drops the interactions whose id the batch repeats, and the batch inserts
 * the ids it keeps ({@link #insertSql}) beside its rows. Where an id is there already (a repeat, or a copy another lane,
 * instance or Galera node committed first), the primary key fails the transaction, which is rolled back and written
 * again (ExactlyOnceCommit, Transactions); that attempt, and every later one of the same batch, looks the batch's
 * ids up first (one statement for the batch) and drops those stored. So a batch without ids runs exactly the
 * statements it ran before, and one with fresh ids only their insert: looking every batch's ids up took a round
 * trip a batch (docs/performance.md, Event ids), while a repeat, which only a retry sends, costs its batch one
 * attempt more. Once a repeat of a project is found, its batches look their ids up first for a while: a flood of
 * repeats costs a look-up a batch, not a failed attempt, and only where it is sent.
 */
final class EventIds {

    static final Duration LOOK_UP_AFTER_A_REPEAT = Duration.ofSeconds(10);

    private final String select;
    private final String selectRow;
    private final String selectEnd;
    private final String insert;
    private final String insertRow;
    private final LongAdder repeated = new LongAdder();
    /**
     * The batch with ids whose writes this thread began and did not end ({@link #written}): found again (the same
     * list at every attempt in GroupCommit, an equal one wherever a caller makes it anew), the attempt is a retry,
     * which looks the ids up.
     */
    private final ThreadLocal<List<Interaction>> attempted = new ThreadLocal<>();
    /**
     * The projects whose batches look their ids up at their first attempt, each until when ({@link System#nanoTime()}):
     * from a repeat found, for {@link #LOOK_UP_AFTER_A_REPEAT}. Anyone with a project's public key can send repeats,
     * and a batch that fails on one first took four times as long (docs/performance.md, Event ids); the projects of
     * the same instance, whose keys another may hold, go on without the look-up.
     */
    private final Map<String, Long> repeatsFound = new ConcurrentHashMap<>();

    EventIds(ServingDatabase database) {
        this.select = database.statement("select-interaction-event-ids");
        this.selectRow = database.statement("select-interaction-event-ids-row");
        this.selectEnd = database.statement("select-interaction-event-ids-end");
        this.insert = database.statement("insert-interaction-event-ids");
        this.insertRow = database.statement("insert-interaction-event-ids-row");
    }

    /**
     * The batch without the interactions whose event id comes earlier in it and, at a retry or for a project where a
     * repeat was found lately, without those whose id is stored (one statement for the whole batch); the batch itself
     * (no copy, no statement) when none carries an id, and at a first attempt without repeats within it.
     */
    private List<Interaction> unseen(Connection connection, List<Interaction> batch) throws SQLException {
        Set<Key> keys = null;
        boolean lookUp = false;
        int withIds = 0;
        for (Interaction interaction : batch) {
            if (interaction.eventId() != null) {
                if (keys == null) {
                    keys = new LinkedHashSet<>();
                }
                keys.add(new Key(interaction.projectId(), interaction.eventId()));
                withIds++;
                lookUp = lookUp || repeatedLately(interaction.projectId());
            }
        }
        if (keys == null) {
            return batch;
        }
        boolean retry = batch.equals(attempted.get());
        attempted.set(batch);
        Set<Key> stored = retry || lookUp ? stored(connection, keys) : Set.of();
        if (stored.isEmpty() && withIds == keys.size()) {
            return batch;
        }
        long until = System.nanoTime() + LOOK_UP_AFTER_A_REPEAT.toNanos();
        for (Key key : stored) {
            repeatsFound.put(key.projectId(), until);
        }
        List<Interaction> unseen = new ArrayList<>(batch.size());
        Set<Key> kept = new HashSet<>();
        for (Interaction interaction : batch) {
            if (interaction.eventId() != null) {
                Key key = new Key(interaction.projectId(), interaction.eventId());
                if (stored.contains(key) || !kept.add(key)) {
                    continue;
                }
            }
            unseen.add(interaction);
        }
        return unseen;
    }

    /** The writes of a batch's interactions that {@link #unseen} keeps; repeats counted once they all ran. */
    @FunctionalInterface
    interface Writes {
        void write(List<Interaction> unseen) throws SQLException;
    }

    /**
     * {@code sent} without its repeats ({@link #unseen}) to {@code writes}, which write it (or only the batch's mark,
     * when none is left); then {@link #written}. A write that fails leaves the batch held for its retry.
     */
    void writeUnseen(Connection connection, List<Interaction> sent, Writes writes) throws SQLException {
        List<Interaction> batch = unseen(connection, sent);
        writes.write(batch);
        written(sent.size() - batch.size());
    }

    /**
     * The batch's writes all ran: it is no longer held for the thread's next attempt, since a batch's interactions
     * and their metadata may be many (a failed commit after this costs at most one attempt more before a look-up);
     * its repeats are counted, once, however many attempts it took.
     *
     * @param repeats the interactions {@link #unseen} left out of the batch that was written
     */
    private void written(int repeats) {
        attempted.remove();
        repeated.add(repeats);
    }

    /** Whether the project's batches look their ids up at their first attempt: a repeat was found lately. */
    private boolean repeatedLately(String projectId) {
        Long until = repeatsFound.get(projectId);
        if (until == null) {
            return false;
        }
        if (System.nanoTime() - until < 0) {
            return true;
        }
        repeatsFound.remove(projectId, until);
        return false;
    }

    private Set<Key> stored(Connection connection, Set<Key> keys) throws SQLException {
        Set<Key> stored = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                MultiRowSql.of(select, selectRow, keys.size(), selectEnd))) {
            int parameter = 1;
            for (Key key : keys) {
                statement.setString(parameter++, key.projectId());
                statement.setString(parameter++, key.eventId());
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    stored.add(new Key(rows.getString(1), rows.getString(2)));
                }
            }
        }
        return stored;
    }

    /** An id within its project: ids are the project's own. */
    private record Key(String projectId, String eventId) {
    }

    /** How many interactions were answered without being stored again since the start: for /observe/metrics. */
    long repeated() {
        return repeated.sum();
    }

    /** How many of the batch's interactions carry an id: the rows {@link #insertSql} inserts. */
    static int count(List<Interaction> batch) {
        int count = 0;
        for (Interaction interaction : batch) {
            if (interaction.eventId() != null) {
                count++;
            }
        }
        return count;
    }

    /** The insert of {@code rows} ids, bound by {@link #bind}. */
    String insertSql(int rows) {
        return MultiRowSql.of(insert, insertRow, rows, "");
    }

    /** Binds the ids of the batch's interactions that carry one, from {@code first}; the next parameter's index. */
    static int bind(PreparedStatement statement, int first, List<Interaction> batch) throws SQLException {
        int parameter = first;
        for (Interaction interaction : batch) {
            if (interaction.eventId() != null) {
                statement.setString(parameter++, interaction.projectId());
                statement.setString(parameter++, interaction.eventId());
                statement.setLong(parameter++, interaction.receivedAt());
            }
        }
        return parameter;
    }
}
