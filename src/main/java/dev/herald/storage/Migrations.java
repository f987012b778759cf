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
import java.util.ArrayList;
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

    /**
     * Append only: an applied migration is never edited, a change is a new version. Each says whether the Herald of the
     * version before keeps working on it ({@link Change}), and so from which version on a Herald runs on this schema
     * (docs/operations.md#upgrades-and-rolling-back, the table of migrations).
     */
    private static final List<Migration> ALL = List.of(
            new Migration(1, "projects, keys, notifications, interactions", Change.CONTRACT,
                          "/db/migrations/V1__schema.sql"),
            new Migration(2, "covering index for project stats, replacing its prefix", Change.EXPAND,
                          "/db/migrations/V2__project_stats_index.sql"),
            // The previous version's interactions would be missing from the totals that stats now read.
            new Migration(3, "daily interaction totals for stats", Change.CONTRACT,
                          "/db/migrations/V3__interaction_daily_counts.sql"),
            new Migration(4, "daily totals in one row each, copied from their shards", Change.CONTRACT,
                          "/db/migrations/V4__daily_totals_unsharded.sql"),
            new Migration(5, "sharded daily totals dropped", Change.EXPAND,
                          "/db/migrations/V5__drop_sharded_daily_counts.sql"),
            // The previous version writes no change log: what it changes stays cached on the instances of this one.
            new Migration(6, "change log for caches; feed indexes by start and end", Change.CONTRACT,
                          "/db/migrations/V6__change_log_and_feed_indexes.sql"),
            new Migration(7, "each notification's size in a feed answer, for limits.feed-bytes", Change.EXPAND,
                          "/db/migrations/V7__notification_feed_bytes.sql"),
            new Migration(8, "names and URLs measured in characters, not UTF-16 units", Change.EXPAND,
                          "/db/migrations/V8__text_columns_in_characters.sql"),
            new Migration(9, "daily totals in one row per writer", Change.EXPAND,
                          "/db/migrations/V9__daily_totals_per_writer.sql"),
            // A message the previous version stores after the migration ran stays out of the allow-list's form.
            new Migration(10, "string messages in the form the content allow-list gives them", Change.CONTRACT,
                          MessageMigration.numbered(10)),
            new Migration(11, "console sessions and the audit log", Change.EXPAND,
                          "/db/migrations/V11__sessions_and_audit_log.sql"),
            new Migration(12, "sessions bound to their credential; the session cookies' key", Change.EXPAND,
                          "/db/migrations/V12__session_credentials_and_key.sql"),
            new Migration(13, "messages in the content allow-list's form again: every < and & of HTML text a"
                    + " reference, a rich-text node's attributes only those of its type", Change.CONTRACT,
                          MessageMigration.numbered(13)),
            new Migration(14, "pending changes of notifications, kept apart from their feeds", Change.EXPAND,
                          "/db/migrations/V14__notification_drafts.sql"),
            new Migration(15, "titles of notifications; the versions of their content", Change.EXPAND,
                          "/db/migrations/V15__notification_titles_and_versions.sql"),
            new Migration(16, "accounts made in the console, and their invitations", Change.EXPAND,
                          "/db/migrations/V16__console_accounts.sql"),
            new Migration(17, "a link's button text, per notification", Change.EXPAND,
                          "/db/migrations/V17__action_labels.sql"),
            new Migration(18, "user token keys; API keys that require a user token", Change.EXPAND,
                          "/db/migrations/V18__user_token_keys.sql"),
            new Migration(19, "who a notification is for: its audience", Change.EXPAND,
                          "/db/migrations/V19__notification_audience.sql"),
            new Migration(20, "per-user state of notifications: first seen, read, dismissed, archived", Change.EXPAND,
                          "/db/migrations/V20__user_notification_states.sql"),
            new Migration(21, "languages: a project's default and required ones, a notification's own and its"
                    + " translations", Change.EXPAND, "/db/migrations/V21__notification_translations.sql"),
            new Migration(22, "the language each interaction was recorded in; daily totals per language", Change.EXPAND,
                          "/db/migrations/V22__interaction_locales.sql"),
            new Migration(23, "each migration's oldest version of Herald that runs on it", Change.EXPAND,
                          Migrations::recordCompatibility),
            new Migration(24, "each group commit's id, to find a batch whose commit's outcome is unknown", Change.EXPAND,
                          "/db/migrations/V24__committed_batches.sql"),
            new Migration(25, "webhook endpoints, the outbox of events and their deliveries", Change.EXPAND,
                          "/db/migrations/V25__webhooks_and_outbox.sql"),
            new Migration(26, "an index of each project's interactions in the order they were received, for exports",
                          Change.EXPAND, "/db/migrations/V26__interaction_export_index.sql"),
            new Migration(27, "when each user's state of a notification last changed, and an index of them by it,"
                    + " for exports", Change.EXPAND, "/db/migrations/V27__user_state_changes.sql"),
            new Migration(28, "webhook endpoints' descriptions measured in characters, not UTF-16 units", Change.EXPAND,
                          "/db/migrations/V28__webhook_descriptions_in_characters.sql"),
            new Migration(29, "events of interactions and user states sent from their items, never copied into a"
                    + " payload", Change.EXPAND, "/db/migrations/V29__outbox_items_kept.sql"),
            new Migration(30, "events of interactions name their rows instead of copying them", Change.EXPAND,
                          "/db/migrations/V30__outbox_event_ranges.sql"),
            new Migration(31, "the index of interactions by notification dropped: nothing reads by it", Change.EXPAND,
                          "/db/migrations/V31__drop_interactions_by_notification_index.sql"),
            new Migration(32, "each tracked interaction's event id, its client's idempotency key", Change.EXPAND,
                          "/db/migrations/V32__interaction_event_ids.sql"),
            new Migration(33, "an announcement's image described: its alt text", Change.EXPAND,
                          "/db/migrations/V33__image_alt_text.sql"));

    /** The first migration recorded with its {@code compatible_from}: it adds the column. */
    private static final int RECORDS_COMPATIBILITY = 23;

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

    /**
     * Applies what is missing, one instance at a time ({@link SchemaLock}); a current schema takes no lock, except where
     * an alteration of the table of applied migrations could be seen half done ({@link Dialect#altersTablesByCopying}).
     */
    void run() throws SQLException {
        if (dialect.altersTablesByCopying()) {
            try (SchemaLock lock = acquireLock()) {
                if (!isCurrent()) {
                    applyMissing(lock);
                }
            }
            return;
        }
        if (isCurrent()) {
            return;
        }
        try (SchemaLock lock = acquireLock()) {
            applyMissing(lock);
        }
    }

    /** Whether every migration this Herald knows is applied; refuses a newer schema that does not keep it working. */
    private boolean isCurrent() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(named("create-migrations-table"));
        }
        Set<Integer> recorded = applied();
        int known = ALL.getLast().version();
        if (recorded.stream().anyMatch(version -> version > known)) {
            requireCompatible(newer(known));
        }
        return ALL.stream().allMatch(migration -> recorded.contains(migration.version()));
    }

    private SchemaLock acquireLock() throws SQLException {
        return SchemaLock.acquire(connection, this::named, dialect, clock, another);
    }

    private void applyMissing(SchemaLock lock) throws SQLException {
        // Read again under the lock: the instance that held it before may have applied them all.
        Set<Integer> applied = applied();
        for (Migration migration : ALL) {
            if (!applied.contains(migration.version())) {
                lock.requireHeld();
                try {
                    apply(migration);
                } catch (SQLException e) {
                    throw lock.explain(e);
                }
            }
        }
    }

    /** The newest schema version this Herald migrates to and runs on: {@code --version} says it. */
    static int newestVersion() {
        return ALL.getLast().version();
    }

    /**
     * An older Herald on a schema a newer one migrated (issue 33): it runs there only if every newer migration keeps
     * it working, as each recorded when applied, and says so in one line; otherwise it refuses, naming the versions and
     * the migration that breaks it, before it changes anything.
     */
    private static void requireCompatible(List<Applied> newer) {
        int known = ALL.getLast().version();
        int found = newer.getLast().version();
        String versions = "The database's schema is at version " + found + ", newer than this Herald knows (1 to "
                + known + ")";
        for (Applied migration : newer) {
            if (migration.compatibleFrom() == null || migration.compatibleFrom() > known) {
                throw new IllegalStateException(versions + ": a newer Herald migrated it. Run a Herald that knows schema"
                        + " version " + found + " or newer (--version says which it knows),"
                        + " or restore the backup taken before the upgrade to run this one (docs/operations.md)."
                        + " Migration " + migration.version() + " (" + migration.description() + ") needs version "
                        + (migration.compatibleFrom() == null ? migration.version() : migration.compatibleFrom())
                        + " or newer");
            }
        }
        int oldest = newer.stream().mapToInt(Applied::compatibleFrom).max().orElseThrow();
        LOGGER.log(Level.WARNING, versions + ": its newer migrations (" + newer.getFirst().version()
                + (newer.size() > 1 ? " to " + found : "") + ") keep every Herald from version " + oldest + " on working,"
                + " so this one starts. Run version " + found + " (or newer) on every instance once the upgrade is"
                + " done (docs/operations.md)");
    }

    /** The migrations recorded past {@code known}, in order: only a newer Herald, which records compatibility, ran them. */
    private List<Applied> newer(int known) throws SQLException {
        List<Applied> newer = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(named("select-newer-migrations"))) {
            select.setInt(1, known);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    int version = rows.getInt("version");
                    String description = rows.getString("description");
                    int compatibleFrom = rows.getInt("compatible_from");
                    newer.add(new Applied(version, description, rows.wasNull() ? null : compatibleFrom));
                }
            }
        }
        return newer;
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
        } else if (dialect.queuesWritesBehindSchemaChanges()) {
            new YieldingDdl(connection, this::named, clock)
                    .run(migration.version() + " (" + migration.description() + ")", statements(migration));
        } else {
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements(migration)) {
                    statement.execute(sql);
                }
            }
        }
        // Before migration 23 the table has no column for it: that migration fills it in for them.
        boolean recordsCompatibility = migration.version() >= RECORDS_COMPATIBILITY;
        try (PreparedStatement insert = connection.prepareStatement(
                named(recordsCompatibility ? "insert-migration-compatible-from" : "insert-migration"))) {
            insert.setInt(1, migration.version());
            insert.setString(2, migration.description());
            insert.setLong(3, clock.millis());
            if (recordsCompatibility) {
                insert.setInt(4, compatibleFrom(migration.version()));
            }
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

    /**
     * Migration 23: the column that says, for each applied migration, the oldest version of Herald that runs on the
     * schema it leaves; filled in for those applied before it. The previous version only reads {@code version} here.
     */
    private static void recordCompatibility(Connection connection, Function<String, String> named, Clock clock)
            throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(named.apply("migration-add-compatible-from"));
        }
        try (PreparedStatement update = connection.prepareStatement(named.apply("migration-update-compatible-from"))) {
            for (Migration migration : ALL) {
                update.setInt(1, compatibleFrom(migration.version()));
                update.setInt(2, migration.version());
                update.executeUpdate();
            }
        }
    }

    /**
     * @return the oldest version whose Herald runs correctly on the schema migration {@code version} leaves: the last
     * migration up to it that the version before could not run beside, since each one after it kept that one working
     */
    static int compatibleFrom(int version) {
        return ALL.stream()
                .filter(migration -> migration.version() <= version && migration.change() == Change.CONTRACT)
                .mapToInt(Migration::version)
                .max()
                .orElseThrow();
    }

    /** The versions this Herald knows, oldest first. */
    static List<Integer> versions() {
        return ALL.stream().map(Migration::version).toList();
    }

    /** What a migration asks of the instances of the version before it during a rolling upgrade. */
    enum Change {
        /**
         * Adds only (a table, a nullable or defaulted column, an index) or changes what the version before does not
         * depend on: its instances keep serving beside this version's, and start again on the migrated schema.
         */
        EXPAND,
        /**
         * Drops, renames, adds a NOT NULL column without a default, changes a meaning, or brings stored data into a form
         * the version before does not keep: every instance of it stops before the first of this version starts.
         */
        CONTRACT
    }

    /**
     * A script ({@code resource}) or a change to the data that SQL cannot make ({@code data}), and whether the version
     * before keeps working on it ({@code change}).
     */
    private record Migration(int version, String description, Change change, String resource, DataMigration data) {

        Migration(int version, String description, Change change, String resource) {
            this(version, description, change, resource, null);
        }

        Migration(int version, String description, Change change, DataMigration data) {
            this(version, description, change, null, data);
        }
    }

    /** A migration a newer Herald applied, as it recorded it; {@code compatibleFrom} null if recorded by hand. */
    private record Applied(int version, String description, Integer compatibleFrom) {
    }

    /** A migration of the data, in Java; like a script, it must be able to run again after an interrupted start. */
    @FunctionalInterface
    interface DataMigration {
        void run(Connection connection, Function<String, String> named, Clock clock) throws SQLException;
    }
}
