package dev.herald.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbExecute;

/**
 * The outbox's few statements in the caller's transaction, whichever way it runs: the DB Client's (management
 * writes) or plain JDBC (group commits). Every statement is positional, so both run the same SQL.
 */
interface OutboxSql {

    long update(String name, Object... parameters) throws SQLException;

    Optional<Long> firstLong(String name, String column, Object... parameters) throws SQLException;

    Set<String> strings(String name, String column, Object... parameters) throws SQLException;

    static OutboxSql of(DbExecute transaction) {
        return new OutboxSql() {
            @Override
            public long update(String name, Object... parameters) {
                return transaction.namedUpdate(name, parameters);
            }

            @Override
            public Optional<Long> firstLong(String name, String column, Object... parameters) {
                return transaction.namedGet(name, parameters).map(row -> Rows.longValue(row, column));
            }

            @Override
            public Set<String> strings(String name, String column, Object... parameters) {
                return transaction.namedQuery(name, parameters).map(row -> Rows.string(row, column))
                        .collect(Collectors.toUnmodifiableSet());
            }
        };
    }

    static OutboxSql of(Connection connection, Function<String, String> statements) {
        return new OutboxSql() {
            @Override
            public long update(String name, Object... parameters) throws SQLException {
                try (PreparedStatement statement = prepared(name, parameters)) {
                    return statement.executeUpdate();
                }
            }

            @Override
            public Optional<Long> firstLong(String name, String column, Object... parameters) throws SQLException {
                try (PreparedStatement statement = prepared(name, parameters);
                     ResultSet rows = statement.executeQuery()) {
                    return rows.next() ? Optional.of(rows.getLong(column)) : Optional.empty();
                }
            }

            @Override
            public Set<String> strings(String name, String column, Object... parameters) throws SQLException {
                Set<String> strings = new HashSet<>();
                try (PreparedStatement statement = prepared(name, parameters);
                     ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        strings.add(rows.getString(column));
                    }
                }
                return Set.copyOf(strings);
            }

            private PreparedStatement prepared(String name, Object... parameters) throws SQLException {
                PreparedStatement statement = connection.prepareStatement(statements.apply(name));
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                return statement;
            }
        };
    }
}
