package dev.herald.storage;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.dbclient.DbStatementException;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Which failures of a hot-path read are run again within its deadline: those a node's failover causes, and no other.
 * The failures are MariaDB's own codes as the driver reports them; the cluster runs that met them are in
 * cluster/faults.sh (a node cut off under load) and LostCommitMariaDbTest (a connection cut).
 */
class FailoverReadTest {

    private static final Duration WITHIN = Duration.ofSeconds(5);

    @Test
    void aCausalReadThatTimedOutWhileTheClusterReformedIsReadAgain() {
        AtomicInteger attempts = new AtomicInteger();

        String read = FailoverRead.run(() -> attempts.incrementAndGet() == 1 ? failWith(new SQLException(
                "(conn=12) Lock wait timeout exceeded; try restarting transaction", "HY000", 1205)) : "row", WITHIN);

        assertThat(read, is("row"));
        assertThat(attempts.get(), is(2));
    }

    @Test
    void aLostConnectionIsReadAgain() {
        AtomicInteger attempts = new AtomicInteger();

        String read = FailoverRead.run(() -> attempts.incrementAndGet() == 1
                ? failWith(new SQLTransientConnectionException(
                        "Driver has reconnect connection after a communications link failure", "25S03"))
                : "row", WITHIN);

        assertThat(read, is("row"));
        assertThat(attempts.get(), is(2));
    }

    @Test
    void anyOtherFailureIsNotReadAgain() {
        AtomicInteger attempts = new AtomicInteger();

        assertThrows(DbStatementException.class, () -> FailoverRead.run(() -> {
            attempts.incrementAndGet();
            return failWith(new SQLException("Table 'herald.notifications' doesn't exist", "42S02", 1146));
        }, WITHIN));
        assertThat(attempts.get(), is(1));
    }

    @Test
    void aPoolThatGaveNoConnectionIsNotAskedAgain() {
        AtomicInteger attempts = new AtomicInteger();

        assertThrows(PoolRefused.class, () -> FailoverRead.run(() -> {
            attempts.incrementAndGet();
            throw new PoolRefused("No connection from the pool: timed out", new SQLTransientConnectionException(
                    "herald - Connection is not available, request timed out after 800ms."));
        }, WITHIN));
        assertThat(attempts.get(), is(1));
    }

    /** As Helidon's DB Client reports a statement's failure. */
    private static String failWith(SQLException cause) {
        throw new DbStatementException("Failed to execute Statement", "SELECT ...", cause);
    }
}
