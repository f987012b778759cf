package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * ids up first (one statement per project) and drops those stored. So a batch without ids runs exactly the
 * statements it ran before, and one with fresh ids only their insert: looking every batch's ids up took a round
 * trip a batch (docs/performance.md, Event ids), while a repeat, which only a retry sends, costs its batch one
 * attempt more. Once a repeat is found, every batch with ids looks them up first for a while: a flood of repeats
 * costs a look-up a batch, not a failed attempt.
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
     * Until when every batch with ids looks them up at its first attempt ({@link System#nanoTime()}): from a repeat
     * found, for {@link #LOOK_UP_AFTER_A_REPEAT}. Anyone with a project's public key can send repeats, and a batch
     * that fails on one first took four times as long (docs/performance.md, Event ids).
     */
    private volatile long lookUpUntil = System.nanoTime();

    EventIds(ServingDatabase database) {
        this.select = database.statement("select-interaction-event-ids");
        this.selectRow = database.statement("select-interaction-event-ids-row");
        this.selectEnd = database.statement("select-interaction-event-ids-end");
        this.insert = database.statement("insert-interaction-event-ids");
        this.insertRow = database.statement("insert-interaction-event-ids-row");
    }

    /**
     * The batch without the interactions whose event id comes earlier in it and, from its second attempt on, without
     * those whose id is stored; the batch itself (no copy, no statement) when none carries an id, and at a first
     * attempt without repeats within it.
     */
    List<Interaction> unseen(Connection connection, List<Interaction> batch) throws SQLException {
        Map<String, Set<String>> idsByProject = null;
        for (Interaction interaction : batch) {
            if (interaction.eventId() != null) {
                if (idsByProject == null) {
                    idsByProject = new LinkedHashMap<>();
                }
                idsByProject.computeIfAbsent(interaction.projectId(), project -> new HashSet<>())
                        .add(interaction.eventId());
            }
        }
        if (idsByProject == null) {
            return batch;
        }
        boolean retry = batch.equals(attempted.get());
        attempted.set(batch);
        Map<String, Set<String>> stored = new LinkedHashMap<>();
        if (retry || System.nanoTime() - lookUpUntil < 0) {
            boolean found = false;
            for (Map.Entry<String, Set<String>> project : idsByProject.entrySet()) {
                Set<String> ids = storedOf(connection, project.getKey(), project.getValue());
                found |= !ids.isEmpty();
                stored.put(project.getKey(), ids);
            }
            if (found) {
                lookUpUntil = System.nanoTime() + LOOK_UP_AFTER_A_REPEAT.toNanos();
            }
        } else if (EventIds.count(batch) == distinct(idsByProject)) {
            return batch;
        }
        List<Interaction> unseen = new ArrayList<>(batch.size());
        Map<String, Set<String>> kept = new LinkedHashMap<>();
        for (Interaction interaction : batch) {
            String id = interaction.eventId();
            if (id != null && (stored.getOrDefault(interaction.projectId(), Set.of()).contains(id)
                               || !kept.computeIfAbsent(interaction.projectId(), p -> new HashSet<>()).add(id))) {
                repeated.increment();
                continue;
            }
            unseen.add(interaction);
        }
        return unseen;
    }

    /**
     * The batch's writes all ran: it is no longer held for the thread's next attempt, since a batch's interactions
     * and their metadata may be many (a failed commit after this costs at most one attempt more before a look-up).
     */
    void written() {
        attempted.remove();
    }

    private static int distinct(Map<String, Set<String>> idsByProject) {
        int distinct = 0;
        for (Set<String> ids : idsByProject.values()) {
            distinct += ids.size();
        }
        return distinct;
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

    private Set<String> storedOf(Connection connection, String projectId, Set<String> ids) throws SQLException {
        Set<String> stored = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                MultiRowSql.of(select, selectRow, ids.size(), selectEnd))) {
            int parameter = 1;
            statement.setString(parameter++, projectId);
            for (String id : ids) {
                statement.setString(parameter++, id);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    stored.add(rows.getString(1));
                }
            }
        }
        return stored;
    }
}
