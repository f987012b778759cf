package dev.herald.storage;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * The line a migration that waits for its tables says: which migration, what it waits for on one line, that the
 * running instances serve meanwhile, and what the operator can do.
 */
class YieldingDdlTest {

    @Test
    void aStatementOfTheTransactionIsNamedByItsFirstWordAlone() {
        String statement = "SELECT *\n  FROM interactions\n  WHERE password = 'hunter2' AND " + "x = 1 AND ".repeat(40)
                + "y = 2";
        String line = YieldingDdl.waiting("31 (an index dropped)", new OpenTransactions(List.of(
                new OpenTransactions.OpenTransaction(42, 75, "analyst", "10.0.0.5:51234", "herald", "Query",
                                                     statement),
                new OpenTransactions.OpenTransaction(43, 3, "herald", "10.0.0.6:40000", "herald", "Sleep", null)),
                Optional.empty()), 12_400);

        assertThat(line, containsString("Schema migration 31 (an index dropped) waits for the transaction of thread 42"
                + " (analyst@10.0.0.5:51234, database herald, open 75 s, running: SELECT …)"));
        assertThat("another session's words stay out of Herald's log", line.contains("hunter2"), is(false));
        assertThat(line, containsString("…) (and 1 more open transactions)"));
        assertThat(line, containsString("the instances already running keep serving meanwhile"));
        assertThat(line, containsString("(KILL 42). Waited 12 s so far"));
        assertThat(line.contains("\n"), is(false));
        assertThat(line.length() < 600, is(true));
    }

    @Test
    void anIdleTransactionIsSaidToBeIdle() {
        String line = YieldingDdl.waiting("31 (an index dropped)", new OpenTransactions(List.of(
                new OpenTransactions.OpenTransaction(7, 14, "backup", "localhost", null, "Sleep", null)),
                Optional.empty()), 0);

        assertThat(line, containsString("thread 7 (backup@localhost, open 14 s, idle in its transaction)"));
    }

    @Test
    void aUserWithoutProcessPrivilegeIsToldWhyNoTransactionIsNamed() {
        String line = YieldingDdl.waiting("31 (an index dropped)", new OpenTransactions(List.of(), Optional.of(
                "this database user lacks the PROCESS privilege that names them")), 3_000);

        assertThat(line, containsString("which this instance cannot name (this database user lacks the PROCESS"
                + " privilege that names them), holding up writes to that table at most 1 s a try"));
        assertThat(line, containsString("SHOW PROCESSLIST as an administrator"));
        assertThat(line, not(containsString("KILL")));
    }
}
