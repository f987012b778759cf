package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

/**
 * Opens the DbClient described by the {@code db} configuration and brings its schema up to date.
 *
 * <p>Start-up and serving need opposite time-outs. A request must give up on the database quickly (decisions §1:
 * 500 within 2 seconds), while start-up should wait for a database that is still coming up (a container started
 * beside it, a cold disk) and a migration may rightly run for minutes on a large table. So migrations run through
 * a pool of their own that waits up to {@code db.startup-timeout} for a connection and has no socket time-out.
 */
public final class Database {

    private static final System.Logger LOGGER = System.getLogger(Database.class.getName());
    private static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    private static final String SOCKET_TIMEOUT = "connection.dataSource.socketTimeout";

    private Database() {
    }

    /**
     * Migrates, then opens the pool that serves requests. Fails when the database cannot be reached within the
     * start-up time-out: a service that could never have created its schema should say so rather than answer
     * 500 to everything.
     */
    public static DbClient open(Config dbConfig, Clock clock) {
        String url = dbConfig.get("connection.url").asString()
                .orElseThrow(() -> new IllegalArgumentException("db.connection.url is not set"));
        Dialect dialect = Dialect.of(url);
        Duration startupTimeout = dbConfig.get("startup-timeout").as(Duration.class).orElse(DEFAULT_STARTUP_TIMEOUT);

        Map<String, String> serving = new HashMap<>(dbConfig.detach().asMap().orElseGet(Map::of));
        serving.remove("startup-timeout");
        serving.put("connection.url", connectionUrl(dialect, url));
        chooseDialectStatements(serving, dialect);

        try (DbClient migrating = DbClient.create(config(forMigrations(serving, startupTimeout)))) {
            new Migrations(migrating, dialect, clock).run();
        }
        LOGGER.log(Level.DEBUG, "Schema up to date");
        return DbClient.create(config(serving));
    }

    /** H2 folds unquoted names to upper case; the row mappers use the lower-case names MariaDB reports. */
    static String connectionUrl(Dialect dialect, String url) {
        boolean caseChosen = url.toUpperCase(Locale.ROOT).contains("DATABASE_TO_");
        return dialect == Dialect.H2 && !caseChosen ? url + ";DATABASE_TO_LOWER=TRUE" : url;
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

    /** One connection, waited for patiently; a statement may run as long as it needs (0: no socket time-out). */
    static Map<String, String> forMigrations(Map<String, String> serving, Duration startupTimeout) {
        Map<String, String> settings = new HashMap<>(serving);
        settings.put("connection.connectionTimeout", String.valueOf(startupTimeout.toMillis()));
        settings.put("connection.maximumPoolSize", "1");
        settings.put("connection.poolName", "herald-migrations");
        if (settings.containsKey(SOCKET_TIMEOUT)) {
            settings.put(SOCKET_TIMEOUT, "0");
        }
        return settings;
    }

    private static Config config(Map<String, String> settings) {
        return Config.builder(ConfigSources.create(settings))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }
}
