package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import dev.herald.outbox.Outbox;
import dev.herald.storage.BatchId;
import dev.herald.storage.Dialect;
import dev.herald.storage.MultiRowSql;
import dev.herald.storage.ServingDatabase;
import dev.herald.userstate.StateRows;
import dev.herald.userstate.StateWrite;
import dev.herald.userstate.UserState;
import dev.herald.userstate.UserStateEvents;

/**
 * Writes interactions with the daily totals that stats read, inside the caller's transaction: all of a batch in
 * one multi-row insert, then each distinct total (day, notification, type, locale) it adds to in one multi-row upsert, so
 * the totals always agree with the interactions. Plain JDBC: a batch's size varies, and the DB Client has no
 * multi-row statement.
 *
 * <p>Where the database takes scripts (MariaDB), {@link #writeAndCommit} sends the batch's id, the insert, the upsert
 * and COMMIT in one round trip: the writer spends its time waiting for the database's answers, and on a machine whose
 * cores are busy each answer waits for a core too (measured: three round trips took some 3.4 ms a batch under load;
 * the id's insert, a round trip of its own until 2026-11-30, some 0.1 ms of every commit's 0.9).
 *
 * <p>Not on a Galera node: there a transaction that another node's write set aborts (Galera's "brute force" abort, a
 * certification conflict found while the script runs) fails the statement it was in, and the server then runs the
 * script's remaining statements in a new transaction, its COMMIT included (measured on cluster/run.sh's nodes: a
 * script aborted halfway committed its second half while the driver reported the deadlock). The batch's totals, ids
 * or rows after the abort would be committed without those before it, and the batch written again whole: daily totals
 * above the rows, seen when one event id reached two instances on two nodes at once (cluster/check.sh). So there the
 * script leaves COMMIT to the caller, whose rollback after the failure undoes what the server ran after the abort.
 *
 * <p>Where a project's endpoint wants them, the batch's interactions are written as events in the same transaction
 * ({@link InteractionEvents}): a group commit marks the rows its events take and writes a range naming them;
 * tracking without batching copies them into the events.
 *
 * <p>An interaction sent with a user token also records the user's state in the same transaction (an impression:
 * seen; a click: read; docs/behaviour.md#per-user-state): its 204 means both are committed, and a batch without
 * tokens runs exactly the statements it ran before.
 */
final class InteractionStore {

    private static final long DAY_MILLIS = 86_400_000L;
    /** Totals in one order on every instance, so two instances' batches never wait for each other in a cycle. */
    private static final Comparator<DailyTotal> TOTAL_ORDER = Comparator.comparing(DailyTotal::projectId)
            .thenComparingLong(DailyTotal::dayNumber)
            .thenComparing(DailyTotal::notificationId)
            .thenComparing(DailyTotal::type)
            .thenComparing(DailyTotal::locale);

    private final String insert;
    private final String insertRow;
    private final String addToTotals;
    private final String addToTotalsRow;
    private final String addToTotalsEnd;
    private final Dialect dialect;
    private final boolean scripts;
    private final String showWsrepOn;
    /** Whether a script ends in COMMIT: null until the first script's connection said whether it is a Galera node. */
    private volatile Boolean commitsInScript;
    private final StateRows states;
    private final InteractionEvents events;
    private final Outbox outbox;
    private final UserStateEvents stateEvents;
    private final EventIds eventIds;
    /**
     * The most lanes a writer numbers its rows for; a group commit has at most this many in flight
     * (TrackingBatchSettings checks it).
     */
    static final int MAX_LANES = 1024;

