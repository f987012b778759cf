package dev.herald.storage;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;

import com.zaxxer.hikari.HikariConfig;

/**
 * Reads every {@code db.connection} setting as HikariCP and the driver will: HikariCP reads its settings only when the
 * pool opens, after the migrations began, so they are read before anything is migrated; the driver reads its options
 * when it connects, which start-up would take for a database that does not answer and retry until its time-out, so
 * a failed attempt to connect asks the driver about them first ({@link SchemaConnection}). Not before the first
 * attempt: the driver's parse of its options reflects over a hundred fields, some 8 % of the main thread's start
 * (a JFR profile, issue 33), and a first attempt that succeeds has read them itself.
 */
final class ConnectionChecks {

    private static final String CONNECTION = "connection.";

    private ConnectionChecks() {
    }

    /**
     * @param settings the {@code db} settings, spelled as HikariCP reads them
     * @throws BadSetting naming the setting HikariCP refuses (the driver's options: {@link #checkDriverOptions})
     */
    static void check(Map<String, String> settings) {
        Properties pool = Settings.under(settings, CONNECTION);
        pool.remove("url");
        pool.stringPropertyNames().forEach(name -> {
            if (!HikariSettings.isDriverOption(name) && !name.startsWith("helidon.")) {
                checkPoolSetting(name, pool.getProperty(name));
            }
        });
    }

    /**
     * @param settings the {@code db} settings, spelled as HikariCP reads them
     * @throws BadSetting when the MariaDB driver refuses its URL or an option under {@code db.connection.dataSource}
     */
    static void checkDriverOptions(Map<String, String> settings, Dialect dialect) {
        if (dialect != Dialect.MARIADB) {
            return;
        }
        Properties pool = Settings.under(settings, CONNECTION);
        Properties driver = new Properties();
        pool.stringPropertyNames().stream().filter(HikariSettings::isDriverOption).forEach(name ->
                driver.setProperty(name.substring(HikariSettings.DRIVER_PREFIX.length()), pool.getProperty(name)));
        checkDriverOptions(pool.getProperty("url"), driver, pool.getProperty("password"));
    }

    /** One at a time, so that the line names the one HikariCP refuses (its own message may only say "abc"). */
    private static void checkPoolSetting(String name, String value) {
        Properties one = new Properties();
        one.setProperty(name, value);
        try {
            new HikariConfig(one);
        } catch (RuntimeException e) {
            throw new BadSetting(refused("db.connection." + name, value) + ": " + e.getMessage());
        }
    }

    /** The MariaDB driver reads its URL and options here as it would when connecting. */
    private static void checkDriverOptions(String url, Properties options, String password) {
        try {
            Driver driver = DriverManager.getDriver(url);
            driver.getPropertyInfo(url, options);
        } catch (SQLException e) {
            throw new BadSetting("db.connection.url (DB_CONNECTION_URL) or a driver option under db.connection.dataSource "
                    + "is refused by the MariaDB driver: "
                    + DatabaseUrls.withoutSecrets(String.valueOf(e.getMessage()), url, password));
        }
    }

    private static String refused(String key, String value) {
        return key + " (" + ConfigValues.environmentName(key) + ") is \"" + value + "\", which HikariCP refuses";
    }
}
