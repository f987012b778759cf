package dev.herald.storage;

import java.sql.SQLException;
import java.util.Locale;

/**
 * The answers of a database that waiting cannot change: the start ends at once, with what to do, instead of
 * retrying a wrong password until {@code db.startup-timeout} has passed.
 */
final class DatabaseRefusals {

    // MariaDB's error numbers (https://mariadb.com/kb/en/mariadb-error-code-reference/).
    private static final int MARIADB_ACCESS_DENIED = 1045;
    private static final int MARIADB_NO_PASSWORD_ACCESS_DENIED = 1698;
    private static final int MARIADB_DATABASE_ACCESS_DENIED = 1044;
    private static final int MARIADB_UNKNOWN_DATABASE = 1049;
    private static final int MARIADB_HOST_NOT_ALLOWED = 1130;
    private static final int MARIADB_TABLE_ACCESS_DENIED = 1142;
    // H2's.
    private static final int H2_WRONG_USER_OR_PASSWORD = 28000;
    private static final int H2_DATABASE_NOT_FOUND = 90146;
    private static final int H2_DATABASE_IN_USE = 90020;
    private static final int H2_READ_ONLY = 90097;

    private static final String CREDENTIALS = "check db.connection.username and db.connection.password "
            + "(DB_CONNECTION_USERNAME, DB_CONNECTION_PASSWORD)";

    private static final String H2_FILES = "check that the directory in db.connection.url (DB_CONNECTION_URL) exists "
            + "or can be created, and that this user may write there";

    private DatabaseRefusals() {
    }

    /**
     * @param reason the driver's message, secrets masked (the exception is not chained: its message may hold them)
     * @param url  the URL without secrets
     * @param user the configured user, or null
     * @throws IllegalStateException when waiting cannot help, saying what to do
     */
    static void throwIfPermanent(SQLException e, String reason, String url, String user) {
        reason = firstLine(reason);
        String advice = advice(e);
        if (isEmbedded(url)) {
            // Embedded H2 opens its files in this process: there is no server that could come up while we wait.
            throw new IllegalStateException("The embedded H2 database at " + url + " could not be opened: "
                    + reason + "; " + (advice != null ? advice : H2_FILES));
        }
        if (advice != null) {
            throw new IllegalStateException("The database at " + url + " refused "
                    + (user == null ? "the connection" : "user '" + user + "'") + ": " + reason + "; " + advice);
        }
    }

    /**
     * What a failed migration says, in one line: the driver's first line (H2 puts the statement on the next), and what
     * to do where a write was refused for want of a right that waiting cannot give (an operator's trial: a read-only
     * H2 file gave "The database is read only; SQL statement:" and nothing more).
     *
     * @param url the URL without secrets
     */
    static String migrationFailed(SQLException e, String url, String user) {
        String message = firstLine(String.valueOf(e.getMessage()));
        String advice = switch (e.getErrorCode()) {
            case H2_READ_ONLY -> "the user Herald runs as may not write the H2 files of " + url + ": give it write"
                    + " access to them and to their directory";
            case MARIADB_TABLE_ACCESS_DENIED, MARIADB_DATABASE_ACCESS_DENIED -> "grant " + (user == null ? "the user"
                    : "'" + user + "'") + " its rights on that database: SELECT, INSERT, UPDATE, DELETE, CREATE,"
                    + " ALTER, INDEX, DROP (README, Production)";
            default -> null;
        };
        return "Schema migration failed: " + message + (advice == null ? "" : "; " + advice);
    }

    /** A driver's message as one line: H2 puts the statement it ran on the lines after "; SQL statement:". */
    private static String firstLine(String message) {
        String first = message.lines().findFirst().orElse("").strip();
        return first.endsWith("; SQL statement:") ? first.substring(0, first.length() - "; SQL statement:".length())
                : first;
    }

    /** H2 in this process, not an H2 server reached over TCP. */
    static boolean isEmbedded(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        return lower.startsWith("jdbc:h2:") && !lower.startsWith("jdbc:h2:tcp:") && !lower.startsWith("jdbc:h2:ssl:");
    }

    private static String advice(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return switch (e.getErrorCode()) {
            case MARIADB_ACCESS_DENIED, MARIADB_NO_PASSWORD_ACCESS_DENIED, H2_WRONG_USER_OR_PASSWORD -> CREDENTIALS;
            // MariaDB answers so for a database that does not exist too, to a user with no right to know.
            case MARIADB_DATABASE_ACCESS_DENIED -> "grant the user its rights on that database (README, Production), "
                    + "or correct its name in db.connection.url (DB_CONNECTION_URL): MariaDB says the same of a "
                    + "database that does not exist";
            case MARIADB_UNKNOWN_DATABASE, H2_DATABASE_NOT_FOUND -> "create the database (README, Production) or "
                    + "correct db.connection.url (DB_CONNECTION_URL)";
            case MARIADB_HOST_NOT_ALLOWED -> "create the user for the address Herald connects from (README, Production)";
            case H2_DATABASE_IN_USE -> "another process (another Herald?) has this H2 file open; stop it, or give "
                    + "this one its own file in db.connection.url";
            default -> state.startsWith("28") ? CREDENTIALS
                    : e.getMessage() != null && e.getMessage().startsWith("No suitable driver")
                    ? "db.connection.url (DB_CONNECTION_URL) is not a URL the H2 or MariaDB driver reads, "
                    + "e.g. jdbc:mariadb://db.internal:3306/herald"
                    : null;
        };
    }
}
