package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Versioned schema migrations, applied in order at start-up and recorded in {@code schema_migrations}.
 * Every statement is idempotent ({@code IF NOT EXISTS}) too, so a start interrupted half-way can simply run again.
 */
final class Migrations {

    private static final System.Logger LOGGER = System.getLogger(Migrations.class.getName());

    /** Append only: an applied migration is never edited, a change is a new version. */
    private static final List<Migration> ALL = List.of(
            new Migration(1, "projects, keys, notifications, interactions", "/db/migrations/V1__schema.sql"),
            new Migration(2, "covering index for project stats, replacing its prefix", "/db/migrations/V2__project_stats_index.sql"),
            new Migration(3, "daily interaction totals for stats", "/db/migrations/V3__interaction_daily_counts.sql"),
            new Migration(4, "daily totals in one row each, copied from their shards", "/db/migrations/V4__daily_totals_unsharded.sql"),
            new Migration(5, "sharded daily totals dropped", "/db/migrations/V5__drop_sharded_daily_counts.sql"),
            new Migration(6, "change log for caches; feed indexes by start and end", "/db/migrations/V6__change_log_and_feed_indexes.sql"),
            new Migration(7, "each notification's size in a feed answer, for limits.feed-bytes", "/db/migrations/V7__notification_feed_bytes.sql"),
            new Migration(8, "names and URLs measured in characters, not UTF-16 units", "/db/migrations/V8__text_columns_in_characters.sql"),
            new Migration(9, "daily totals in one row per writer", "/db/migrations/V9__daily_totals_per_writer.sql"),
            new Migration(10, "string messages in the form the content allow-list gives them", MessageMigration.numbered(10)),
            new Migration(11, "console sessions and the audit log", "/db/migrations/V11__sessions_and_audit_log.sql"),
            new Migration(12, "sessions bound to their credential; the session cookies' key",
                          "/db/migrations/V12__session_credentials_and_key.sql"),
            new Migration(13, "messages in the content allow-list's form again: every < and & of HTML text a"
                    + " reference, a rich-text node's attributes only those of its type", MessageMigration.numbered(13)),
            new Migration(14, "pending changes of notifications, kept apart from their feeds",
                          "/db/migrations/V14__notification_drafts.sql"),
            new Migration(15, "titles of notifications; the versions of their content",
                          "/db/migrations/V15__notification_titles_and_versions.sql"),
            new Migration(16, "accounts made in the console, and their invitations",
                          "/db/migrations/V16__console_accounts.sql"),
            new Migration(17, "a link's button text, per notification", "/db/migrations/V17__action_labels.sql"),
            new Migration(18, "user token keys; API keys that require a user token",
                          "/db/migrations/V18__user_token_keys.sql"),
            new Migration(19, "who a notification is for: its audience", "/db/migrations/V19__notification_audience.sql"),
            new Migration(20, "per-user state of notifications: first seen, read, dismissed, archived",
                          "/db/migrations/V20__user_notification_states.sql"),
            new Migration(21, "languages: a project's default and required ones, a notification's own and its"
                    + " translations", "/db/migrations/V21__notification_translations.sql"),
            new Migration(22, "the language each interaction was recorded in; daily totals per language",
                          "/db/migrations/V22__interaction_locales.sql"));

    private final Connection connection;
    private final Map<String, String> settings;
    private final Dialect dialect;
    private final Clock clock;
    private final Supplier<Connection> another;

    /**
     * @param connection in auto-commit mode: each statement stands alone, as the scripts are written
     * @param settings   the {@code db} settings, whose {@code statements.*} name the bookkeeping queries
     * @param another    opens another connection to the same database, for the migration lock's lease
     */
    Migrations(Connection connection, Map<String, String> settings, Dialect dialect, Clock clock,
               Supplier<Connection> another) {
        this.connection = connection;
        this.settings = settings;
        this.dialect = dialect;
        this.clock = clock;
        this.another = another;
    }

    /** Applies what is missing, one instance at a time ({@link SchemaLock}); a current schema takes no lock. */
    void run() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(named("create-migrations-table"));
        }
        Set<Integer> recorded = applied();
        requireNotNewer(recorded);
        if (recorded.size() == ALL.size()) {
            return;
        }
        try (SchemaLock lock = SchemaLock.acquire(connection, this::named, clock, another)) {
            // Read again under the lock: the instance that held it before may have applied them all.
            Set<Integer> applied = applied();
            for (Migration migration : ALL) {
                if (!applied.contains(migration.version())) {
                    lock.requireHeld();
                    apply(migration);
                }
            }
        }
    }

    /**
     * An older Herald on a schema a newer one migrated would run on tables it does not know (issue 33): it refuses,
     * naming the versions, before it changes anything.
     */
    private static void requireNotNewer(Set<Integer> recorded) {
        int known = ALL.getLast().version();
        int found = recorded.stream().mapToInt(Integer::intValue).max().orElse(0);
        if (found > known) {
            throw new IllegalStateException("The database's schema is at version " + found + ", newer than this Herald"
                    + " knows (1 to " + known + "): a newer Herald migrated it. Run that version (or newer), or restore"
                    + " the backup taken before the upgrade to run this one (docs/operations.md)");
        }
    }

    private Set<Integer> applied() throws SQLException {
        Set<Integer> applied = new HashSet<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(named("select-applied-migrations"))) {
            while (rows.next()) {
                applied.add(rows.getInt("version"));
            }
        }
        return applied;
    }

    private void apply(Migration migration) throws SQLException {
        if (migration.data() != null) {
            migration.data().run(connection, this::named, clock);
        } else {
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements(migration)) {
                    statement.execute(sql);
                }
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(named("insert-migration"))) {
            insert.setInt(1, migration.version());
            insert.setString(2, migration.description());
            insert.setLong(3, clock.millis());
            insert.executeUpdate();
        }
        LOGGER.log(Level.INFO, "Applied schema migration " + migration.version() + ": " + migration.description());
    }

    private String named(String name) {
        String sql = settings.get("statements." + name);
        if (sql == null) {
            throw new IllegalStateException("Named statement missing: " + name);
        }
        return sql;
    }

    private List<String> statements(Migration migration) {
        String script = dialect.render(read(dialect.migrationResource(migration.resource())));
        String withoutComments = script.lines()
                .filter(line -> !line.strip().startsWith("--"))
                .collect(Collectors.joining("\n"));
        return Arrays.stream(withoutComments.split(";\\s*(\\n|$)"))
                .map(String::strip)
                .filter(statement -> !statement.isEmpty())
                .toList();
    }

    private static String read(String resource) {
        try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Migration script missing: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A script ({@code resource}) or a change to the data that SQL cannot make ({@code data}). */
    private record Migration(int version, String description, String resource, DataMigration data) {

        Migration(int version, String description, String resource) {
            this(version, description, resource, null);
        }

        Migration(int version, String description, DataMigration data) {
            this(version, description, null, data);
        }
    }

    /** A migration of the data, in Java; like a script, it must be able to run again after an interrupted start. */
    @FunctionalInterface
    interface DataMigration {
        void run(Connection connection, Function<String, String> named, Clock clock) throws SQLException;
    }
}
