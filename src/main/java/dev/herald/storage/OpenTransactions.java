package dev.herald.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The transactions a MariaDB server has had open since an earlier second, and who holds each: a migration's DDL
 * would wait behind any of them that has read or written its tables ({@link YieldingDdl}). The server does not say
 * which tables a transaction holds (performance_schema is off by default), only that it is open.
 *
 * @param transactions the oldest first
 * @param unseenBecause why the server named none, where it refused to ({@code INNODB_TRX} needs the PROCESS privilege)
 */
record OpenTransactions(List<OpenTransaction> transactions, Optional<String> unseenBecause) {

    /** A statement's first word, as the log names it, is cut to this many characters. */
    private static final int STATEMENT_SHOWN = 20;

    static OpenTransactions on(Connection connection, Function<String, String> named) {
        List<OpenTransaction> open = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(named.apply("select-open-transactions"));
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                open.add(new OpenTransaction(rows.getLong("thread_id"), rows.getLong("age_seconds"),
                                             rows.getString("user_name"), rows.getString("host"),
                                             rows.getString("database_name"), rows.getString("command"),
                                             rows.getString("statement_text")));
            }
        } catch (SQLException e) {
            return new OpenTransactions(List.of(), Optional.of(e.getErrorCode() == 1227
                    ? "this database user lacks the PROCESS privilege that names them"
                    : "the server did not name them: " + e.getMessage()));
        }
        return new OpenTransactions(List.copyOf(open), Optional.empty());
    }

    boolean none() {
        return transactions.isEmpty();
    }

    /** One transaction: its session's thread id, how long it has been open, and what its session is doing. */
    record OpenTransaction(long threadId, long ageSeconds, String user, String host, String database, String command,
                           String statement) {

        /** "thread 42 (herald_ro@10.0.0.5:51234, database herald, open 12 s, running: SELECT …)", on one line. */
        String describe() {
            StringBuilder text = new StringBuilder("thread " + threadId + " (");
            if (user == null) {
                // No session: a transaction prepared by XA and left behind, which only an administrator ends.
                text.append("no session");
            } else {
                text.append(user).append('@').append(host);
            }
            if (database != null) {
                text.append(", database ").append(database);
            }
            text.append(", open ").append(ageSeconds).append(" s");
            if (statement != null && !statement.isBlank()) {
                text.append(", running: ").append(oneLine(statement));
            } else if ("Sleep".equals(command)) {
                text.append(", idle in its transaction");
            }
            return text.append(')').toString();
        }

        /**
         * Its first word only (SELECT, INSERT …): another session's statement may hold what does not belong in
         * Herald's log (a password set, a customer's data), and its thread id is what the operator needs.
         */
        private static String oneLine(String statement) {
            String verb = statement.strip().split("\\s+", 2)[0];
            return (verb.length() > STATEMENT_SHOWN ? verb.substring(0, STATEMENT_SHOWN) : verb) + " …";
        }
    }
}
