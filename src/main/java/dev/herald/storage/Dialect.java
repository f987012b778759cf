package dev.herald.storage;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.BadSetting;

/**
 * The two databases Herald runs on, chosen by the JDBC URL, and the few DDL words in which they differ.
 */
public enum Dialect {
    // H2 stores CHARACTER VARYING inline; its CLOB would come back as a java.sql.Clob instead of a String.
    // Its VARCHAR lengths count UTF-16 units: a character outside the Basic Multilingual Plane takes two.
    H2("H2", "jdbc:h2:", "CHARACTER VARYING(1000000)", "", "ALTER COLUMN", 2),
    // Binary collation: API keys and ids compare case-sensitively, as the key pattern implies. utf8mb4 lengths count
    // code points, as Herald's limits do.
    MARIADB("MariaDB", "jdbc:mariadb:", "MEDIUMTEXT", " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin", "MODIFY COLUMN", 1);

    /** {@code ${characters:200}}: a column that holds 200 characters as Herald counts them (code points). */
    private static final Pattern CHARACTERS = Pattern.compile("\\$\\{characters:(\\d+)}");

    private final String displayName;
    private final String urlPrefix;
    private final String longTextType;
    private final String tableOptions;
    private final String changeColumn;
    private final int unitsPerCharacter;

    Dialect(String displayName, String urlPrefix, String longTextType, String tableOptions, String changeColumn,
            int unitsPerCharacter) {
        this.displayName = displayName;
        this.urlPrefix = urlPrefix;
        this.longTextType = longTextType;
        this.tableOptions = tableOptions;
        this.changeColumn = changeColumn;
        this.unitsPerCharacter = unitsPerCharacter;
    }

    public static Dialect of(String jdbcUrl) {
        String url = jdbcUrl.toLowerCase(Locale.ROOT);
        for (Dialect dialect : values()) {
            if (url.startsWith(dialect.urlPrefix)) {
                return dialect;
            }
        }
        throw new BadSetting("db.connection.url (DB_CONNECTION_URL) is \"" + DatabaseUrls.withoutSecrets(jdbcUrl)
                + "\"; it must start with jdbc:h2: or jdbc:mariadb:, e.g. jdbc:mariadb://db.internal:3306/herald");
    }

    /** As the log names it. */
    public String displayName() {
        return displayName;
    }

    /**
     * Whether several statements, COMMIT among them, can go to the database in one round trip (MariaDB's
     * {@code allowMultiQueries}). H2 runs in this process: it has no round trips to save.
     */
    public boolean takesScripts() {
        return this == MARIADB;
    }

    /**
     * Whether a schema change waiting for its table's metadata lock (behind an open transaction that read the table)
     * makes every later write to that table wait behind it: MariaDB's lock queue does, so its migrations yield
     * ({@link YieldingDdl}). H2 has no such queue.
     */
    boolean queuesWritesBehindSchemaChanges() {
        return this == MARIADB;
    }

    /**
     * Whether altering a table swaps it for a copy, so that another session's read or {@code CREATE TABLE IF NOT
     * EXISTS} in between finds no table or breaks the alteration: H2 does (migration 23 altered the table of applied
     * migrations, which each start reads). MariaDB's alterations hold the table's metadata lock instead.
     */
    boolean altersTablesByCopying() {
        return this == H2;
    }

    /** What a connection that sends scripts needs of the driver. */
    public Map<String, String> scriptProperties() {
        return takesScripts() ? Map.of("allowMultiQueries", "true") : Map.of();
    }

    /** How the names of statements written for this database alone end. */
    String statementSuffix() {
        return "-" + name().toLowerCase(Locale.ROOT);
    }

    /**
     * The migration script for this database: {@code V9__x.mariadb.sql} where a change is written differently for
     * each, else the one script ({@code V9__x.sql}).
     */
    String migrationResource(String resource) {
        String own = resource.replaceFirst("\\.sql$", "." + name().toLowerCase(Locale.ROOT) + ".sql");
        return Dialect.class.getResource(own) != null ? own : resource;
    }

    /** Fills the dialect's words into migration SQL. */
    String render(String sql) {
        String rendered = sql.replace("${longText}", longTextType)
                .replace("${tableOptions}", tableOptions)
                .replace("${changeColumn}", changeColumn);
        Matcher characters = CHARACTERS.matcher(rendered);
        return characters.replaceAll(column -> "VARCHAR(" + Integer.parseInt(column.group(1)) * unitsPerCharacter + ")");
    }
}
