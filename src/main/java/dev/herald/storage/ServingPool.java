package dev.herald.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.helidon.dbclient.jdbc.CloseableJdbcConnectionPool;

/**
 * The HikariCP pool that serves requests, made here rather than by Helidon's pool provider so that its figures
 * can be read directly: the provider keeps the pool to itself, and reaching it over JMX made every start create
 * the platform MBean server (some 40 ms of a 450 ms start, docs/performance.md).
 */
public final class ServingPool implements CloseableJdbcConnectionPool {

    // Helidon's provider kept connection.helidon.* for its own extensions; HikariCP would refuse them.
    private static final String HELIDON_RESERVED = "helidon.";
    // The JDBC URL's first two parts, as Helidon's provider reports them: jdbc:mariadb, jdbc:h2.
    private static final Pattern DB_TYPE = Pattern.compile("(\\w+:\\w+):.*");

    private final HikariDataSource dataSource;
    private final Properties settings;
    private final String dbType;
    private final LongAdder refused = new LongAdder();
    private final CommittedBatches committedBatches;
    /** Set on each connection it hands out, HikariCP resetting it as the connection returns; 0: the driver's own. */
    private final int networkTimeoutMillis;

    private ServingPool(HikariDataSource dataSource, Properties settings, String url,
                        CommittedBatches committedBatches, int networkTimeoutMillis) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.committedBatches = committedBatches;
        this.networkTimeoutMillis = networkTimeoutMillis;
        Matcher type = DB_TYPE.matcher(url);
        this.dbType = type.matches() ? type.group(1) : DEFAULT_DB_TYPE;
    }

    /**
     * Every {@code connection.*} setting goes to HikariCP (as {@code connection.url}, {@code connection.username} and
     * {@code connection.password} did through Helidon's provider): {@code dataSource.*} on to the driver.
     *
     * @param settings the {@code db} settings, {@code connection.*} among them
     */
    static ServingPool create(Map<String, String> settings) {
        Properties properties = Settings.under(settings, "connection.");
        properties.keySet().removeIf(key -> key.toString().startsWith(HELIDON_RESERVED));
        return open(properties, Map.of(), CommittedBatches.from(settings), 0);
    }

    /** A pool from HikariCP properties ({@code url} among them), plus settings for the driver. */
    private static ServingPool open(Properties settings, Map<String, String> driverProperties,
                                    CommittedBatches committedBatches, int networkTimeoutMillis) {
        Properties properties = new Properties();
        properties.putAll(settings);
        String url = (String) properties.remove("url");
        HikariConfig config = new HikariConfig(properties);
        config.setJdbcUrl(url);
        driverProperties.forEach(config::addDataSourceProperty);
        return new ServingPool(new HikariDataSource(config), settings, url, committedBatches, networkTimeoutMillis);
    }

    /**
     * A pool of {@code size} connections with the same settings and auto-commit off, for writers that each commit
     * batch after batch on a thread of their own: switching auto-commit off and back for each transaction would cost
     * two more round trips per batch. One connection is opened at once, the others when a writer first needs them;
     * HikariCP checks, replaces and retires them as it does the serving pool's.
     *
     * @param driverProperties more settings for the driver, beside the serving pool's ({@code allowMultiQueries})
     */
    public ServingPool transactionalPool(String name, int size, Map<String, String> driverProperties) {
        Properties writers = new Properties();
        writers.putAll(settings);
        writers.setProperty("poolName", name);
        writers.setProperty("maximumPoolSize", Integer.toString(size));
        writers.setProperty("minimumIdle", "1");
        writers.setProperty("autoCommit", "false");
        // Its own ids' schedule: the writers prune the old ones between their batches.
        return open(writers, driverProperties, committedBatches.another(), 0);
    }

    /**
     * A pool for statements that add up whole ranges (the stats, {@link Reports}), which may rightly take seconds on a
     * large project: the serving pool's socket time-out is there to fail a request fast on a database that stopped
     * answering (config/prod.yaml: 1 s), and cut such a statement short. Each of its connections runs
     * {@code sessionSql} once, which bounds its statements in the database itself, and waits on the socket
     * {@code socketWait}. It opens no connection before the first is asked for.
     */
    ServingPool reportsPool(String name, int size, String sessionSql, Duration socketWait) {
        Properties reports = new Properties();
        reports.putAll(settings);
        reports.setProperty("poolName", name);
        reports.setProperty("maximumPoolSize", Integer.toString(size));
        reports.setProperty("minimumIdle", "0");
        reports.setProperty("connectionInitSql", sessionSql);
        // No connection at construction, and none failing it: a stats request is the first to need one.
        reports.setProperty("initializationFailTimeout", "-1");
        reports.setProperty("exceptionOverrideClassName", StatementBoundOverride.class.getName());
        return open(reports, Map.of(), committedBatches.another(), Math.toIntExact(socketWait.toMillis()));
    }

    @Override
    public Connection connection() {
        try {
            Connection connection = dataSource.getConnection();
            if (networkTimeoutMillis > 0) {
                try {
                    // The URL's or a dataSource setting's socketTimeout would otherwise stay, whichever the driver
                    // reads.
                    connection.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
                } catch (SQLException e) {
                    // A connection the database closed while it was idle: MariaDB's driver says so with an
                    // SQLSyntaxErrorException, which the log then showed as if a statement were wrong.
                    dataSource.evictConnection(connection);
                    throw new SQLNonTransientConnectionException("A pooled connection was closed: " + e.getMessage(),
                                                                 e);
                }
            }
            return connection;
        } catch (SQLException e) {
            refused.increment();
            throw new PoolRefused("No connection from the pool: " + e.getMessage(), e);
        }
    }

    /** The ids of committed batches, for {@link ExactlyOnceCommit}. */
    CommittedBatches committedBatches() {
        return committedBatches;
    }

    /** Takes a connection that failed out of the pool: the next one is made afresh (on a Galera node that serves). */
    void evict(Connection connection) {
        dataSource.evictConnection(connection);
    }

    /** Requests refused a connection since start: none free within the pool's wait, or the database unreachable. */
    public long refused() {
        return refused.sum();
    }

    /** The pool now; all zero once it is closed. */
    public PoolFigures figures() {
        HikariPoolMXBean pool = dataSource.getHikariPoolMXBean();
        if (pool == null || dataSource.isClosed()) {
            return new PoolFigures(0, 0, 0, 0);
        }
        return new PoolFigures(pool.getActiveConnections(), pool.getIdleConnections(), pool.getTotalConnections(),
                               pool.getThreadsAwaitingConnection());
    }

    @Override
    public String dbType() {
        return dbType;
    }

    @Override
    public String type() {
        return "hikari";
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
