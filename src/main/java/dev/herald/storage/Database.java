package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;
import dev.herald.startup.Ahead;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbStatements;
import io.helidon.dbclient.jdbc.JdbcClientBuilder;

/**
 * Opens the DbClient described by the {@code db} configuration and brings its schema up to date.
 *
 * <p>Start-up and serving need opposite time-outs. A request must give up on the database quickly (500 within 2
 * seconds, docs/behaviour.md#connections-and-errors), while start-up should wait for a database that is still coming up
 * (a container started beside it, a cold disk) and a migration may rightly run for minutes on a large table. So
 * migrations run on a connection of their own ({@link SchemaConnection}), waited for up to {@code db.startup-timeout},
 * without the serving socket time-out.
 */
public final class Database {

    private static final System.Logger LOGGER = System.getLogger(Database.class.getName());
    private static final String STATEMENTS = "statements.";
    private static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    // MariaDB's driver also reads the user from the URL.
    private static final Pattern URL_USER = Pattern.compile("[?&]user=([^&]*)");
    /** Hosts, between {@code //} and the path, of which there are more than one. */
    private static final Pattern SEVERAL_HOSTS = Pattern.compile("//[^/?]*,");
    /** The driver's option that keeps its codecs, as HikariSettings spells a driver option. */
    static final String CACHE_CODECS = "connection.dataSource.cachecodecs";
    private static final Map<String, String> KEPT_CODECS = DriverOptions.of("cacheCodecs", "true");
    /** The driver's multi-host options Herald bounds, as the URL spells them. */
    private static final Map<String, String> FAILOVER_BOUNDS = DriverOptions.of("retriesAllDown", "2",
                                                                              "deniedListTimeout", "2000");

    private Database() {
    }

    /** The newest schema version this Herald migrates to and runs on ({@code --version}). */
    public static int newestSchemaVersion() {
        return Migrations.newestVersion();
    }

    /**
     * What {@link #start} needs and no setting changes, to be done ahead, in the order it needs them: the bundled
     * statements, then the driver's and the pool's first uses ({@link FirstUses}) that the first connection would
     * otherwise pay.
     */
    public static List<Ahead<?>> ahead() {
        return List.of(BundledStatements.reading(), FirstUses.CONNECTING);
    }

    /** What the first query pays once per JVM, to be done ahead after the rest ({@link FirstUses}). */
    public static Ahead<?> firstQueryAhead() {
        return FirstUses.FIRST_CLOSE;
    }

    /**
     * Migrates, then opens the pool that serves requests. Fails when the database cannot be reached within the
     * start-up time-out: a service that could never have created its schema should say so rather than answer
     * 500 to everything.
     */
    public static ServingDatabase open(Config dbConfig, Clock clock) {
        return start(dbConfig, clock).awaitSchema();
    }

