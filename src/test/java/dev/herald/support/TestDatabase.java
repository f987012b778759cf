package dev.herald.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;

/**
 * A fresh, empty database for one test class: in-memory H2, or a new database on the MariaDB server.
 */
public final class TestDatabase implements AutoCloseable {

    /** Where the MariaDB tests run: override with HERALD_TEST_MARIADB_URL (a server URL ending in '/'). */
    private static final String MARIADB_SERVER = System.getenv().getOrDefault(
            "HERALD_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/");
    private static final String MARIADB_USER = System.getenv().getOrDefault("HERALD_TEST_MARIADB_USER", "root");
    private static final String MARIADB_PASSWORD = System.getenv().getOrDefault("HERALD_TEST_MARIADB_PASSWORD", "");

    /** What Herald opens H2 with (storage.Database); a connection of the test's own must agree. */
    private static final String H2_NAMES = ";DATABASE_TO_LOWER=TRUE";

    private final String name;
    private final String url;
    private final String username;
    private final String password;
    private final boolean mariadb;

    private TestDatabase(String name, String url, String username, String password, boolean mariadb) {
        this.name = name;
        this.url = url;
        this.username = username;
        this.password = password;
        this.mariadb = mariadb;
    }

    public static TestDatabase h2() {
        String name = uniqueName();
        // DB_CLOSE_DELAY=-1: the database lives as long as the JVM, not only while a connection is open.
        return new TestDatabase(name, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1" + H2_NAMES, "sa", "", false);
    }

    /** An H2 file database under {@code directory}, as the service runs by default. */
    public static TestDatabase h2File(java.nio.file.Path directory) {
        return new TestDatabase("herald", "jdbc:h2:file:" + directory.resolve("herald").toAbsolutePath() + H2_NAMES,
                                "sa", "", false);
    }

    /** A new database on the MariaDB server; classes that use it are marked {@link RequiresMariaDb}. */
    public static TestDatabase mariadb() {
        String name = uniqueName();
        try (Connection server = DriverManager.getConnection(MARIADB_SERVER, MARIADB_USER, MARIADB_PASSWORD);
             Statement statement = server.createStatement()) {
            statement.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        } catch (SQLException e) {
            throw new IllegalStateException("Could not create a MariaDB test database", e);
        }
        return new TestDatabase(name, MARIADB_SERVER + name, MARIADB_USER, MARIADB_PASSWORD, true);
    }

    /** A connection to the MariaDB server as its administrator, for what a test sets up outside a database. */
    public static Connection mariadbAdministrator() throws SQLException {
        return DriverManager.getConnection(MARIADB_SERVER, MARIADB_USER, MARIADB_PASSWORD);
    }

    /** Why MariaDB cannot be used, or empty when it answers. */
    static Optional<String> mariadbProblem() {
        try (Connection ignored = DriverManager.getConnection(MARIADB_SERVER, MARIADB_USER, MARIADB_PASSWORD)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("MariaDB is not reachable at " + MARIADB_SERVER + " as " + MARIADB_USER
                                       + " (" + e.getMessage() + "). Start it (README, 'Tests') or point"
                                       + " HERALD_TEST_MARIADB_URL at one.");
        }
    }

    public String url() {
        return url;
    }

    /** This MariaDB database reached through another port of this machine (a {@link TcpRelay}). */
    public String urlThroughPort(int port) {
        if (!mariadb) {
            throw new IllegalStateException("Only a MariaDB database is reached over TCP");
        }
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + name;
    }

    /** The host and port of the MariaDB server the tests use. */
    public static java.net.URI mariadbServer() {
        return java.net.URI.create(MARIADB_SERVER.substring("jdbc:".length()));
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    /** A connection of its own, outside the service's pool: what it sees is committed. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, username, password);
    }

    @Override
    public void close() throws SQLException {
        String drop = mariadb ? "DROP DATABASE " + name : "SHUTDOWN";
        try (Connection connection = mariadb
                ? DriverManager.getConnection(MARIADB_SERVER, MARIADB_USER, MARIADB_PASSWORD)
                : connect();
             Statement statement = connection.createStatement()) {
            statement.execute(drop);
        }
    }

    private static String uniqueName() {
        return "herald_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }
}
