package dev.herald.storage;

import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.herald.config.HeraldConfig;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TcpRelay;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Start-up waits for a database that is not there yet, far longer than a request would, and gives up with an
 * exception once {@code db.startup-timeout} has passed. MariaDB is reached through a relay that swallows
 * connections while down, as a server that is still starting does.
 */
@RequiresMariaDb
class DatabaseStartupMariaDbTest {

    @Test
    void startUpWaitsForTheDatabaseLongerThanARequestWould() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb(); TcpRelay relay = relayTo()) {
            relay.down();
            CompletableFuture<DbClient> opening = CompletableFuture.supplyAsync(
                    () -> open(database, relay, "PT60S"));

            // Three times the longest wait of a request for a connection (application.yaml: 800 ms).
            Thread.sleep(2400);
            assertThat("still waiting for the database", opening.isDone(), is(false));
            relay.up();

            try (DbClient client = opening.get(60, TimeUnit.SECONDS)) {
                assertThat(appliedMigrations(database), greaterThan(0));
            }
        }
    }

    @Test
    void startUpGivesUpAfterItsTimeout() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb(); TcpRelay relay = relayTo()) {
            relay.down();
            assertThrows(RuntimeException.class, () -> open(database, relay, "PT1S"));
            assertThat(appliedMigrations(database), is(0));
        }
    }

    /**
     * Several hosts, none answering: the start gives up within its time-out. The driver's own 120 retries made one
     * attempt last 30 s (a 3 s time-out ended after 30.5 s).
     */
    @Test
    void aUrlOfSeveralHostsNoneAnsweringGivesUpWithinTheTimeout() {
        Config config = waitingTwoSecondsFor("jdbc:mariadb:sequential://127.0.0.1:1,127.0.0.1:2/herald");
        long started = System.nanoTime();
        assertThrows(RuntimeException.class, () -> Database.open(config.get("db"), Clock.systemUTC()));
        assertThat((System.nanoTime() - started) / 1_000_000, lessThan(6_000L));
    }

    /**
     * A host name that does not resolve: the driver said only "Socket fail to connect to nosuchhost.invalid.
     * nosuchhost.invalid". The start still waits (a database container's name may resolve once it starts), and says
     * what is wrong.
     */
    @Test
    void aHostNameThatDoesNotResolveIsNamedInTheFailure() {
        Config config = waitingTwoSecondsFor("jdbc:mariadb://nosuchhost.invalid:3306/herald");
        RuntimeException failure = assertThrows(RuntimeException.class,
                                                () -> Database.open(config.get("db"), Clock.systemUTC()));
        assertThat(failure.getMessage(), containsString("(a host name in db.connection.url does not resolve: no address"
                + " is known for it from here; check its spelling, or this machine's DNS)"));
    }

    private static Config waitingTwoSecondsFor(String url) {
        return HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "db.startup-timeout", "PT2S",
                "db.connection.url", url,
                "db.connection.username", "root"))));
    }

    /**
     * Several hosts on servers that are not Galera nodes (a primary and its stand-by, say): nothing Galera's is added,
     * since the driver's {@code galeraAllowedState} would refuse every connection to such a server.
     */
    @Test
    void aUrlOfSeveralHostsOnOneServerThatIsNoGaleraNodeServesAsGiven() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb(); TcpRelay first = relayTo(); TcpRelay second = relayTo()) {
            String url = database.urlThroughPort(first.port())
                    .replace("jdbc:mariadb://", "jdbc:mariadb:sequential://127.0.0.1:" + second.port() + ",");
            Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                    "db.connection.url", url,
                    "db.connection.username", database.username(),
                    "db.connection.password", database.password()))));
            try (DbClient client = Database.open(config.get("db"), Clock.systemUTC()).client()) {
                assertThat(appliedMigrations(database), greaterThan(0));
                long projects = client.execute().createQuery("SELECT COUNT(*) AS n FROM projects").execute()
                        .findFirst().orElseThrow().column("n").getLong();
                assertThat(projects, is(0L));
            }
            try (Connection connection = database.connect()) {
                Map<String, String> settings = Database.settings(config.get("db"));
                assertThat(GaleraNodes.servingSettings(connection, settings, name -> settings.get("statements." + name)),
                           is(settings));
            }
        }
    }

    /** The pool's connections keep the driver's codecs: the driver's own reading of its options says so. */
    @Test
    void theServingPoolsConnectionsKeepTheDriversCodecs() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                    "db.connection.url", database.url(),
                    "db.connection.username", database.username(),
                    "db.connection.password", database.password()))));
            ServingDatabase serving = Database.open(config.get("db"), Clock.systemUTC());
            try (DbClient client = serving.client(); Connection connection = serving.pool().connection()) {
                String driversReading = connection.unwrap(org.mariadb.jdbc.Connection.class).getContext().getConf()
                        .initialUrl();
                assertThat(driversReading, containsString("cacheCodecs=true"));
            }
        }
    }

    /**
     * galeraAllowedState written in the URL for servers that are no Galera nodes: the driver only says
     * "Initialization command fail"; the start says what that means.
     */
    @Test
    void galeraAllowedStateOnServersThatAreNoGaleraNodesIsNamedInTheFailure() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb(); TcpRelay first = relayTo(); TcpRelay second = relayTo()) {
            String url = database.urlThroughPort(first.port())
                    .replace("jdbc:mariadb://", "jdbc:mariadb:sequential://127.0.0.1:" + second.port() + ",")
                    + "?galeraAllowedState=4";
            Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                    "db.startup-timeout", "PT1S",
                    "db.connection.url", url,
                    "db.connection.username", database.username(),
                    "db.connection.password", database.password()))));
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                                                         () -> Database.open(config.get("db"), Clock.systemUTC()));
            assertThat(refused.getMessage(), containsString("galeraAllowedState: no host in the URL is a Galera node"));
        }
    }

    /**
     * The serving pool opens once the database has answered: a start that never reaches it leaves no pool behind
     * (and no pool logging its own attempts while the start waits).
     */
    @Test
    void aStartThatCannotReachTheDatabaseOpensNoPool() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb(); TcpRelay relay = relayTo()) {
            relay.down();
            String pool = "never-opened-" + System.nanoTime();
            Config config = config(database, relay, "PT1S", Map.of("db.connection.poolName", pool));
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                                                         () -> Database.start(config.get("db"), Clock.systemUTC()));
            assertThat(refused.getMessage(), containsString("did not answer within db.startup-timeout (PT1S)"));
            assertThat("no pool thread was started", Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(thread -> thread.getName().startsWith(pool)), is(false));
        }
    }

    private static TcpRelay relayTo() {
        URI server = TestDatabase.mariadbServer();
        return new TcpRelay(server.getHost(), server.getPort());
    }

    private static DbClient open(TestDatabase database, TcpRelay relay, String startupTimeout) {
        return Database.open(config(database, relay, startupTimeout).get("db"), Clock.systemUTC()).client();
    }

    private static Config config(TestDatabase database, TcpRelay relay, String startupTimeout) {
        return config(database, relay, startupTimeout, Map.of());
    }

    private static Config config(TestDatabase database, TcpRelay relay, String startupTimeout,
                                 Map<String, String> more) {
        return HeraldConfig.withDefaults(List.of(ConfigSources.create(more), ConfigSources.create(Map.of(
                "db.startup-timeout", startupTimeout,
                "db.connection.url", database.urlThroughPort(relay.port()),
                "db.connection.username", database.username(),
                "db.connection.password", database.password(),
                "db.connection.dataSource.connectTimeout", "1000",
                "db.connection.dataSource.socketTimeout", "1000"))));
    }

    private static int appliedMigrations(TestDatabase database) throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet tables = statement.executeQuery(
                     "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                             + " AND table_name = 'schema_migrations'")) {
            tables.next();
            if (tables.getInt(1) == 0) {
                return 0;
            }
        }
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM schema_migrations")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
