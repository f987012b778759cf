package dev.herald.storage;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import io.helidon.dbclient.DbClient;

/**
 * What requests go through: the DB Client that the routes query, the pool behind it (for its figures, and for the
 * few writers that batch with plain JDBC), and the named statements of this database's dialect.
 *
 * @param clientOver a DB Client of the same statements and settings over another pool ({@link #reports})
 */
public record ServingDatabase(DbClient client, ServingPool pool, Dialect dialect, Map<String, String> statements,
                              Function<ServingPool, DbClient> clientOver) {

    /** The SQL of a named statement, for code that runs it through plain JDBC. */
    public String statement(String name) {
        String sql = statements.get(name);
        if (sql == null) {
            throw new IllegalStateException("Named statement missing: " + name);
        }
        return sql;
    }

    /**
     * A pool of its own for statements that add up whole ranges, each bounded to {@code bound} in the database.
     *
     * @param size as many connections as such requests may run at once
     */
    public Reports reports(int size, Duration bound) {
        return new Reports(this, size, bound);
    }
}
