package dev.herald.storage;

import java.sql.SQLException;

import dev.herald.startup.Ahead;

import com.zaxxer.hikari.HikariConfig;

import org.mariadb.jdbc.Configuration;

/**
 * Work the path to the first connection does once per JVM whatever the settings say, done on a thread of its own
 * while the configuration is read. The MariaDB driver's first parse of a URL reads each of its hundred-odd option
 * fields by reflection, and HikariCP's pool copies its configuration field by field; the JDK makes a method handle
 * for each field at its first read. A wall-clock profile of the start put them at 28 ms and 8 ms of the main
 * thread's path (issue 33, docs/performance.md); on H2 the driver's part is a few milliseconds of a second core
 * spent for nothing. Nothing connects and nothing is kept: the real parse and copy find that work done.
 */
final class FirstReflection {

    /** The form of URL Herald connects with; no connection is made to it. */
    private static final String MARIADB_URL = "jdbc:mariadb://localhost:3306/herald?user=herald";

    private FirstReflection() {
    }

    static final Ahead<Void> AHEAD = new Ahead<>(() -> {
        run();
        return null;
    });

    private static void run() {
        try {
            Configuration.parse(MARIADB_URL);
        } catch (SQLException e) {
            // A head start only: the start's own parse reports what is wrong.
        }
        new HikariConfig().copyStateTo(new HikariConfig());
    }
}
