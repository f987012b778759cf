package dev.herald.storage;

import java.time.Clock;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

/**
 * Opens the DbClient described by the {@code db} configuration and brings its schema up to date.
 */
public final class Database {

    private Database() {
    }

    /**
     * Connects and migrates. Fails when the database cannot be reached at start: a service that could never
     * have created its schema should say so at once rather than answer 500 to everything.
     */
    public static DbClient open(Config dbConfig, Clock clock) {
        String url = dbConfig.get("connection.url").asString()
                .orElseThrow(() -> new IllegalArgumentException("db.connection.url is not set"));
        Dialect dialect = Dialect.of(url);
        DbClient client = DbClient.create(withUrl(dbConfig, connectionUrl(dialect, url)));
        new Migrations(client, dialect, clock).run();
        return client;
    }

    /** H2 folds unquoted names to upper case; the row mappers use the lower-case names MariaDB reports. */
    static String connectionUrl(Dialect dialect, String url) {
        boolean caseChosen = url.toUpperCase(Locale.ROOT).contains("DATABASE_TO_");
        return dialect == Dialect.H2 && !caseChosen ? url + ";DATABASE_TO_LOWER=TRUE" : url;
    }

    private static Config withUrl(Config dbConfig, String url) {
        Map<String, String> settings = new HashMap<>(dbConfig.detach().asMap().orElseGet(Map::of));
        settings.put("connection.url", url);
        return Config.builder(ConfigSources.create(settings))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }
}
