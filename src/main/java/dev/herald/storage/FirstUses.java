package dev.herald.storage;

import java.sql.SQLException;

import dev.herald.startup.Ahead;

import com.zaxxer.hikari.HikariConfig;

import org.mariadb.jdbc.Configuration;

/**
 * Work the path to the first answer does once per JVM whatever the settings say, done ahead on a thread of its own
 * while the configuration is read (issue 33, docs/performance.md). The MariaDB driver's first parse of a URL reads
 * each of its hundred-odd option fields by reflection, and HikariCP's pool copies its configuration field by field;
 * the JDK makes a method handle for each field at its first read (28 ms and 8 ms of the main thread's path by a
 * wall-clock profile). HikariCP's first close of a connection makes the proxy that stands for a closed one, a class
 * spun at run time (16 ms of CPU of the first query). On H2 the driver's part is a few milliseconds of a second core
 * spent for nothing. Nothing connects and nothing is kept: the real parse, copy and close find that work done.
 */
final class FirstUses {

    /** The form of URL Herald connects with; no connection is made to it. */
    static final String MARIADB_URL = "jdbc:mariadb://localhost:3306/herald?user=herald";
    /** Initialised at HikariCP's first close of a connection. */
    static final String CLOSED_CONNECTION = "com.zaxxer.hikari.pool.ProxyConnection$ClosedConnection";

    /** Before the first connection: the driver's parse of its URL, the pool's copy of its configuration. */
    static final Ahead<Void> CONNECTING = new Ahead<>(() -> {
        try {
            Configuration.parse(MARIADB_URL);
        } catch (SQLException e) {
            // A head start only: the start's own parse reports what is wrong.
        }
        new HikariConfig().copyStateTo(new HikariConfig());
        return null;
    });

    /** Before the first query returns its connection. */
    static final Ahead<Void> FIRST_CLOSE = new Ahead<>(() -> {
        try {
            Class.forName(CLOSED_CONNECTION, true, HikariConfig.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            // Another HikariCP: FirstUsesTest says so; the first close makes its own.
        }
        return null;
    });

    private FirstUses() {
    }
}
