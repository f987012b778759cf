package dev.herald.userstate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.outbox.EventType;
import dev.herald.outbox.Outbox;
import dev.herald.storage.MultiRowSql;
import dev.herald.storage.ServingDatabase;

/**
 * {@code user.state} events (docs/webhooks.md#events-and-payloads): the states users reach for the first time, in the
 * transaction of the writes that reach them, added to the writer lane's open event as interactions are. Only where
 * an endpoint of the project wants them: then the batch's rows are read under lock before its upsert (one statement),
 * and a state already reached is no event. A state once reached stays, with its first instant, so the order of
 * these events does not matter.
 *
 * <p>A user is named by {@code userKey} (docs/behaviour.md#per-user-state), never by the token's sub or claims.
 */
public final class UserStateEvents {

    private final Outbox outbox;
    private final String select;
    private final String selectRow;
    private final String selectEnd;

    public UserStateEvents(ServingDatabase database, Outbox outbox) {
        this.outbox = outbox;
        this.select = database.statement("select-user-states-for-events");
        this.selectRow = database.statement("select-user-states-for-events-row");
        this.selectEnd = database.statement("select-user-states-for-events-end");
    }

    /**
     * Before the upsert of {@code rows}, in its transaction.
     *
     * @param rows   folded and in key order ({@link StateRows#fold})
     * @param source the writer lane's ({@code user-states:N})
     */
    public void write(Connection connection, String source, List<StateRows.Row> rows) throws SQLException {
        Map<String, Boolean> wanted = new HashMap<>();
        List<StateRows.Row> watched = new ArrayList<>();
        for (StateRows.Row row : rows) {
            Boolean wants = wanted.get(row.projectId());
            if (wants == null) {
                wants = outbox.wants(connection, row.projectId(), EventType.USER_STATE);
                wanted.put(row.projectId(), wants);
            }
            if (wants) {
                watched.add(row);
            }
        }
        if (watched.isEmpty()) {
            return;
        }
        Map<String, StateRows.Row> current = current(connection, watched);
        Map<String, List<String>> items = new LinkedHashMap<>();
        for (StateRows.Row row : watched) {
            StateRows.Row before = current.get(key(row.projectId(), row.userKey(), row.notificationId()));
            List<String> project = items.computeIfAbsent(row.projectId(), ignored -> new ArrayList<>());
            reached(project, row, UserState.SEEN, row.seenAt(), before == null ? null : before.seenAt());
            reached(project, row, UserState.READ, row.readAt(), before == null ? null : before.readAt());
            reached(project, row, UserState.DISMISSED, row.dismissedAt(), before == null ? null : before.dismissedAt());
            reached(project, row, UserState.ARCHIVED, row.archivedAt(), before == null ? null : before.archivedAt());
        }
        for (Map.Entry<String, List<String>> project : items.entrySet()) {
            outbox.append(connection, source, project.getKey(), EventType.USER_STATE, project.getValue());
        }
    }

    private static void reached(List<String> items, StateRows.Row row, UserState state, Long at, Long before) {
        if (at != null && before == null) {
            items.add(Json.write(Json.builders().createObjectBuilder()
                    .add("notificationId", row.notificationId())
                    .add("userKey", row.userKey())
                    .add("state", state.wireName())
                    .add("at", Timestamps.format(at))
                    .build()));
        }
    }

    private Map<String, StateRows.Row> current(Connection connection, List<StateRows.Row> rows) throws SQLException {
        Map<String, StateRows.Row> current = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(MultiRowSql.of(select, selectRow, rows.size(),
                                                                                       selectEnd))) {
            int parameter = 1;
            for (StateRows.Row row : rows) {
                statement.setString(parameter++, row.projectId());
                statement.setString(parameter++, row.userKey());
                statement.setString(parameter++, row.notificationId());
            }
            try (ResultSet found = statement.executeQuery()) {
                while (found.next()) {
                    String projectId = found.getString("project_id");
                    String userKey = found.getString("user_key");
                    String notificationId = found.getString("notification_id");
                    current.put(key(projectId, userKey, notificationId), new StateRows.Row(projectId, userKey,
                            notificationId, nullable(found, "seen_at"), nullable(found, "read_at"),
                            nullable(found, "dismissed_at"), nullable(found, "archived_at")));
                }
            }
        }
        return current;
    }

    private static Long nullable(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    private static String key(String projectId, String userKey, String notificationId) {
        return projectId + '\n' + userKey + '\n' + notificationId;
    }
}
