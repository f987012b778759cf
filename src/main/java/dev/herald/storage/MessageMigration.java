package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import dev.herald.content.MessageContent;

/**
 * Migrations 10 and 13: every stored message in the form the feed serves ({@link MessageContent}), so that the
 * management API shows what clients get. Migration 10 brought in messages stored before the content allow-list (HTML
 * with script, handlers, {@code javascript:} links; documents hidden in strings); migration 13 those its first form
 * let through (issue 29: HTML text that was a tag one reading later, a {@code <} or {@code &} of text written raw,
 * attributes of a rich-text node that its type does not define). The text stays; what went is what the allow-list
 * does not keep. Each change is announced in the change log, so that instances of the previous version, still
 * running during a rolling upgrade, drop what they cached of it.
 */
final class MessageMigration {

    private static final System.Logger LOGGER = System.getLogger(MessageMigration.class.getName());
    /** Ids named in the log line, at most; the count says the rest. */
    private static final int NAMED = 20;
    private static final int PER_TRANSACTION = 50;

    private MessageMigration() {
    }

    /** @return migration {@code version}, which brings every stored message into the form of this build */
    static Migrations.DataMigration numbered(int version) {
        return (connection, named, clock) -> run(version, connection, named, clock);
    }

    private static void run(int version, Connection connection, Function<String, String> named, Clock clock)
            throws SQLException {
        long started = System.nanoTime();
        String after = "";
        int read = 0;
        List<String> changed = new ArrayList<>();
        while (true) {
            List<Row> page = page(connection, named, after);
            if (page.isEmpty()) {
                break;
            }
            read += page.size();
            changed.addAll(bringIntoLine(connection, named, clock, page));
            after = page.getLast().id();
        }
        LOGGER.log(Level.INFO, String.format(Locale.ROOT, "Migration %d: %,d of %,d messages brought into the content"
                + " allow-list in %.1f s%s", version, changed.size(), read, (System.nanoTime() - started) / 1e9,
                changed.isEmpty() ? "" : " (" + String.join(", ", changed.subList(0, Math.min(NAMED, changed.size())))
                        + (changed.size() > NAMED ? ", …" : "") + ")"));
    }

    private static List<Row> page(Connection connection, Function<String, String> named, String after)
            throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(named.apply("migration-select-messages"))) {
            select.setString(1, after);
            try (ResultSet result = select.executeQuery()) {
                while (result.next()) {
                    rows.add(new Row(result.getString("id"), result.getString("project_id"), result.getString("message")));
                }
            }
        }
        return rows;
    }

    /**
     * The page's messages out of form, changed in transactions of {@link #PER_TRANSACTION}, each with its change log
     * rows. Short ones: on Galera, a management write through another node (an instance of the previous version,
     * in a rolling upgrade) takes the change counter too, and the loser of that race runs again
     * ({@link Transactions}).
     */
    private static List<String> bringIntoLine(Connection connection, Function<String, String> named, Clock clock,
                                              List<Row> page) throws SQLException {
        List<Row> outOfForm = new ArrayList<>();
        for (Row row : page) {
            String served = MessageContent.served(row.message());
            if (served != row.message()) {
                outOfForm.add(new Row(row.id(), row.projectId(), row.message(), served));
            }
        }
        List<String> changed = new ArrayList<>();
        for (int from = 0; from < outOfForm.size(); from += PER_TRANSACTION) {
            List<Row> batch = outOfForm.subList(from, Math.min(from + PER_TRANSACTION, outOfForm.size()));
            List<String> committed = new ArrayList<>();
            Transactions.run(connection, c -> {
                committed.clear();
                change(c, named, clock, batch, committed);
            });
            changed.addAll(committed);
        }
        return changed;
    }

    /** Each row's message set to its served form, unless someone changed it since it was read, and announced. */
    private static void change(Connection connection, Function<String, String> named, Clock clock, List<Row> batch,
                               List<String> changed) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(named.apply("migration-update-message"));
             Statement counter = connection.createStatement();
             PreparedStatement change = connection.prepareStatement(named.apply("migration-insert-change"))) {
            for (Row row : batch) {
                update.setString(1, row.served());
                update.setString(2, row.id());
                update.setString(3, row.message());
                if (update.executeUpdate() == 1) {
                    counter.executeUpdate(named.apply("next-change-version"));
                    try (ResultSet version = counter.executeQuery(named.apply("select-change-version"))) {
                        version.next();
                        change.setLong(1, version.getLong(1));
                    }
                    change.setString(2, row.projectId());
                    change.setString(3, row.id());
                    change.setLong(4, clock.millis());
                    change.executeUpdate();
                    changed.add(row.id());
                }
            }
        }
    }

    /** @param served its form, once computed; null when read */
    private record Row(String id, String projectId, String message, String served) {

        Row(String id, String projectId, String message) {
            this(id, projectId, message, null);
        }
    }
}