    /**
     * Opens the pool that serves requests and brings the schema up to date on a thread of its own meanwhile, while
     * the server is built: a start is mostly code run for the first time and waits on the database, and even a
     * small host has a second core (measured: 50 ms less to the first served request, docs/performance.md).
     * Nothing may be served before {@link StartingDatabase#awaitSchema()} returns.
     */
    public static StartingDatabase start(Config dbConfig, Clock clock) {
        Map<String, String> configured = settings(dbConfig);
        String url = ConfigValues.string(dbConfig.get("connection.url")).orElseThrow();
        Dialect dialect = Dialect.of(url);
        Duration startupTimeout = ConfigValues.duration(dbConfig.get("startup-timeout"), DEFAULT_STARTUP_TIMEOUT);
        LOGGER.log(Level.INFO, "Database: " + dialect.displayName() + " at " + DatabaseUrls.withoutSecrets(url)
                + ", user " + user(configured));

        CompletableFuture<Map<String, String>> connected = new CompletableFuture<>();
        CompletableFuture<Void> schema = CompletableFuture.runAsync(
                () -> migrate(configured, dialect, startupTimeout, clock, connected),
                task -> Thread.ofPlatform().name("herald-migrations").start(task));
        // The pool opens once the database has answered: while start-up waits for it, a pool would try too, and
        // log each of its own failures. What answered may change the settings (a Galera cluster, GaleraNodes).
        Map<String, String> serving = awaitConnection(connected);
        ServingPool pool = ServingPool.create(serving);
        try {
            Map<String, String> statements = Settings.statements(serving);
            Config clientConfig = config(clientSettings(serving));
            Function<ServingPool, DbClient> clientOver = over -> JdbcClientBuilder.create()
                    .config(clientConfig)
                    .statements(dbStatements(statements))
                    .connectionPool(over)
                    .build();
            return new StartingDatabase(new ServingDatabase(clientOver.apply(pool), pool, dialect, statements,
                                                            clientOver), schema);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /**
     * The {@code db} settings as the pool, the driver and the DB Client take them, checked: a value HikariCP cannot
     * read ends the start here, naming it, before anything is migrated; one the driver cannot read ends it at the
     * first attempt to connect, before any wait (ConnectionChecks).
     *
     * @throws BadSetting naming the setting
     */
    public static Map<String, String> settings(Config dbConfig) {
        String url = ConfigValues.string(dbConfig.get("connection.url"))
                .orElseThrow(() -> new BadSetting("db.connection.url (DB_CONNECTION_URL) is not set"));
        Dialect dialect = Dialect.of(url);
        ConfigValues.duration(dbConfig.get("startup-timeout"), DEFAULT_STARTUP_TIMEOUT);
        Map<String, String> settings = HikariSettings.spelledForHikari(dbConfig.detach().asMap().orElseGet(Map::of));
        BundledStatements.all().forEach((name, sql) -> settings.putIfAbsent(STATEMENTS + name, sql));
        settings.remove("startup-timeout");
        // backup.BackupSettings reads it; it is nothing of the pool's.
        settings.remove("backup.directory");
        settings.put("connection.url", connectionUrl(dialect, url));
        chooseUser(settings, dialect);
        boundFailoverRetries(settings, dialect, url);
        cacheCodecs(settings, dialect);
        chooseDialectStatements(settings, dialect);
        ConnectionChecks.check(settings);
        return Map.copyOf(settings);
    }

    /**
     * With several hosts in the URL (a Galera cluster, {@code jdbc:mariadb:sequential://a,b,c/herald}), the MariaDB
     * driver, when none answers, tries again 120 times 250 ms apart before it fails: one attempt to connect lasted
     * 30 s whatever {@code db.startup-timeout} said, and after a node died every instance answered 500 for 60 s
     * while the cluster itself re-formed in 7 s (docs/scale-out.md). Herald waits for the database itself (start-up)
     * or answers 500 within 2 s (requests): two retries, and a failed host shunned for 2 s, unless the URL or a
     * {@code dataSource} setting says otherwise; added to the URL, which the log then shows. A URL of one host is
     * left as it is.
     */
    static void boundFailoverRetries(Map<String, String> settings, Dialect dialect, String url) {
        if (dialect == Dialect.MARIADB && namesSeveralHosts(url)) {
            settings.put("connection.url", DriverOptions.added(settings, FAILOVER_BOUNDS).get("connection.url"));
        }
    }

    /**
     * The MariaDB driver finds its codecs through a ServiceLoader at every connection unless told to keep them, a
     * scan of the class path each time: a quarter of the pool's connection thread's work while Herald started (20
     * connections, a wall-clock profile, issue 33), and on the start's path for the schema connection. They are the
     * driver's own classes, the same at every look. A {@code cacheCodecs} in the URL or a {@code dataSource} setting
     * wins.
     */
    static void cacheCodecs(Map<String, String> settings, Dialect dialect) {
        if (dialect == Dialect.MARIADB && !DriverOptions.missing(settings, KEPT_CODECS).isEmpty()) {
            settings.put(CACHE_CODECS, "true");
        }
    }

    /**
     * Embedded H2 takes its own default user; a MariaDB server has no user Herald could assume. A user missing from
     * the configuration used to log in as H2's {@code sa}, which only told the operator that access was denied.
     */
    static void chooseUser(Map<String, String> settings, Dialect dialect) {
        String username = settings.get("connection.username");
        if (username != null && username.isBlank()) {
            // A line "DB_CONNECTION_USERNAME=" in an environment file: the MariaDB driver then logged in as the
            // operating system's user (root, on an operator's trial), not the least-privileged user meant.
            throw new BadSetting("db.connection.username (DB_CONNECTION_USERNAME) is empty: set the user Herald "
                    + "connects as, or leave the setting out" + (dialect == Dialect.H2 ? " (H2's own user is sa)"
                    : " when the URL names one (?user=)"));
        }
        if (dialect == Dialect.H2) {
            if (username == null) {
                settings.put("connection.username", "sa");
                settings.putIfAbsent("connection.password", "");
            }
            return;
        }
        List<String> inUrl = URL_USER.matcher(settings.get("connection.url")).results()
                .map(found -> found.group(1)).toList();
        if (inUrl.size() > 1 || inUrl.stream().anyMatch(String::isBlank)) {
            // "?user=" logged in as the operating system's user as well, and "?user=&user=root" as whichever the
            // driver read (an outside review of the empty setting's fix).
            throw new BadSetting("db.connection.url (DB_CONNECTION_URL) names its user "
                    + (inUrl.size() > 1 ? inUrl.size() + " times" : "empty") + " (?user=): name it once, or set "
                    + "db.connection.username (DB_CONNECTION_USERNAME) instead");
        }
        if (username == null && inUrl.isEmpty()) {
            throw new BadSetting("db.connection.username (DB_CONNECTION_USERNAME) is not set: MariaDB needs the user "
                    + "Herald connects as (README, Production)");
        }
    }

    /** The user Herald connects as: the setting, else the one the URL names ({@code ?user=herald}). */
    static String user(Map<String, String> settings) {
        String configured = settings.get("connection.username");
        if (configured != null) {
            return configured;
        }
        Matcher inUrl = URL_USER.matcher(settings.get("connection.url"));
        return inUrl.find() ? inUrl.group(1) : "(none)";
    }

    private static Map<String, String> awaitConnection(CompletableFuture<Map<String, String>> connected) {
        try {
            return connected.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
    }

    /**
     * Four H2 settings, unless the URL chooses them itself. H2 folds unquoted names to upper case; the row mappers
     * use the lower-case names MariaDB reports. And H2 writes a commit to its file up to 500 ms later by default
     * (WRITE_DELAY): it runs inside Herald, so a kill -9 lost interactions already answered 204 (29 of 484 in
     * TrackingDrainH2Test). With 0 every commit is in the file (the operating system's cache) before the answer.
     * And no trace file: H2 writes its errors into one beside the database, and to the console, stack traces and
     * all, when it cannot; Herald reports them itself. And H2 does not close the database from a shutdown hook of
     * its own (DB_CLOSE_ON_EXIT): the JVM runs every hook at once, and H2's closed the database under Herald's stop,
     * whose last writes (the webhook worker's release of its claims, 2 SIGTERMs in 5) then failed; Herald's stop
     * closes the pool last, and the database closes with its last connection.
     */
    static String connectionUrl(Dialect dialect, String url) {
        if (dialect != Dialect.H2) {
            return url;
        }
        String settings = url.toUpperCase(Locale.ROOT);
        String withCase = settings.contains("DATABASE_TO_") ? url : url + ";DATABASE_TO_LOWER=TRUE";
        String withDelay = settings.contains("WRITE_DELAY") ? withCase : withCase + ";WRITE_DELAY=0";
        String withTrace = settings.contains("TRACE_LEVEL_FILE") ? withDelay : withDelay + ";TRACE_LEVEL_FILE=0";
        return settings.contains("DB_CLOSE_ON_EXIT") ? withTrace : withTrace + ";DB_CLOSE_ON_EXIT=FALSE";
    }

    /**
     * A statement the databases spell differently is written once per dialect, its name ending in the dialect's
     * suffix ({@code count-daily-interaction-mariadb}); the one of this database takes the plain name.
     */
    static void chooseDialectStatements(Map<String, String> settings, Dialect dialect) {
        String suffix = dialect.statementSuffix();
        Map.copyOf(settings).forEach((key, sql) -> {
            if (key.startsWith("statements.") && key.endsWith(suffix)) {
                settings.put(key.substring(0, key.length() - suffix.length()), sql);
            }
        });
    }

    /**
     * Opens the schema connection, settles the serving settings on what answered and hands them to the pool
     * ({@code connected}), then migrates.
     */
    private static void migrate(Map<String, String> configured, Dialect dialect, Duration startupTimeout, Clock clock,
                                CompletableFuture<Map<String, String>> connected) {
        Connection schemaConnection;
        Map<String, String> settings;
        try {
            schemaConnection = SchemaConnection.open(configured, dialect, startupTimeout);
            settings = dialect == Dialect.MARIADB ? onGalera(schemaConnection, configured) : configured;
            if (settings != configured) {
                schemaConnection = reopenOnSyncedNode(schemaConnection, settings, startupTimeout);
            }
        } catch (RuntimeException e) {
            connected.completeExceptionally(e);
            throw e;
        }
        connected.complete(settings);
        try (Connection connection = schemaConnection) {
            new Migrations(connection, settings, dialect, clock,
                           () -> SchemaConnection.open(settings, dialect, startupTimeout)).run();
        } catch (SQLException e) {
            throw new IllegalStateException(DatabaseRefusals.migrationFailed(
                    e, DatabaseUrls.withoutSecrets(settings.get("connection.url")), user(settings)), e);
        }
        LOGGER.log(Level.DEBUG, "Schema up to date");
    }

    private static Map<String, String> onGalera(Connection connection, Map<String, String> configured) {
        try {
            Map<String, String> settings = GaleraNodes.servingSettings(connection, configured,
                                                                      name -> configured.get("statements." + name));
            if (settings != configured) {
                LOGGER.log(Level.INFO, "Database: a Galera cluster; added to the URL: " + GaleraNodes.added(configured)
                        + " (connections only to a Synced node, reads that see every earlier commit; docs/scale-out.md)");
            }
            return settings;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new IllegalStateException("The database at "
                    + DatabaseUrls.withoutSecrets(configured.get("connection.url")) + " did not say whether it is a "
                    + "Galera node: " + e.getMessage(), e);
        }
    }

    /** The node that answered first may be one cut off from the cluster: migrations run on a Synced one. */
    private static Connection reopenOnSyncedNode(Connection connection, Map<String, String> settings,
                                                 Duration startupTimeout) {
        try {
            if (GaleraNodes.synced(connection, name -> settings.get("statements." + name))) {
                return connection;
            }
        } catch (SQLException e) {
            // Asked again below, through the driver's own check.
        }
        closeQuietly(connection);
        return SchemaConnection.open(settings, Dialect.MARIADB, startupTimeout);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOGGER.log(Level.DEBUG, "Closing the schema connection failed", e);
        }
    }

    /** Whether a JDBC URL names several hosts, as one of a cluster does. */
    static boolean namesSeveralHosts(String url) {
        return SEVERAL_HOSTS.matcher(url).find();
    }

    /**
     * The pool is ours ({@link ServingPool}) and the statements go to the DB Client through its builder
     * ({@link #dbStatements}): some 300 of them made into a configuration tree only to be read back cost the start
     * time. The rest (parameters) configures it.
     */
    private static Map<String, String> clientSettings(Map<String, String> settings) {
        Map<String, String> client = new HashMap<>(settings);
        client.keySet().removeIf(key -> key.startsWith("connection.") || key.startsWith(STATEMENTS));
        return client;
    }

    private static DbStatements dbStatements(Map<String, String> statements) {
        DbStatements.Builder builder = DbStatements.builder();
        statements.forEach(builder::addStatement);
        return builder.build();
    }

    private static Config config(Map<String, String> settings) {
        return Config.builder(ConfigSources.create(settings))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }
}
