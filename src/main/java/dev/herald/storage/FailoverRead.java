package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A read on the hot path that a database node's failover delays instead of failing: when its connection is lost
 * (the node died or was cut off, and the driver moved the connection to another node, losing what it ran), the read
 * runs again, on whichever connection the pool gives, until {@code within} has passed. Measured: after node 1 of the
 * local Galera cluster was cut off under load, three tracking requests whose notification memory could not vouch for
 * (the change log unread for the failover's 6 s) answered 500 on "Driver has reconnect connection ... In progress
 * transaction was lost", 50 ms apart (cluster/faults.sh, 1 run in 4). Likewise a read whose wait for the cluster's
 * earlier commits ({@code wsrep_sync_wait}) ran out while the cluster re-formed, MariaDB's 1205: one tracking request
 * answered 500 so in a CI run of the same phase. A pool that gives no connection is not asked again: it waited
 * already, and a 500 comes within its wait.
 */
public final class FailoverRead {

    private static final System.Logger LOGGER = System.getLogger(FailoverRead.class.getName());

    private FailoverRead() {
    }

    /** @param within how long from now to keep trying; a request's deadline */
    public static <T> T run(Supplier<T> read, Duration within) {
        long started = System.nanoTime();
        long deadline = started + within.toNanos();
        for (int attempt = 1; ; attempt++) {
            try {
                T result = read.get();
                if (attempt > 1) {
                    LOGGER.log(Level.DEBUG, "A read whose connection was lost succeeded at attempt " + attempt + ", "
                            + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms after its first");
                }
                return result;
            } catch (RuntimeException e) {
                if (!(LostConnections.lost(e) || Transactions.isLockWaitTimeout(e))
                        || LostConnections.refusedByThePool(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            Transactions.pauseAfter(attempt);
        }
    }
}
