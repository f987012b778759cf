package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A migration script's statements on MariaDB, run so that they never hold up the writers of the tables they change
 * for long. A DDL statement (DROP INDEX, ALTER TABLE) needs its table's metadata lock to itself: it waits behind every
 * open transaction that has read the table (a backup's {@code mariadb-dump --single-transaction}, an analyst's
 * session), and while it waits every new write to the table queues behind it. With the server's
 * {@code lock_wait_timeout} (a day) the instances still serving during a rolling upgrade failed every tracking request
 * while a backup ran, and the migrating one said nothing.
 * <p>
 * So each try is first made without waiting for the lock at all ({@code lock_wait_timeout} 0): writers never queue
 * behind it. Only after {@value #REFUSALS_BEFORE_SAFETY_NET} refusals in a row while no transaction has been open since
 * an earlier second ({@link OpenTransactions}: a busy table, whose writers' moments a try without waiting can keep
 * missing) does one try wait, {@value #SAFETY_NET_SECONDS} s at most: the longest a writer is held up. Where this
 * database user may not see the transactions (no PROCESS privilege) that try comes every {@code BLIND_SAFETY_NET_EVERY}
 * at most, since it cannot tell a busy table from a long transaction. A refused try is made again without a bound but
 * the operator's: the transaction ends, or its session is ended, or this instance is stopped (it holds the migration
 * lock's lease meanwhile, {@link SchemaLock}). Once it has waited {@code SAY_AFTER}, a line says what it waits for,
 * then every {@code SAY_STILL_WAITING} and whenever another transaction is first in its way.
 * docs/operations.md#long-transactions-during-a-migration.
 */
final class YieldingDdl {

    private static final System.Logger LOGGER = System.getLogger(YieldingDdl.class.getName());
    /** ER_LOCK_WAIT_TIMEOUT: the metadata lock (or a row lock of a data statement) was not had in time. */
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final int WITHOUT_WAITING = 0;
    private static final int SAFETY_NET_SECONDS = 1;
    private static final int REFUSALS_BEFORE_SAFETY_NET = 4;
    private static final Duration BLIND_SAFETY_NET_EVERY = Duration.ofSeconds(10);
    /** Between tries while a transaction is seen open: it is not going to end within milliseconds. */
    private static final Duration PAUSE_WHILE_HELD = Duration.ofSeconds(1);
    /** Between tries while none is: a writer's moment passes quickly. */
    private static final Duration PAUSE_WHILE_UNSEEN = Duration.ofMillis(250);
    /** A wait shorter than this is a busy table's ordinary moment, not worth a line. */
    private static final Duration SAY_AFTER = Duration.ofSeconds(2);
    private static final Duration SAY_STILL_WAITING = Duration.ofSeconds(10);
    private static final long NONE_NAMED = -1;

    private final Connection connection;
    private final Function<String, String> named;
    private final Clock clock;

    /** @param connection the migrations' connection, in auto-commit mode */
    YieldingDdl(Connection connection, Function<String, String> named, Clock clock) {
        this.connection = connection;
        this.named = named;
        this.clock = clock;
    }

    /**
     * Runs each statement in order, each waiting its turn as above; a script's statements may run again, as they are
     * written to after an interrupted start.
     *
     * @param migration as the log names it: "31 (the index of … dropped)"
     */
    void run(String migration, List<String> statements) throws SQLException {
        for (String sql : statements) {
            runYielding(migration, sql);
        }
        // A failure ends the start, and the connection with it: only a success leaves the session to reset.
        try (Statement reset = connection.createStatement()) {
            reset.execute(named.apply("reset-migration-lock-wait"));
        }
    }

    private void runYielding(String migration, String sql) throws SQLException {
        long startedAt = clock.millis();
        long saidAt = -1;
        long saidOf = NONE_NAMED;
        int refusalsInARow = 0;
        long safetyNetAt = Long.MIN_VALUE / 2;
        boolean lostAtTheEnd = false;
        while (true) {
            OpenTransactions open = OpenTransactions.on(connection, named);
            long now = clock.millis();
            boolean blind = open.unseenBecause().isPresent();
            // A long change (an index built on a large table) that lost the lock only at its end, to a writer's
            // moment, waits the safety net's second on its next try: without waiting it could lose every time.
            boolean safetyNet = lostAtTheEnd || open.none() && refusalsInARow >= REFUSALS_BEFORE_SAFETY_NET
                    && (!blind || now - safetyNetAt >= BLIND_SAFETY_NET_EVERY.toMillis());
            lockWait(safetyNet ? SAFETY_NET_SECONDS : WITHOUT_WAITING);
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
                if (saidAt >= 0) {
                    LOGGER.log(Level.INFO, "Schema migration " + migration + ": its tables are free after "
                            + seconds(clock.millis() - startedAt) + " of waiting; migrating on");
                }
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() != LOCK_WAIT_TIMEOUT) {
                    throw e;
                }
            }
            long refusedAt = clock.millis();
            lostAtTheEnd = !safetyNet && refusedAt - now > SAFETY_NET_SECONDS * 1000L;
            if (safetyNet) {
                refusalsInARow = 0;
                safetyNetAt = refusedAt;
            } else {
                refusalsInARow++;
            }
            // Said again at once when another transaction is first in the way: one begun within the second is named
            // as soon as it is seen, the next in line when the first ends.
            long blocker = open.none() ? NONE_NAMED : open.transactions().getFirst().threadId();
            boolean firstTime = saidAt < 0 && refusedAt - startedAt >= SAY_AFTER.toMillis();
            boolean another = saidAt >= 0 && blocker != NONE_NAMED && blocker != saidOf;
            boolean again = saidAt >= 0 && refusedAt - saidAt >= SAY_STILL_WAITING.toMillis();
            if (firstTime || another || again) {
                LOGGER.log(Level.WARNING, waiting(migration, open, refusedAt - startedAt));
                saidAt = refusedAt;
                saidOf = blocker;
            }
            pause(open.none() && !safetyNet ? PAUSE_WHILE_UNSEEN : PAUSE_WHILE_HELD);
        }
    }

    private void lockWait(int seconds) throws SQLException {
        try (PreparedStatement set = connection.prepareStatement(named.apply("set-migration-lock-wait"))) {
            set.setInt(1, seconds);
            set.execute();
        }
    }

    /** One line: which migration, what it waits for, that the others serve meanwhile, and what the operator can do. */
    static String waiting(String migration, OpenTransactions open, long waitedMillis) {
        String what;
        String end;
        if (open.none()) {
            what = "a session that holds a table it changes, which this instance cannot name ("
                    + open.unseenBecause().orElse("no transaction open for a second or more") + "), holding up writes"
                    + " to that table at most " + SAFETY_NET_SECONDS + " s a try";
            end = "let that session finish, or end it (SHOW PROCESSLIST as an administrator names it)";
        } else {
            OpenTransactions.OpenTransaction oldest = open.transactions().getFirst();
            int others = open.transactions().size() - 1;
            what = "the transaction of " + oldest.describe()
                    + (others > 0 ? " (and " + others + " more open transactions)" : "")
                    + ", which holds a table it changes (a backup's dump, an open session), without holding up writes"
                    + " to it";
            end = "let it finish, or end that session (KILL " + oldest.threadId() + ")";
        }
        return "Schema migration " + migration + " waits for " + what + ": the instances already running keep serving"
                + " meanwhile; " + end + ". Waited " + seconds(waitedMillis) + " so far";
    }

    private static String seconds(long millis) {
        return (millis / 1000) + " s";
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while a schema migration waited for its tables", e);
        }
    }
}
