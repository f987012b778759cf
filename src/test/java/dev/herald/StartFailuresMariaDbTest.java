package dev.herald;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;

import dev.herald.support.ChildHerald;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.herald.StartFailuresTest.assertOneLine;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/**
 * What waiting cannot cure ends the start at once, with what to do, even with 30 s of db.startup-timeout left: a
 * wrong password, a database that does not exist, a user that is not set. No line of the driver's own.
 */
@RequiresMariaDb
class StartFailuresMariaDbTest {

    @TempDir
    Path directory;

    @Test
    void aWrongPasswordEndsTheStartAtOnce() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            ChildHerald.Ended ended = timed(config(database.url(), database.username()),
                                            Map.of("DB_CONNECTION_PASSWORD", "wrong-password"));
            assertOneLine(ended, "The database at " + database.url() + " refused user '" + database.username()
                    + "': ");
            assertThat(ended.log(), containsString("Access denied for user '" + database.username() + "'"));
            assertThat(ended.log(), containsString("; check db.connection.username and db.connection.password "
                    + "(DB_CONNECTION_USERNAME, DB_CONNECTION_PASSWORD)\n"));
            assertThat(ended.log(), not(containsString("wrong-password")));
        }
    }

    @Test
    void anUnknownDatabaseEndsTheStartAtOnce() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            String name = "herald_nowhere_" + System.nanoTime();
            String url = "jdbc:" + TestDatabase.mariadbServer() + name;
            ChildHerald.Ended ended = timed(config(url, database.username()),
                                            Map.of("DB_CONNECTION_PASSWORD", database.password()));
            assertOneLine(ended, "The database at " + url + " refused user '" + database.username() + "': ");
            assertThat(ended.log(), containsString("Unknown database '" + name + "'; "
                    + "create the database (README, Production) or correct db.connection.url (DB_CONNECTION_URL)\n"));
        }
    }

    /**
     * A user with fewer rights than the README grants (here SELECT alone): the migration's refusal said "CREATE
     * command denied" and nothing of what to do (an operator's trial); a database it may not see, misspelt or not,
     * says both causes, since MariaDB answers both alike.
     */
    @Test
    void aUserWithoutTheRightsHeraldNeedsIsToldWhichToGrant() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            String user = "herald_select_" + System.nanoTime() % 1_000_000;
            String name = database.url().substring(database.url().lastIndexOf('/') + 1).replaceFirst("\\?.*", "");
            try (Connection root = DriverManager.getConnection(database.url(), database.username(),
                                                               database.password())) {
                root.createStatement().execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw'");
                root.createStatement().execute("GRANT SELECT ON `" + name + "`.* TO '" + user + "'@'%'");
            }
            try {
                ChildHerald.Ended ended = timed(config(database.url(), user), Map.of("DB_CONNECTION_PASSWORD", "pw"));
                assertOneLine(ended, "Schema migration failed: (conn=");
                assertThat(ended.log(), containsString(") CREATE command denied to user '" + user + "'"));
                assertThat(ended.log(), containsString("; grant '" + user + "' its rights on that database: SELECT,"
                        + " INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP (README, Production)\n"));

                String elsewhere = database.url().replace("/" + name, "/" + name + "_misspelt");
                assertThat(timed(config(elsewhere, user), Map.of("DB_CONNECTION_PASSWORD", "pw")).log(),
                           containsString("; grant the user its rights on that database (README, Production), or"
                                   + " correct its name in db.connection.url (DB_CONNECTION_URL): MariaDB says the same"
                                   + " of a database that does not exist\n"));
            } finally {
                try (Connection root = DriverManager.getConnection(database.url(), database.username(),
                                                                   database.password())) {
                    root.createStatement().execute("DROP USER '" + user + "'@'%'");
                }
            }
        }
    }

    /** It used to log in as the bundled H2 default, sa, and be refused. */
    @Test
    void aMariaDbWithoutUserIsRefusedBeforeConnecting() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            assertOneLine(timed(config(database.url(), null), Map.of()),
                          "db.connection.username (DB_CONNECTION_USERNAME) is not set: MariaDB needs the user Herald "
                                  + "connects as (README, Production)");
        }
    }

    /**
     * An empty user (a line {@code DB_CONNECTION_USERNAME=} in an environment file) made the driver log in as the
     * operating system's user, root on an operator's trial, where the least-privileged user was meant.
     */
    @Test
    void anEmptyUserIsRefusedBeforeConnecting() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            for (Map<String, String> empty : java.util.List.of(Map.of("DB_CONNECTION_USERNAME", ""),
                                                                Map.of("DB_CONNECTION_USERNAME", " "))) {
                assertOneLine(timed(config(database.url(), database.username()), empty),
                              "db.connection.username (DB_CONNECTION_USERNAME) is empty: set the user Herald connects"
                                      + " as, or leave the setting out when the URL names one (?user=)");
            }
            assertOneLine(timed(config(database.url(), ""), Map.of()),
                          "db.connection.username (DB_CONNECTION_USERNAME) is empty: set the user Herald connects"
                                  + " as, or leave the setting out when the URL names one (?user=)");
            // In the URL too (an outside review of this fix): empty, or named twice, whichever the driver reads.
            String separator = database.url().contains("?") ? "&" : "?";
            assertOneLine(timed(config(database.url() + separator + "user=", null), Map.of()),
                          "db.connection.url (DB_CONNECTION_URL) names its user empty (?user=): name it once, or set"
                                  + " db.connection.username (DB_CONNECTION_USERNAME) instead");
            assertOneLine(timed(config(database.url() + separator + "user=&user=root", null), Map.of()),
                          "db.connection.url (DB_CONNECTION_URL) names its user 2 times (?user=): name it once");
        }
    }

    private static String config(String url, String username) {
        return """
                server:
                  port: 0
                  host: 127.0.0.1
                admin:
                  allow-short-tokens: true
                db:
                  startup-timeout: PT30S
                  connection:
                    url: "%s"
                """.formatted(url) + (username == null ? "" : "    username: \"" + username + "\"\n");
    }

    /** Well within db.startup-timeout: nothing was retried. */
    private ChildHerald.Ended timed(String yaml, Map<String, String> environment) throws Exception {
        long started = System.nanoTime();
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, yaml, environment);
        assertThat(Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(15)));
        assertThat("the driver's own warnings are not logged", ended.log(), not(containsString("ErrorPacket")));
        return ended;
    }
}
