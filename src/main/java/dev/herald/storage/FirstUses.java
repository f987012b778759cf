package dev.herald.storage;

import java.sql.DriverManager;
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
 * spun at run time (16 ms of CPU of the first query). The JDK's first look for drivers and the driver's for its
 * codecs each scan the class path (a third of the schema connection's time to connect, profiled), and the JDK's first
 * secure random numbers load its security providers (7 % of the database's start on the main thread). On H2 the
 * driver's part is a few milliseconds of a second core spent for nothing. Nothing connects and nothing is kept: the
 * real parse, copy and close find that work done.
 */
final class FirstUses {

    /** The form of URL Herald connects with; no connection is made to it. */
    static final String MARIADB_URL = "jdbc:mariadb://localhost:3306/herald?user=herald&cacheCodecs=true";
    /** Initialised at HikariCP's first close of a connection. */
    static final String CLOSED_CONNECTION = "com.zaxxer.hikari.pool.ProxyConnection$ClosedConnection";

    /**
     * Before the first connection: the JDK's look for drivers through the class path, the driver's parse of its URL
     * and of its codecs (kept, as Herald's connections keep them: Database#cacheCodecs), the pool's copy of its
     * configuration, the JDK's first secure random numbers (its security providers loaded: the pool's batch ids).
     */
    static final Ahead<Void> CONNECTING = new Ahead<>(() -> {
        DriverManager.drivers().close();
        try {
            Configuration.parse(MARIADB_URL);
        } catch (SQLException e) {
            // A head start only: the start's own parse reports what is wrong.
        }
        new HikariConfig().copyStateTo(new HikariConfig());
        CommittedBatches.newId();
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
