package dev.herald.storage;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class DatabaseTest {

    @Test
    void migrationsHaveNoSocketTimeoutAndWaitAsLongAsStartUpMay() {
        Map<String, String> migrating = Database.forMigrations(Map.of(
                "connection.connectionTimeout", "800",
                "connection.maximumPoolSize", "20",
                "connection.dataSource.socketTimeout", "1000"), Duration.ofSeconds(45));

        assertThat(migrating.get("connection.connectionTimeout"), is("45000"));
        assertThat(migrating.get("connection.maximumPoolSize"), is("1"));
        assertThat(migrating.get("connection.dataSource.socketTimeout"), is("0"));
    }

    @Test
    void noSocketTimeoutIsAddedWhereTheDriverTakesNone() {
        assertThat(Database.forMigrations(Map.of(), Duration.ofSeconds(1))
                           .containsKey("connection.dataSource.socketTimeout"), is(false));
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
    void h2NamesAreFoldedToLowerCaseUnlessTheUrlChooses() {
        assertThat(Database.connectionUrl(Dialect.H2, "jdbc:h2:mem:x"), is("jdbc:h2:mem:x;DATABASE_TO_LOWER=TRUE"));
        assertThat(Database.connectionUrl(Dialect.H2, "jdbc:h2:mem:x;DATABASE_TO_UPPER=FALSE"),
                   is("jdbc:h2:mem:x;DATABASE_TO_UPPER=FALSE"));
        assertThat(Database.connectionUrl(Dialect.MARIADB, "jdbc:mariadb://h/db"), is("jdbc:mariadb://h/db"));
    }
}
