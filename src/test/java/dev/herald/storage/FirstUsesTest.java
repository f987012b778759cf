package dev.herald.storage;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariConfig;

import org.mariadb.jdbc.Configuration;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** What FirstUses does ahead still exists in the libraries: an upgrade that renames it would lose the head start. */
class FirstUsesTest {

    @Test
    void hikariCpStillHasTheClassItInitialisesAtTheFirstClose() throws ClassNotFoundException {
        Class<?> closed = Class.forName(FirstUses.CLOSED_CONNECTION, false, HikariConfig.class.getClassLoader());
        assertThat(closed.getName(), is(FirstUses.CLOSED_CONNECTION));
    }

    @Test
    void theDriverParsesTheUrlWithoutConnecting() throws SQLException {
        assertThat(Configuration.parse(FirstUses.MARIADB_URL).database(), is("herald"));
    }
}
