package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
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
 * ({@code older-statements/V20.yaml}: the last Herald at schema 20, and so on); each file whose version every
 * migration since keeps working is checked on the newest schema: every statement is one the database accepts (names
 * of tables and columns, prepared by the server), and every insert names every column that is NOT NULL without a
 * default, which a new column of that kind would break.
 */
abstract class OlderStatementsContract {

    /** Kept for these versions; the newest Herald's version before its own must be among them. */
    private static final List<Integer> KEPT = List.of(20, 22);
    private static final Pattern NAMED_PARAMETER = Pattern.compile("(?<![:\\w]):[A-Za-z]\\w*");
    private static final Pattern INSERT = Pattern.compile(
            "(?:INSERT\\s+INTO|MERGE\\s+INTO)\\s+(\\w+)(?:\\s+AS\\s+\\w+)?.*?INSERT\\s*(?:INTO\\s+\\w+\\s*)?\\(([^)]*)\\)"
                    + "|INSERT\\s+INTO\\s+(\\w+)\\s*\\(([^)]*)\\)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

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
            assertThat("older-statements/V" + before + ".yaml: the statements.yaml of the last Herald at version "
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
                        String problem = problem(connection, sql);
                        if (problem != null) {
                            broken.add("V" + version + " " + name + ": " + problem);
                        }
                    });
                }
            }
        }
        assertThat(broken, is(empty()));
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
     * their plain names, multi-row ones with one row ({@link MultiRowSql}), a list after {@code IN} of one, named
     * parameters as the DB Client turns them into placeholders.
     */
    private Map<String, String> statements(int version) throws IOException {
        Map<String, String> all;
        try (InputStream in = OlderStatementsContract.class.getResourceAsStream("older-statements/V" + version
                                                                                       + ".yaml")) {
            assertThat("older-statements/V" + version + ".yaml", in, notNullValue());
            Map<String, Map<String, Map<String, String>>> yaml = new Yaml().load(in);
            all = new TreeMap<>(yaml.get("db").get("statements"));
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
            if (dialect() == Dialect.H2 && name.startsWith("show-wsrep")) {
                return; // Galera's status, asked of MariaDB alone (GaleraNodes)
            }
            String whole = statements.containsKey(name + "-row")
                    ? MultiRowSql.of(sql, statements.get(name + "-row"), 1, statements.getOrDefault(name + "-end", ""))
                    : sql;
            if (whole.strip().endsWith(" IN")) {
                whole = whole + " (?)";
            }
            sent.put(name, NAMED_PARAMETER.matcher(whole).replaceAll("?"));
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
