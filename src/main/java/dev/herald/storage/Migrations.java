package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.helidon.dbclient.DbClient;

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
            new Migration(3, "daily interaction totals for stats", "/db/migrations/V3__interaction_daily_counts.sql"));

    private final DbClient client;
    private final Dialect dialect;
    private final Clock clock;

    Migrations(DbClient client, Dialect dialect, Clock clock) {
        this.client = client;
        this.dialect = dialect;
        this.clock = clock;
    }

    void run() {
        var execute = client.execute();
        execute.namedDml("create-migrations-table");
        Set<Integer> applied = execute.namedQuery("select-applied-migrations")
                .map(row -> row.column("version").getInt())
                .collect(Collectors.toSet());
        for (Migration migration : ALL) {
            if (!applied.contains(migration.version())) {
                apply(migration);
            }
        }
    }

    private void apply(Migration migration) {
        var execute = client.execute();
        for (String statement : statements(migration)) {
            execute.dml(statement);
        }
        execute.namedInsert("insert-migration", migration.version(), migration.description(), clock.millis());
        LOGGER.log(Level.INFO, "Applied schema migration " + migration.version() + ": " + migration.description());
    }

    private List<String> statements(Migration migration) {
        String script = dialect.render(read(migration.resource()));
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

    private record Migration(int version, String description, String resource) {
    }
}
