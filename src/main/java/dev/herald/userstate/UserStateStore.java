package dev.herald.userstate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClientException;

/**
 * Reads and erases per-user state ({@code user_notification_states}); writes go through {@link UserStateWriter}.
 */
final class UserStateStore {

    private final ServingDatabase database;
    private final String select;

    UserStateStore(ServingDatabase database) {
        this.database = database;
        this.select = database.statement("select-user-states");
    }

    /**
     * The user's stored state of each of {@code ids} that has one (at most a feed's 1000 ids: one statement, read
     * through the primary key).
     */
    Map<String, StoredState> states(String projectId, String userKey, List<String> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        StringBuilder sql = new StringBuilder(select.length() + 3 * ids.size() + 3).append(select).append(" (");
        for (int i = 0; i < ids.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        sql.append(')');
        Map<String, StoredState> states = new HashMap<>();
        try (Connection connection = database.pool().connection();
             PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            int parameter = 1;
            statement.setString(parameter++, projectId);
            statement.setString(parameter++, userKey);
            for (String id : ids) {
                statement.setString(parameter++, id);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    states.put(rows.getString(1), new StoredState(instant(rows, 2), instant(rows, 3), instant(rows, 4),
                                                                  instant(rows, 5)));
                }
            }
        } catch (SQLException e) {
            throw new DbClientException("User state not read: " + e.getMessage(), e);
        }
        return states;
    }

    /**
     * Every row of the user in the project, and the audit line that tells of it, in one transaction.
     *
     * @param entry the audit line, given how many rows went
     */
    void erase(String projectId, String userKey, LongFunction<AuditEntry> entry) {
        Transactions.run(database.client(), transaction -> {
            long rows = transaction.namedDelete("delete-user-states", projectId, userKey);
            AuditLog.record(transaction, entry.apply(rows));
        });
    }

    private static Long instant(ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }
}
