package dev.herald.storage;

import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The one connection that migrations run on: no pool (nothing else shares it), waited for as long as start-up may
 * wait, and without the serving socket time-out, so that a migration of a large table is not cut short.
 */
final class SchemaConnection {

    private static final String DRIVER_SETTINGS = "connection.dataSource.";
    // Driver options arrive in lower case (HikariSettings); the driver reads them in any case.
    private static final String SOCKET_TIMEOUT = "sockettimeout";
    private static final String CONNECT_TIMEOUT = "connecttimeout";
    // Each attempt at most this long, so that a server that accepts and never answers is reported while waited for.
    private static final long LONGEST_ATTEMPT_MILLIS = 5_000;
    private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

    private SchemaConnection() {
    }

    /**
     * Tries until the database answers or the start-up time-out has passed, saying when it starts to wait and every
     * few seconds after; the last failure says why. A refusal that no wait can cure (a wrong password, a database
     * that does not exist) ends the start at once.
     *
     * @param settings the {@code db} settings of the serving pool, {@code connection.*} among them
     */
    static Connection open(Map<String, String> settings, Dialect dialect, Duration startupTimeout) {
        String url = settings.get("connection.url");
        String shownUrl = DatabaseUrls.withoutSecrets(url);
        DatabaseWait wait = new DatabaseWait(shownUrl, startupTimeout);
        while (true) {
            try {
                return DriverManager.getConnection(url, properties(settings, dialect, wait.timeLeft()));
            } catch (SQLException e) {
                // An option the driver refuses fails every attempt: said at once, not waited on.
                ConnectionChecks.checkDriverOptions(settings, dialect);
                // The driver's words may hold the URL as written, password and all: only a masked copy goes on, and
                // the exception is not chained for the same reason.
                String reason = explained(e, DatabaseUrls.withoutSecrets(String.valueOf(e.getMessage()), url,
                                                                         settings.get("connection.password")), url);
                DatabaseRefusals.throwIfPermanent(e, reason, shownUrl, Database.user(settings));
                // The attempt itself may have used up the time: measure what is left after it.
                if (wait.timeLeft().compareTo(RETRY_PAUSE) <= 0) {
                    throw new IllegalStateException("The database at " + shownUrl + " did not answer within "
                            + "db.startup-timeout (" + startupTimeout + "): " + reason
                            + "; is it running and reachable from here? (DB_STARTUP_DASH_TIMEOUT waits longer)");
                }
                wait.failed(reason);
                pause();
            }
        }
    }

    /**
     * The driver's words, and what they mean where they say too little: a host name that does not resolve; with
     * {@code galeraAllowedState}, "Initialization command fail" when no host is a Galera node in an allowed state: a
     * cluster that has not formed yet (worth the wait), or servers that are no Galera nodes at all (the option must
     * go).
     */
    static String explained(SQLException e, String reason, String url) {
        // The driver says "Socket fail to connect to db.example. db.example": the lookup's failure, in its words.
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return reason + " (a host name in db.connection.url does not resolve: no address is known for it from "
                        + "here; check its spelling, or this machine's DNS)";
            }
        }
        if (reason.contains("Initialization command fail")
                && url.toLowerCase(Locale.ROOT).contains("galeraallowedstate=")) {
            return reason + " (galeraAllowedState: no host in the URL is a Galera node in a state it allows; a cluster"
                    + " still forming, or servers that are no Galera nodes, for which the option must be removed)";
        }
        return reason;
    }

    /**
     * The driver settings of the serving pool ({@code connection.dataSource.*}, as HikariCP passes them), less the
     * socket time-out. On MariaDB an attempt to connect lasts at most what is left of the start-up time-out (a
     * server that is starting may accept the connection and not answer); H2 opens a file and refuses settings it
     * does not know.
     */
    static Properties properties(Map<String, String> settings, Dialect dialect, Duration left) {
        Properties properties = new Properties();
        Settings.under(settings, DRIVER_SETTINGS).forEach((name, value) ->
                properties.setProperty(((String) name).toLowerCase(Locale.ROOT), (String) value));
        properties.remove(SOCKET_TIMEOUT);
        if (dialect == Dialect.MARIADB) {
            boundConnectTimeout(properties, left);
        }
        putIfSet(properties, "user", settings.get("connection.username"));
        putIfSet(properties, "password", settings.get("connection.password"));
        return properties;
    }

    private static void boundConnectTimeout(Properties properties, Duration left) {
        long leftMillis = Math.max(1, Math.min(left.toMillis(), LONGEST_ATTEMPT_MILLIS));
        long connectTimeout = Long.parseLong(properties.getProperty(CONNECT_TIMEOUT, String.valueOf(leftMillis)));
        properties.setProperty(CONNECT_TIMEOUT, String.valueOf(Math.min(connectTimeout, leftMillis)));
    }

    private static void putIfSet(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_PAUSE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the database", e);
        }
    }
}
