package dev.herald.userstate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.herald.storage.MultiRowSql;
import dev.herald.storage.ServingDatabase;

/**
 * The upsert of per-user state rows, in one multi-row statement: a row is inserted, or its columns set only where
 * they are NULL, so the first instant of each state is kept whatever the order of the writes, the instance or the
 * Galera node. MariaDB: {@code INSERT … ON DUPLICATE KEY UPDATE col = COALESCE(col, VALUES(col))}; H2: {@code MERGE
 * … USING (VALUES …)}. Both take each key once per statement (H2's MERGE refuses a target row matched twice), so a
 * batch's writes are first folded into one row per key, and sorted: two instances' batches lock the same rows in the
 * same order and never wait for each other in a cycle. The deadlock or certification failure that remains (two
 * instances inserting the same new row) is run again by {@code Transactions}, and ends in the same row.
 *
 * <p>Each row written carries the writer's time as its {@code changed_at} (migration 27), which the statement keeps
 * only where the row gains a state: the export of per-user state orders rows by it (docs/api.md#export), and a write
 * that changes nothing must not hand the row out again. The time is read as the statement is bound, inside the
 * transaction that commits it, so that the export's settle window covers the time from it to the commit.
 *
 * <p>Read implies seen: a user who read a notification saw it, and a badge of unseen ones must not count it.
 */
public final class StateRows {

    private static final Comparator<Key> KEY_ORDER = Comparator.comparing(Key::projectId)
            .thenComparing(Key::userKey)
            .thenComparing(Key::notificationId);

    private final String start;
    private final String row;
    private final String end;

    private final Clock clock;

    public StateRows(ServingDatabase database, Clock clock) {
        this.clock = clock;
        this.start = database.statement("upsert-user-states");
        this.row = database.statement("upsert-user-states-row");
        this.end = database.statement("upsert-user-states-end");
    }

    /** One row per key, the earliest instant of each state, in key order. */
    public static List<Row> fold(Collection<StateWrite> writes) {
        Map<Key, Row> rows = new TreeMap<>(KEY_ORDER);
        for (StateWrite write : writes) {
            Key key = new Key(write.projectId(), write.userKey(), write.notificationId());
            rows.merge(key, Row.of(write), Row::earliest);
        }
        return new ArrayList<>(rows.values());
    }

    /** Folds and writes, in the caller's transaction: one statement. */
    void write(Connection connection, Collection<StateWrite> writes) throws SQLException {
        List<Row> rows = fold(writes);
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(sql(rows.size()))) {
            bind(statement, 1, rows);
            statement.executeUpdate();
        }
    }

    /** The statement for {@code rows} rows, to run alone or inside a script. */
    public String sql(int rows) {
        return MultiRowSql.of(start, row, rows, end);
    }

    /** Binds the rows from parameter {@code first}; returns the next parameter's index. */
    public int bind(PreparedStatement statement, int first, List<Row> rows) throws SQLException {
        long now = clock.millis();
        int parameter = first;
        for (Row each : rows) {
            statement.setString(parameter++, each.projectId);
            statement.setString(parameter++, each.userKey);
            statement.setString(parameter++, each.notificationId);
            parameter = instant(statement, parameter, each.seenAt);
            parameter = instant(statement, parameter, each.readAt);
            parameter = instant(statement, parameter, each.dismissedAt);
            parameter = instant(statement, parameter, each.archivedAt);
            statement.setLong(parameter++, now);
        }
        return parameter;
    }

    private static int instant(PreparedStatement statement, int parameter, Long instant) throws SQLException {
        if (instant == null) {
            statement.setNull(parameter, Types.BIGINT);
        } else {
            statement.setLong(parameter, instant);
        }
        return parameter + 1;
    }

    private record Key(String projectId, String userKey, String notificationId) {
    }

    /** A row to write: null where this batch says nothing of a state. */
    public record Row(String projectId, String userKey, String notificationId, Long seenAt, Long readAt,
                      Long dismissedAt, Long archivedAt) {

        private static Row of(StateWrite write) {
            Long at = write.at();
            return switch (write.state()) {
                case SEEN -> new Row(write.projectId(), write.userKey(), write.notificationId(), at, null, null, null);
                case READ -> new Row(write.projectId(), write.userKey(), write.notificationId(), at, at, null, null);
                case DISMISSED -> new Row(write.projectId(), write.userKey(), write.notificationId(), null, null, at,
                                          null);
                case ARCHIVED -> new Row(write.projectId(), write.userKey(), write.notificationId(), null, null, null,
                                         at);
            };
        }

        private Row earliest(Row other) {
            return new Row(projectId, userKey, notificationId, min(seenAt, other.seenAt), min(readAt, other.readAt),
                           min(dismissedAt, other.dismissedAt), min(archivedAt, other.archivedAt));
        }

        private static Long min(Long a, Long b) {
            return a == null ? b : b == null ? a : Long.valueOf(Math.min(a, b));
        }
    }
}
