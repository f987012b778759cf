package dev.herald.storage;

import java.util.Map;

import io.helidon.dbclient.DbClient;

/**
 * What requests go through: the DB Client that the routes query, the pool behind it (for its figures, and for the
 * few writers that batch with plain JDBC), and the named statements of this database's dialect.
 */
public record ServingDatabase(DbClient client, ServingPool pool, Dialect dialect, Map<String, String> statements) {

    /** The SQL of a named statement, for code that runs it through plain JDBC. */
    public String statement(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalStateException("Named statement missing: " + name);
        }
        return sql;
    }
}
