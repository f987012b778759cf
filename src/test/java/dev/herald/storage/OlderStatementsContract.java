package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.HeraldConfig;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Issue 33, point 3: a migration that says it keeps the version before working ({@code Migrations.Change.EXPAND})
 * does, for that version's own statements. The named statements of older Heralds are kept as they were
 * ({@code older-statements/V20.yaml}: the last Herald at schema 20, and so on; {@code .sql} from schema 31 on, when
 * {@code statements.sql} replaced {@code statements.yaml}); each file whose version every
 * migration since keeps working is checked on the newest schema: every statement is one the database accepts (names
 * of tables and columns, prepared by the server), every insert names every column that is NOT NULL without a
 * default, which a new column of that kind would break, and the hot paths run: a notification written and read in
 * the feed, an interaction and its daily total written.
 */
abstract class OlderStatementsContract {

    /** Kept for these versions; the newest Herald's version before its own must be among them. */
    private static final List<Integer> KEPT = List.of(20, 22, 23, 25, 26, 27, 28, 29, 30, 31, 32);
    private static final Pattern NAMED_PARAMETER = Pattern.compile("(?<![:\\w]):[A-Za-z]\\w*");
    private static final Pattern INSERT = Pattern.compile(
            "(?:INSERT\\s+INTO|MERGE\\s+INTO)\\s+(\\w+)(?:\\s+AS\\s+\\w+)?.*?INSERT\\s*(?:INTO\\s+\\w+\\s*)?\\(([^)]*)\\)"
                    + "|INSERT\\s+INTO\\s+(\\w+)\\s*\\(([^)]*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** Statements of one database that the code sends to it alone, under a plain name. */
    private static final Map<String, Dialect> ONE_DATABASE_ONLY = Map.of(
            "show-wsrep-on", Dialect.MARIADB, // Galera's state (GaleraNodes)
            "show-wsrep-local-state", Dialect.MARIADB,
            "backup-to", Dialect.H2); // an online backup of embedded H2 (backup.OnlineBackup)
    /** The columns an insert's values fill, in order. */
    private static final Pattern INSERTED_COLUMNS = Pattern.compile("INSERT\\s+INTO\\s+\\w+\\s*\\(([^)]*)\\)",
                                                                    Pattern.CASE_INSENSITIVE);
    private static final Pattern DML = Pattern.compile("(?i)(SELECT|INSERT|UPDATE|DELETE|MERGE|WITH|REPLACE)\\b");
    /** A value that is SQL NULL (Map.of takes no null). */
    private static final Object NULL = new Object();
    /** The columns an H2 MERGE's values fill: {@code ) AS v (project_id, …)}. */
    private static final Pattern MERGED_COLUMNS = Pattern.compile("\\)\\s*AS\\s+v\\s*\\(([^)]*)\\)");

    abstract TestDatabase database();

    /** The URL of a connection whose statements the server prepares, so that it checks their names. */
    abstract String preparingUrl(TestDatabase database);

    abstract Dialect dialect();

    @Test
    void theStatementsOfTheVersionBeforeAreKept() {
        List<Integer> versions = Migrations.versions();
        int newest = versions.getLast();
        int before = versions.get(versions.size() - 2);
        if (Migrations.compatibleFrom(newest) <= before) {
            assertThat("older-statements/V" + before + ".sql: the statements.sql of the last Herald at version "
                               + before + " (docs/operations.md#upgrades-and-rolling-back)",
                       KEPT.contains(before), is(true));
        }
    }

    @Test
    void everyOlderVersionThatTheNewestSchemaKeepsWorkingRunsItsStatementsThere() throws Exception {
        int newest = Migrations.versions().getLast();
        List<String> broken = new ArrayList<>();
        try (TestDatabase database = database()) {
            start(database);
            try (Connection connection = DriverManager.getConnection(preparingUrl(database), database.username(),
                                                                     database.password())) {
                for (int version : KEPT) {
                    if (Migrations.compatibleFrom(newest) > version) {
                        continue;
                    }
                    Map<String, String> statements = statements(version);
                    long inserts = statements.values().stream().filter(sql -> INSERT.matcher(sql).find()).count();
                    assertThat("V" + version + ": statements read, inserts among them", statements.size() > 100
                            && inserts > 10, is(true));
                    statements.forEach((name, sql) -> {
                        for (String part : preparable(sql)) {
                            String problem = problem(connection, placeholders(part));
                            if (problem != null) {
                                broken.add("V" + version + " " + name + ": " + problem);
                            }
                        }
                    });
                }
            }
        }
        assertThat(broken, is(empty()));
    }

    /**
     * What the version before does most, with its own statements on the newest schema: a project, its key and a
     * published notification written, the feed read, an interaction and its daily total written.
     */
    @Test
    void everyOlderVersionThatTheNewestSchemaKeepsWorkingWritesAndReadsItsFeedThere() throws Exception {
        int newest = Migrations.versions().getLast();
        long now = System.currentTimeMillis();
        for (int version : KEPT) {
            if (Migrations.compatibleFrom(newest) > version) {
                continue;
            }
            Map<String, String> statements = statements(version);
            String project = "p" + version;
            String notification = "n" + version;
            try (TestDatabase database = database()) {
                start(database);
                try (Connection connection = database.connect()) {
                    run(connection, statements.get("insert-project"), Map.of("id", project, "name", "Old",
                            "createdAt", now, "defaultLocale", "en", "requiredLocales", NULL));
                    run(connection, statements.get("insert-api-key"), Map.of("key", "k" + version, "projectId",
                            project, "showPast", false, "showFuture", false, "orderBy", "CREATED_DESC", "createdAt",
                            now, "revokedAt", NULL, "requireUserToken", false));
                    Map<String, Object> written = new java.util.HashMap<>(Map.of("id", notification, "projectId",
                            project, "status", "PUBLISHED", "message", "<b>Old</b>", "actionType", "NO_ACTION",
                            "preset", "default", "createdAt", now, "updatedAt", now, "feedBytes", 100));
                    for (String nullable : List.of("title", "image", "actionUrl", "actionTarget", "actionLabel",
                                                   "startAt", "endAt", "audience", "locale", "translations")) {
                        written.put(nullable, NULL);
                    }
                    run(connection, statements.get("insert-notification"), written);
                    Map<String, Object> interaction = new java.util.HashMap<>(Map.of("notification_id", notification,
                            "project_id", project, "type", "click", "occurred_at", now, "received_at", now, "endpoint",
                            "simple", "metadata", NULL, "locale", NULL, "day_number", now / 86_400_000L, "writer", 7));
                    interaction.put("event_batch", NULL); // since V30: the mark of a webhook event's batch
                    run(connection, statements.get("insert-interactions"), interaction);
                    Map<String, Object> total = new java.util.HashMap<>(interaction);
                    total.put("locale", "");
                    total.put("total", 1L);
                    run(connection, statements.get("add-to-daily-totals"), total);

                    List<String> feed = new ArrayList<>();
                    try (var read = bound(connection, statements.get("select-feed-without-past"), Map.of(
                            "projectId", project, "now", now, "showFuture", false, "limit", 10));
                         ResultSet rows = read.executeQuery()) {
                        while (rows.next()) {
                            feed.add(rows.getString("id") + " " + rows.getString("message"));
                        }
                    }
                    assertThat("V" + version + "'s feed", feed, is(List.of(notification + " <b>Old</b>")));
                    assertThat("V" + version + "'s interaction and its total", count(connection,
                            "SELECT COUNT(*) FROM interactions") + " " + count(connection,
                            "SELECT SUM(total) FROM interaction_daily_totals"), is("1 1"));
                }
            }
        }
    }

    private static void run(Connection connection, String sql, Map<String, ?> values) throws SQLException {
        try (var statement = bound(connection, sql, values)) {
            assertThat(sql, statement.executeUpdate(), is(1));
        }
    }

    /**
     * {@code sql} prepared with its values: named parameters by name; positional ones, in an insert, by the column
     * each fills (an H2 MERGE's by its {@code AS v (…)} list).
     */
    private static java.sql.PreparedStatement bound(Connection connection, String sql, Map<String, ?> values)
            throws SQLException {
        List<String> names = new ArrayList<>();
        Matcher named = NAMED_PARAMETER.matcher(sql);
        while (named.find()) {
            names.add(named.group().substring(1));
        }
        if (names.isEmpty()) {
            Matcher columns = MERGED_COLUMNS.matcher(sql);
            if (!columns.find()) {
                columns = INSERTED_COLUMNS.matcher(sql);
                assertThat(sql, columns.find(), is(true));
            }
            names = List.of(columns.group(1).replaceAll("\\s", "").split(","));
        }
        var statement = connection.prepareStatement(placeholders(sql));
        for (int i = 0; i < names.size(); i++) {
            Object value = values.get(names.get(i));
            assertThat("a value for " + names.get(i) + " of " + sql, value, notNullValue());
            statement.setObject(i + 1, value == NULL ? null : value);
        }
        return statement;
    }

    private static String count(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }

    /** {@code sql} with its named parameters as the DB Client sends them: placeholders. */
    private static String placeholders(String sql) {
        return NAMED_PARAMETER.matcher(sql).replaceAll("?");
    }

    /**
     * The statements of a script that the server prepares: its reads and writes, which name tables and columns. A
     * compound statement of a script (the outbox's guard, {@code IF ROW_COUNT() <> 1 THEN SIGNAL …}) names none, and
     * the server prepares no compound statement.
     */
    private static List<String> preparable(String sql) {
        return Arrays.stream(sql.split(";")).map(String::strip)
                .filter(part -> DML.matcher(part).lookingAt()).toList();
    }

    /** Why the database would refuse {@code sql} of an older Herald, or null. */
    private static String problem(Connection connection, String sql) {
        try (var statement = connection.prepareStatement(sql)) {
            // MariaDB's driver sends a statement to be prepared only when something asks about it.
            statement.getParameterMetaData();
            Matcher insert = INSERT.matcher(sql);
            if (!insert.find()) {
                return null;
            }
            String table = insert.group(1) != null ? insert.group(1) : insert.group(3);
            String columns = insert.group(1) != null ? insert.group(2) : insert.group(4);
            List<String> named = List.of(columns.toLowerCase(Locale.ROOT).replaceAll("\\s", "").split(","));
            List<String> required = requiredColumns(connection, table);
            required.removeAll(named);
            return required.isEmpty() ? null : "leaves " + table + "." + required + " without a value";
        } catch (SQLException e) {
            return e.getMessage();
        }
    }

    /** The columns of {@code table} an insert must name: NOT NULL, without a default, not generated. */
    private static List<String> requiredColumns(Connection connection, String table) throws SQLException {
        List<String> required = new ArrayList<>();
        DatabaseMetaData meta = connection.getMetaData();
        for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
            try (ResultSet columns = meta.getColumns(connection.getCatalog(), null, name, null)) {
                while (columns.next()) {
                    if ("NO".equals(columns.getString("IS_NULLABLE")) && columns.getString("COLUMN_DEF") == null
                            && !"YES".equals(columns.getString("IS_AUTOINCREMENT"))) {
                        required.add(columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                    }
                }
            }
        }
        return required;
    }

    /**
     * The statements of version {@code version} as its Herald sent them to this database: those of this dialect under
     * their plain names, multi-row ones with one row ({@link MultiRowSql}), a list after {@code IN} (or in place of {@code ${name}}) of one.
     */
    private Map<String, String> statements(int version) throws IOException {
        Map<String, String> all;
        // Up to schema 30 Herald kept its statements in YAML; from then on in statements.sql.
        String sqlFile = "older-statements/V" + version + ".sql";
        try (InputStream sql = OlderStatementsContract.class.getResourceAsStream(sqlFile)) {
            if (sql != null) {
                all = new TreeMap<>(BundledStatements.parse(new String(sql.readAllBytes(), StandardCharsets.UTF_8),
                                                            sqlFile));
            } else {
                try (InputStream in = OlderStatementsContract.class.getResourceAsStream("older-statements/V"
                                                                                               + version + ".yaml")) {
                    assertThat("older-statements/V" + version + ".sql or .yaml", in, notNullValue());
                    Map<String, Map<String, Map<String, String>>> yaml = new Yaml().load(in);
                    all = new TreeMap<>(yaml.get("db").get("statements"));
                }
            }
        }
        String own = dialect().statementSuffix();
        Map<String, String> statements = new TreeMap<>();
        all.forEach((name, sql) -> {
            if (name.endsWith("-h2") || name.endsWith("-mariadb")) {
                if (name.endsWith(own)) {
                    statements.put(name.substring(0, name.length() - own.length()), sql);
                }
            } else {
                statements.putIfAbsent(name, sql);
            }
        });
        Map<String, String> sent = new TreeMap<>();
        statements.forEach((name, sql) -> {
            if ((name.endsWith("-row") || name.endsWith("-end"))
                    && statements.containsKey(name.substring(0, name.length() - 4))) {
                return;
            }
            if (ONE_DATABASE_ONLY.getOrDefault(name, dialect()) != dialect()) {
                return;
            }
            String whole = statements.containsKey(name + "-row")
                    ? MultiRowSql.of(sql, statements.get(name + "-row"), 1, statements.getOrDefault(name + "-end", ""))
                    : sql;
            if (whole.strip().endsWith(" IN")) {
                whole = whole + " (?)";
            }
            // A list the code writes in place of ${name}, as many placeholders as values: one.
            whole = whole.replaceAll("\\$\\{\\w+}", "?");
            sent.put(name, whole);
        });
        return sent;
    }

    private static void start(TestDatabase database) {
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "db.connection.url", database.url(),
                "db.connection.username", database.username(),
                "db.connection.password", database.password()))));
        Database.open(config.get("db"), Clock.systemUTC()).client().close();
    }
}
