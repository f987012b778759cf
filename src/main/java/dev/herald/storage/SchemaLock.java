package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One instance at a time migrates the schema: instances started at the same moment on an empty database (the
 * shipped Deployment's two replicas, an upgrade that brings a migration) each ran the migrations, and all but one
 * failed with {@code Duplicate entry … for key 'PRIMARY'}; a data migration run twice at once could have counted
 * twice. Serialised by the database, never by luck: a row in {@code schema_lock}, inserted by the instance that
 * migrates (its primary key lets one insert win, on one server by the key, on a Galera cluster by certification),
 * with a lease it renews while it works and deletes when done. The others wait while the lease is renewed, however
 * long the migrations take, then find them applied; a lease not renewed for {@value #LEASE_SECONDS} s (an instance
 * that died while migrating) is taken over, and at once when its holder's process is known to have ended
 * ({@link LockHolders}). Table locks and {@code GET_LOCK} would do on one server but are not
 * replicated by Galera.
 * <p>
 * A holder that finds its lock taken over, or cannot renew it before another instance may take it over, aborts its
 * migrations' connection, so that the statement in flight fails instead of running beside the new holder's (a
 * process paused for a whole lease, a renewal that cannot reach the database while the migration's statement can).
 */
final class SchemaLock implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(SchemaLock.class.getName());
    static final long LEASE_SECONDS = 60;
    private static final Duration LEASE = Duration.ofSeconds(LEASE_SECONDS);
    private static final Duration RENEW_EVERY = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration SAY_STILL_WAITING = Duration.ofSeconds(10);

    private final Connection connection;
    private final Function<String, String> named;
    private final Clock clock;
    private final String holder;
    private final Duration renewEvery;
    private final Supplier<Connection> renewals;
    /** The migrations' session on H2, which stops a statement in flight only when its session is cancelled. */
    private final Long h2Session;
    private final Thread renewer;
    private volatile boolean released;
    /** Why the lock is no longer this instance's, once it is not. */
    private volatile String lost;

    private SchemaLock(Connection connection, Function<String, String> named, Clock clock, String holder,
                       Supplier<Connection> renewals, Duration renewEvery, long expiresAt, Long h2Session) {
        this.connection = connection;
        this.named = named;
        this.clock = clock;
        this.holder = holder;
        this.renewEvery = renewEvery;
        this.renewals = renewals;
        this.h2Session = h2Session;
        this.renewer = Thread.ofPlatform().daemon().name("herald-schema-lock")
                .start(() -> renewUntilReleased(renewals, expiresAt));
    }

    /**
     * Waits for the lock as long as another instance holds it and renews it, then takes it.
     *
     * @param connection the migrations' connection, in auto-commit mode
     * @param renewals   opens a connection of its own for renewing the lease while a long migration runs
     */
    static SchemaLock acquire(Connection connection, Function<String, String> named, Dialect dialect, Clock clock,
                              Supplier<Connection> renewals) throws SQLException {
        return acquire(connection, named, dialect, clock, renewals, RENEW_EVERY);
    }

    /** @param renewEvery how often the lease is renewed, a quarter of it but in tests */
    static SchemaLock acquire(Connection connection, Function<String, String> named, Dialect dialect, Clock clock,
                              Supplier<Connection> renewals, Duration renewEvery) throws SQLException {
        Long h2Session = dialect == Dialect.H2 ? h2Session(connection, named) : null;
        try (PreparedStatement create = connection.prepareStatement(named.apply("create-schema-lock-table"))) {
            create.execute();
        }
        LockHolders holders = LockHolders.ofThisProcess();
        String holder = holders.newName();
        long saidAt = 0;
        while (true) {
            long expiresAt = clock.millis() + LEASE.toMillis();
            if (tryInsert(connection, named, holder, expiresAt)) {
                return new SchemaLock(connection, named, clock, holder, renewals, renewEvery, expiresAt, h2Session);
            }
            Optional<Held> held = held(connection, named);
            long now = clock.millis();
            if (held.isEmpty()) {
                continue;
            }
            if (held.get().expiresAt() < now) {
                LOGGER.log(Level.WARNING, "Schema migrations: the lock of " + held.get().holder() + " was not renewed "
                        + "since " + Instant.ofEpochMilli(held.get().expiresAt() - LEASE.toMillis())
                        + " (an instance that stopped while migrating?); taking it over");
                takeOver(connection, named, held.get());
                continue;
            }
            if (holders.hasEnded(held.get().holder())) {
                LOGGER.log(Level.WARNING, "Schema migrations: the lock of " + held.get().holder() + " is held by a "
                        + "process of this machine that has ended (it stopped while migrating); taking it over");
                takeOver(connection, named, held.get());
                continue;
            }
            if (now - saidAt >= SAY_STILL_WAITING.toMillis()) {
                LOGGER.log(Level.INFO, "Schema migrations: waiting for " + held.get().holder() + ", which is migrating"
                        + " or stopped while migrating; if it does not renew its lease, this instance takes the lock"
                        + " over at " + Instant.ofEpochMilli(held.get().expiresAt()));
                saidAt = now;
            }
            pause(POLL);
        }
    }

    /**
     * Before each migration: the lease is renewed and still this instance's, or the migrations stop (another instance
     * took the lock over after this one failed to renew it for a whole lease).
     */
    void requireHeld() throws SQLException {
        if (lost != null) {
            throw new SQLException("Schema migration lock lost: " + lost);
        }
        if (!renew(connection, clock.millis() + LEASE.toMillis())) {
            throw new SQLException("Schema migration lock lost: another instance took it over after " + holder
                                           + " did not renew it for " + LEASE_SECONDS + " s");
        }
    }

    /** What a migration's failure was: the lock's loss, when that is why its connection was aborted. */
    SQLException explain(SQLException failure) {
        String reason = lost;
        return reason == null ? failure : new SQLException("Schema migration lock lost: " + reason
                + "; the migration in flight was stopped", failure);
    }

    @Override
    public void close() throws SQLException {
        released = true;
        renewer.interrupt();
        if (lost != null) {
            return; // no longer this instance's row, or its connection aborted: the lease ends by itself
        }
        try (PreparedStatement release = connection.prepareStatement(named.apply("release-schema-lock"))) {
            release.setString(1, holder);
            release.executeUpdate();
        }
    }

    private boolean renew(Connection on, long expiresAt) throws SQLException {
        try (PreparedStatement renew = on.prepareStatement(named.apply("renew-schema-lock"))) {
            renew.setLong(1, expiresAt);
            renew.setString(2, holder);
            return renew.executeUpdate() == 1;
        }
    }

    private void renewUntilReleased(Supplier<Connection> renewals, long expiresAt) {
        Connection own = null;
        long renewedUntil = expiresAt;
        try {
            while (!released) {
                pause(renewEvery);
                if (released) {
                    return;
                }
                try {
                    if (own == null) {
                        own = renewals.get();
                    }
                    long until = clock.millis() + LEASE.toMillis();
                    if (!renew(own, until)) {
                        lose("another instance took it over after " + holder + " did not renew it for "
                                     + LEASE_SECONDS + " s");
                        return;
                    }
                    renewedUntil = until;
                } catch (SQLException | RuntimeException e) {
                    LOGGER.log(Level.WARNING, "Schema migrations: the lock's lease not renewed: " + e.getMessage());
                    own = closeQuietly(own);
                    // Another instance may take it over at the lease's end: stop a renewal before that.
                    if (clock.millis() + renewEvery.toMillis() >= renewedUntil) {
                        lose("its lease could not be renewed since " + Instant.ofEpochMilli(renewedUntil
                                - LEASE.toMillis()) + ", and another instance may take it over at "
                                + Instant.ofEpochMilli(renewedUntil));
                        return;
                    }
                }
            }
        } catch (IllegalStateException interrupted) {
            // released
        } finally {
            closeQuietly(own);
        }
    }

    private void lose(String reason) {
        if (released) {
            return;
        }
        lost = reason;
        LOGGER.log(Level.WARNING, "Schema migrations: the lock is lost (" + reason + "); stopping the migration in "
                + "flight");
        if (h2Session != null) {
            // H2 closes a connection only between statements, and a statement's cancel reaches only its own command.
            try (Connection other = renewals.get();
                 PreparedStatement cancel = other.prepareStatement(named.apply("cancel-session-h2"))) {
                cancel.setLong(1, h2Session);
                cancel.execute();
            } catch (SQLException | RuntimeException e) {
                LOGGER.log(Level.WARNING, "Schema migrations: the migration's statement could not be cancelled, it ends "
                        + "before the migrations stop: " + e.getMessage());
            }
        }
        try {
            connection.abort(command -> Thread.ofPlatform().daemon().name("herald-schema-abort").start(command));
        } catch (SQLException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "Schema migrations: the migration's connection could not be aborted: "
                    + e.getMessage());
        }
    }

    private static long h2Session(Connection connection, Function<String, String> named) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(named.apply("select-session-id-h2"));
             ResultSet row = select.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static boolean tryInsert(Connection connection, Function<String, String> named, String holder,
                                     long expiresAt) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(named.apply("insert-schema-lock"))) {
            insert.setString(1, holder);
            insert.setLong(2, expiresAt);
            insert.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (isHeldElsewhere(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * The row's key is taken (one server, H2) or another node's insert won certification (Galera reports a
     * deadlock, SQLSTATE 40001).
     */
    static boolean isHeldElsewhere(SQLException e) {
        String state = String.valueOf(e.getSQLState());
        return e instanceof SQLIntegrityConstraintViolationException || state.startsWith("23") || state.equals("40001");
    }

    private static Optional<Held> held(Connection connection, Function<String, String> named) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(named.apply("select-schema-lock"));
             ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(new Held(row.getString("holder"), row.getLong("expires_at")))
                              : Optional.empty();
        }
    }

    /** Deletes exactly the stale row seen: if its holder renewed it meanwhile, nothing is deleted. */
    private static void takeOver(Connection connection, Function<String, String> named, Held stale) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(named.apply("delete-stale-schema-lock"))) {
            delete.setString(1, stale.holder());
            delete.setLong(2, stale.expiresAt());
            delete.executeUpdate();
        }
    }

    private static Connection closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // gone already
            }
        }
        return null;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the schema migration lock", e);
        }
    }

    private record Held(String holder, long expiresAt) {
    }
}
