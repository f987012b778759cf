package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * <p>In a batch's transaction: {@link #unseen} drops the interactions whose id the batch repeats or the table holds
 * (one statement per project, and only for a batch that carries ids, so that one without runs exactly the statements
 * it ran before), and the batch inserts the ids it keeps ({@link #insertSql}). Two transactions that keep the same id at
 * once (two lanes, instances or Galera nodes) meet at the primary key: the second fails with a duplicate key or a
 * certification conflict, is rolled back, and is written again (ExactlyOnceCommit, Transactions), when the look-up
 * finds the id.
 */
final class EventIds {

    private final String select;
    private final String selectRow;
    private final String selectEnd;
    private final String insert;
    private final String insertRow;
    private final LongAdder repeated = new LongAdder();

    EventIds(ServingDatabase database) {
        this.select = database.statement("select-interaction-event-ids");
        this.selectRow = database.statement("select-interaction-event-ids-row");
        this.selectEnd = database.statement("select-interaction-event-ids-end");
        this.insert = database.statement("insert-interaction-event-ids");
        this.insertRow = database.statement("insert-interaction-event-ids-row");
    }

    /**
     * The batch without the interactions whose event id was stored before or comes earlier in it; the batch itself
     * (no copy, no statement) when none carries an id.
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
        Map<String, Set<String>> stored = new LinkedHashMap<>();
        for (Map.Entry<String, Set<String>> project : idsByProject.entrySet()) {
            stored.put(project.getKey(), storedOf(connection, project.getKey(), project.getValue()));
        }
        List<Interaction> unseen = new ArrayList<>(batch.size());
        Map<String, Set<String>> kept = new LinkedHashMap<>();
        for (Interaction interaction : batch) {
            String id = interaction.eventId();
            if (id != null && (stored.get(interaction.projectId()).contains(id)
                               || !kept.computeIfAbsent(interaction.projectId(), p -> new HashSet<>()).add(id))) {
                repeated.increment();
                continue;
            }
            unseen.add(interaction);
        }
        return unseen;
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