    /**
     * This instance's daily total rows (migration 9), one set per writer lane, numbered from here: writers of several
     * instances never change the same row, so on a Galera cluster they never conflict at certification, whichever
     * nodes they write through; nor do two transactions in flight on one instance, so neither waits for the other's
     * lock on a day's total of the same notification (all the traffic of one notification met at one row). Chosen
     * anew at each start; a collision of two instances only brings back the conflicts that {@code ExactlyOnceCommit}
     * retries.
     */
    private final int firstWriter = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE - MAX_LANES);

    /** @param clock the time a state write stamps as its row's change (StateRows) */
    InteractionStore(ServingDatabase database, Outbox outbox, Clock clock) {
        this.events = new InteractionEvents(outbox);
        this.outbox = outbox;
        this.stateEvents = new UserStateEvents(database, outbox);
        this.insert = database.statement("insert-interactions");
        this.insertRow = database.statement("insert-interactions-row");
        this.addToTotals = database.statement("add-to-daily-totals");
        this.addToTotalsRow = database.statement("add-to-daily-totals-row");
        this.addToTotalsEnd = database.statement("add-to-daily-totals-end");
        this.dialect = database.dialect();
        this.scripts = dialect.takesScripts();
        this.showWsrepOn = scripts ? database.statement("show-wsrep-on") : null;
        this.states = new StateRows(database, clock);
        this.eventIds = new EventIds(database);
    }

    /** How many interactions sent again with a stored event id were answered without being stored again. */
    long repeatedEvents() {
        return eventIds.repeated();
    }

    /**
     * The batch, in the caller's transaction, to {@code lane}'s daily total rows: two statements. For a lane that
     * transactions share (tracking without batching): its events copy the interactions.
     */
    void write(Connection connection, int lane, List<Interaction> sent) throws SQLException {
        eventIds.writeUnseen(connection, sent, batch -> writeUnseen(connection, lane, batch));
    }

    private void writeUnseen(Connection connection, int lane, List<Interaction> batch) throws SQLException {
        if (batch.isEmpty()) {
            return;
        }
        // The insert first: the events' items carry each row's id, which it gives (one row a transaction here,
        // DirectInteractionWriter's, so one key whatever a driver returns for a multi-row insert).
        long[] ids = new long[batch.size()];
        try (PreparedStatement statement = connection.prepareStatement(insertSql(batch.size()),
                                                                       Statement.RETURN_GENERATED_KEYS)) {
            bindInteractions(statement, 1, batch, InteractionEvents.Marked.NONE);
            statement.executeUpdate();
            try (ResultSet keys = statement.getGeneratedKeys()) {
                for (int row = 0; row < ids.length && keys.next(); row++) {
                    ids[row] = keys.getLong(1);
                }
            }
        }
        events.write(connection, firstWriter + lane, batch, ids);
        writeEventIds(connection, batch);
        writeTotalsAndStates(connection, lane, batch);
    }

    private void writeEventIds(Connection connection, List<Interaction> batch) throws SQLException {
        int rows = EventIds.count(batch);
        if (rows > 0) {
            try (PreparedStatement statement = connection.prepareStatement(eventIds.insertSql(rows))) {
                EventIds.bind(statement, 1, batch);
                statement.executeUpdate();
            }
        }
    }

    /** The same for a group commit's batch, whose events name its rows: by the insert's first seq and its mark. */
    private void writeMarked(Connection connection, int lane, List<Interaction> batch) throws SQLException {
        if (batch.isEmpty()) {
            return;
        }
        InteractionEvents.Marked marked = events.mark(connection, firstWriter + lane, batch);
        try (PreparedStatement statement = connection.prepareStatement(insertSql(batch.size()),
                                                                       Statement.RETURN_GENERATED_KEYS)) {
            bindInteractions(statement, 1, batch, marked);
            statement.executeUpdate();
            if (!marked.ranges().isEmpty()) {
                long firstSeq;
                try (ResultSet keys = statement.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("The interactions' insert returned no key");
                    }
                    firstSeq = keys.getLong(1);
                }
                outbox.insertRanges(connection, marked.ranges(), firstSeq, marked.batch());
            }
        }
        writeEventIds(connection, batch);
        writeTotalsAndStates(connection, lane, batch);
    }

    private void writeTotalsAndStates(Connection connection, int lane, List<Interaction> batch) throws SQLException {
        Map<DailyTotal, Long> totals = dailyTotals(batch);
        try (PreparedStatement statement = connection.prepareStatement(totalsSql(totals.size()))) {
            bindTotals(statement, 1, lane, totals);
            statement.executeUpdate();
        }
        List<StateRows.Row> userStates = userStates(batch);
        if (!userStates.isEmpty()) {
            stateEvents.write(connection, "interactions:" + (firstWriter + lane), userStates);
            try (PreparedStatement statement = connection.prepareStatement(states.sql(userStates.size()))) {
                states.bind(statement, 1, userStates);
                statement.executeUpdate();
            }
        }
    }

    /**
     * The batch and its commit. On a connection that takes scripts ({@code allowMultiQueries}), one round trip;
     * the database stops at the first statement that fails, so COMMIT runs only if both writes did (on a Galera
     * node, the caller commits: see above). Otherwise statement by statement, and the caller commits. A group commit's events name its rows. An interaction whose
     * event id was stored before is left out; a batch of such only writes its id.
     */
    void writeAndCommit(Connection connection, int lane, BatchId id, List<Interaction> sent) throws SQLException {
        if (!scripts) {
            try {
                id.insert(connection);
                eventIds.writeUnseen(connection, sent, batch -> writeMarked(connection, lane, batch));
            } catch (SQLException | RuntimeException e) {
                events.failed(firstWriter + lane);
                throw e;
            }
            return;
        }
        eventIds.writeUnseen(connection, sent, batch -> writeScript(connection, lane, id, batch));
    }

    /** The batch, its mark and (but on a Galera node) the commit in one script. */
    private void writeScript(Connection connection, int lane, BatchId id, List<Interaction> batch) throws SQLException {
        String commit = commitsInScript(connection) ? ";\nCOMMIT" : "";
        if (batch.isEmpty()) {
            try (PreparedStatement statement = connection.prepareStatement(id.sql() + commit)) {
                id.bind(statement, 1);
                execute(statement);
            }
            return;
        }
        Map<DailyTotal, Long> totals = dailyTotals(batch);
        List<StateRows.Row> userStates = userStates(batch);
        int eventIdRows = EventIds.count(batch);
        try {
            // Events first: an event opened, or a user's state change, is written before the script, whose COMMIT
            // takes them with it. The ranges naming the batch's rows follow their insert, whose first seq they take.
            InteractionEvents.Marked marked = events.mark(connection, firstWriter + lane, batch);
            Outbox.Deferred ranges = new Outbox.Deferred();
            outbox.rangesAfterInsert(ranges, marked.ranges(), marked.batch());
            if (!userStates.isEmpty()) {
                stateEvents.write(connection, "interactions:" + (firstWriter + lane), userStates);
            }
            String script = id.sql() + ";\n" + insertSql(batch.size()) + ";\n" + ranges.sql()
                    + (eventIdRows == 0 ? "" : eventIds.insertSql(eventIdRows) + ";\n") + totalsSql(totals.size())
                    + (userStates.isEmpty() ? "" : ";\n" + states.sql(userStates.size())) + commit;
            try (PreparedStatement statement = connection.prepareStatement(script)) {
                int next = bindInteractions(statement, id.bind(statement, 1), batch, marked);
                next = ranges.bind(statement, next);
                next = EventIds.bind(statement, next, batch);
                next = bindTotals(statement, next, lane, totals);
                states.bind(statement, next, userStates);
                execute(statement);
            }
        } catch (SQLException | RuntimeException e) {
            events.failed(firstWriter + lane);
            throw e;
        }
    }

    /**
     * Whether scripts may end in COMMIT: not on a Galera node (a server without wsrep, or with it off, says nothing or
     * OFF). Asked once, of the first script's connection; every node of a cluster answers alike.
     */
    private boolean commitsInScript(Connection connection) throws SQLException {
        Boolean known = commitsInScript;
        if (known == null) {
            try (PreparedStatement statement = connection.prepareStatement(showWsrepOn);
                 ResultSet rows = statement.executeQuery()) {
                known = !(rows.next() && "ON".equalsIgnoreCase(rows.getString(2)));
            }
            commitsInScript = known;
        }
        return known;
    }

    private static void execute(PreparedStatement script) throws SQLException {
        script.execute();
        // Every result read, so that a failure of a later statement is thrown here, not lost.
        while (script.getMoreResults() || script.getUpdateCount() != -1) {
            // nothing to read but the outcome
        }
    }

    /** What the writer's connection needs of the driver to take {@link #writeAndCommit}'s script. */
    Map<String, String> scriptProperties() {
        return dialect.scriptProperties();
    }

    private static int bindInteractions(PreparedStatement statement, int first, List<Interaction> batch,
                                        InteractionEvents.Marked marked) throws SQLException {
        int parameter = first;
        for (int row = 0; row < batch.size(); row++) {
            Interaction interaction = batch.get(row);
            statement.setString(parameter++, interaction.notificationId());
            statement.setString(parameter++, interaction.projectId());
            statement.setString(parameter++, interaction.type().wireName());
            statement.setLong(parameter++, interaction.occurredAt());
            statement.setLong(parameter++, interaction.receivedAt());
            statement.setString(parameter++, interaction.endpoint().storedName());
            if (interaction.metadata() == null) {
                statement.setNull(parameter++, Types.VARCHAR);
            } else {
                statement.setString(parameter++, interaction.metadata());
            }
            statement.setString(parameter++, interaction.locale());
            if (marked.takes(row)) {
                statement.setLong(parameter++, marked.batch());
            } else {
                statement.setNull(parameter++, Types.BIGINT);
            }
        }
        return parameter;
    }

    private int bindTotals(PreparedStatement statement, int first, int lane, Map<DailyTotal, Long> totals)
            throws SQLException {
        int parameter = first;
        for (Map.Entry<DailyTotal, Long> total : totals.entrySet()) {
            statement.setString(parameter++, total.getKey().projectId());
            statement.setLong(parameter++, total.getKey().dayNumber());
            statement.setString(parameter++, total.getKey().notificationId());
            statement.setString(parameter++, total.getKey().type());
            statement.setInt(parameter++, firstWriter + lane);
            statement.setString(parameter++, total.getKey().locale());
            statement.setLong(parameter++, total.getValue());
        }
        return parameter;
    }

    /** The state rows of the batch's interactions sent with a user token: an impression is seen, a click read. */
    private static List<StateRows.Row> userStates(List<Interaction> batch) {
        List<StateWrite> writes = new ArrayList<>();
        for (Interaction interaction : batch) {
            if (interaction.userKey() == null) {
                continue;
            }
            UserState state = switch (interaction.type()) {
                case IMPRESSION -> UserState.SEEN;
                case CLICK -> UserState.READ;
                case CONVERSION -> null;
            };
            if (state != null) {
                writes.add(new StateWrite(interaction.projectId(), interaction.userKey(), interaction.notificationId(),
                                          state, interaction.receivedAt()));
            }
        }
        return writes.isEmpty() ? List.of() : StateRows.fold(writes);
    }

    private String insertSql(int rows) {
        return MultiRowSql.of(insert, insertRow, rows, "");
    }

    private String totalsSql(int rows) {
        return MultiRowSql.of(addToTotals, addToTotalsRow, rows, addToTotalsEnd);
    }

    private static Map<DailyTotal, Long> dailyTotals(List<Interaction> batch) {
        Map<DailyTotal, Long> totals = new TreeMap<>(TOTAL_ORDER);
        for (Interaction interaction : batch) {
            DailyTotal total = new DailyTotal(interaction.projectId(),
                                              Math.floorDiv(interaction.occurredAt(), DAY_MILLIS),
                                              interaction.notificationId(),
                                              interaction.type().wireName(),
                                              interaction.locale());
            totals.merge(total, 1L, Long::sum);
        }
        return totals;
    }

    private record DailyTotal(String projectId, long dayNumber, String notificationId, String type, String locale) {
    }
}
