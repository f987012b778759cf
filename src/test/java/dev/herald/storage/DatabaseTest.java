package dev.herald.storage;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import dev.herald.config.BadSetting;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DatabaseTest {

    @Test
    void migrationsHaveNoSocketTimeoutAndConnectWithinWhatIsLeftOfStartUp() {
        Properties properties = SchemaConnection.properties(Map.of(
                "connection.url", "jdbc:mariadb://db/herald",
                "connection.username", "herald",
                "connection.password", "secret",
                "connection.maximumPoolSize", "20",
                "connection.dataSource.socketTimeout", "1000",
                "connection.dataSource.connectTimeout", "5000",
                "connection.dataSource.useCompression", "true"), Dialect.MARIADB, Duration.ofSeconds(2));

        // Driver options in lower case: the driver reads them in any case, and one spelling cannot shadow another.
        assertThat(properties, is(Map.of("user", "herald", "password", "secret", "connecttimeout", "2000",
                                          "usecompression", "true")));
    }

    @Test
    void aShorterConnectTimeoutOfTheServingPoolIsKept() {
        Properties properties = SchemaConnection.properties(Map.of(
                "connection.dataSource.connectTimeout", "1000"), Dialect.MARIADB, Duration.ofSeconds(30));

        assertThat(properties.getProperty("connecttimeout"), is("1000"));
    }

    @Test
    void h2IsGivenNoSettingItDoesNotKnow() {
        Properties properties = SchemaConnection.properties(Map.of(
                "connection.username", "sa",
                "connection.password", ""), Dialect.H2, Duration.ofSeconds(30));

        assertThat(properties, is(Map.of("user", "sa", "password", "")));
    }

    @Test
    void aStatementWrittenPerDatabaseTakesItsPlainNameFromThisDatabasesVersion() {
        Map<String, String> settings = new HashMap<>(Map.of(
                "statements.upsert-h2", "MERGE",
                "statements.upsert-mariadb", "INSERT ON DUPLICATE KEY",
                "statements.select-all", "SELECT"));

        Database.chooseDialectStatements(settings, Dialect.MARIADB);

        assertThat(settings.get("statements.upsert"), is("INSERT ON DUPLICATE KEY"));
        assertThat(settings.get("statements.select-all"), is("SELECT"));
    }

    @Test
    void h2NamesAreFoldedToLowerCaseCommitsWrittenAtOnceNoTraceFileAndNoCloseAtExitUnlessTheUrlChooses() {
        assertThat(Database.connectionUrl(Dialect.H2, "jdbc:h2:mem:x"),
                   is("jdbc:h2:mem:x;DATABASE_TO_LOWER=TRUE;WRITE_DELAY=0;TRACE_LEVEL_FILE=0;DB_CLOSE_ON_EXIT=FALSE"));
        String chosen = "jdbc:h2:mem:x;DATABASE_TO_UPPER=FALSE;WRITE_DELAY=100;TRACE_LEVEL_FILE=1;DB_CLOSE_ON_EXIT=TRUE";
        assertThat(Database.connectionUrl(Dialect.H2, chosen), is(chosen));
        assertThat(Database.connectionUrl(Dialect.MARIADB, "jdbc:mariadb://h/db"), is("jdbc:mariadb://h/db"));
    }

    /** Environment variables deliver HikariCP's names in lower case; where both spellings are set, theirs wins. */
    @Test
    void hikariNamesFromTheEnvironmentAreSpelledAsHikariReadsThemAndWin() {
        Map<String, String> spelled = HikariSettings.spelledForHikari(Map.of(
                "connection.maximumPoolSize", "20",
                "connection.maximumpoolsize", "3",
                "connection.datasource.sockettimeout", "1000",
                "connection.url", "jdbc:h2:mem:x",
                "statements.ping", "SELECT 1"));
        assertThat(spelled, is(Map.of("connection.maximumPoolSize", "3",
                                      "connection.dataSource.sockettimeout", "1000",
                                      "connection.url", "jdbc:h2:mem:x",
                                      "statements.ping", "SELECT 1")));
    }

    /** The driver reads options in any case: one spelling reaches it, the environment's value (lower case) winning. */
    @Test
    void aDriverOptionFromTheEnvironmentWinsOverTheFilesSpelling() {
        Map<String, String> spelled = HikariSettings.spelledForHikari(Map.of(
                "connection.dataSource.socketTimeout", "1000",
                "connection.datasource.sockettimeout", "5000"));
        assertThat(spelled, is(Map.of("connection.dataSource.sockettimeout", "5000")));
        Properties schema = SchemaConnection.properties(spelled, Dialect.MARIADB, Duration.ofSeconds(30));
        assertThat("migrations run without the serving socket time-out", schema.containsKey("sockettimeout"),
                   is(false));
    }

    /** MariaDB's driver reads the user from the URL too: a URL that names one needs no db.connection.username. */
    @Test
    void aMariaDbUrlThatNamesItsUserNeedsNoUsernameSetting() {
        Map<String, String> settings = new HashMap<>(Map.of(
                "connection.url", "jdbc:mariadb://db/herald?user=herald&password=secret"));
        Database.chooseUser(settings, Dialect.MARIADB);
        assertThat(Database.user(settings), is("herald"));
        Map<String, String> without = new HashMap<>(Map.of("connection.url", "jdbc:mariadb://db/herald"));
        assertThrows(BadSetting.class, () -> Database.chooseUser(without, Dialect.MARIADB));
    }

    /** The driver keeps its codecs on MariaDB unless the URL or a dataSource setting says otherwise; H2 has none. */
    @Test
    void mariaDbConnectionsKeepTheDriversCodecsUnlessTheOperatorChooses() {
        Map<String, String> mariadb = new HashMap<>(Map.of("connection.url", "jdbc:mariadb://db/herald"));
        Database.cacheCodecs(mariadb, Dialect.MARIADB);
        assertThat(mariadb.get(Database.CACHE_CODECS), is("true"));
        assertThat(SchemaConnection.properties(mariadb, Dialect.MARIADB, Duration.ofSeconds(30))
                           .getProperty("cachecodecs"), is("true"));

        Map<String, String> inUrl = new HashMap<>(Map.of("connection.url",
                                                          "jdbc:mariadb://db/herald?cacheCodecs=false"));
        Database.cacheCodecs(inUrl, Dialect.MARIADB);
        assertThat(inUrl.containsKey(Database.CACHE_CODECS), is(false));

        Map<String, String> set = new HashMap<>(Map.of("connection.url", "jdbc:mariadb://db/herald",
                                                        Database.CACHE_CODECS, "false"));
        Database.cacheCodecs(set, Dialect.MARIADB);
        assertThat(set.get(Database.CACHE_CODECS), is("false"));

        Map<String, String> h2 = new HashMap<>(Map.of("connection.url", "jdbc:h2:mem:x"));
        Database.cacheCodecs(h2, Dialect.H2);
        assertThat(h2.containsKey(Database.CACHE_CODECS), is(false));
    }
}
