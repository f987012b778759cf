package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import dev.herald.startup.Ahead;

/**
 * The named statements Herald ships ({@code statements.sql}, at the root of the module), read once. A line
 * {@code -- name: NAME} begins a statement, the lines after it up to the next name are its SQL as written (line
 * breaks kept), any other line beginning with {@code --} is a comment, a blank line is nothing. They used to be YAML
 * read by SnakeYAML, first inside the merged configuration (some 300 entries Helidon parsed into its tree and
 * flattened again), then alone; the parse of those 64 KB was still 30 ms of CPU of every start and made the JIT
 * compile SnakeYAML's scanner (docs/performance.md, issue 33). A {@code db.statements.NAME} setting still replaces one.
 */
final class BundledStatements {

    static final String FILE = "statements.sql";
    private static final String NAME = "-- name: ";
    private static final String COMMENT = "--";

    /** Begun ahead ({@link Database#ahead()}), else by the first caller of {@link #all()}. */
    private static final Ahead<Map<String, String>> READ = new Ahead<>(BundledStatements::read);

    private BundledStatements() {
    }

    /** Their read, to begin while the main thread reads the configuration. */
    static Ahead<Map<String, String>> reading() {
        return READ;
    }

    /** The bundled statements, by name; waits for a read in progress. */
    static Map<String, String> all() {
        return READ.get();
    }

    private static Map<String, String> read() {
        try (InputStream in = BundledStatements.class.getResourceAsStream("/" + FILE)) {
            if (in == null) {
                throw new IllegalStateException(FILE + " is missing from Herald's module");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param source what the text is, for the message of a mistake
     * @throws IllegalStateException on SQL before the first name, a name given twice, or a name without SQL
     */
    static Map<String, String> parse(String text, String source) {
        Map<String, String> byName = new HashMap<>();
        String name = null;
        StringBuilder sql = new StringBuilder();
        int lineNumber = 0;
        // Lines without a regular expression: a split on "\r?\n" was 10 ms of CPU of every start (a profile, issue 33).
        for (String line : text.lines().toList()) {
            lineNumber++;
            if (line.startsWith(NAME)) {
                add(byName, name, sql, source);
                name = line.substring(NAME.length()).strip();
                if (name.isEmpty() || byName.containsKey(name)) {
                    throw new IllegalStateException(source + ", line " + lineNumber + ": "
                            + (name.isEmpty() ? "a statement without a name" : "statement " + name + " given twice"));
                }
                sql.setLength(0);
            } else if (!line.startsWith(COMMENT) && !line.isBlank()) {
                if (name == null) {
                    throw new IllegalStateException(source + ", line " + lineNumber + ": SQL before the first \""
                            + NAME.strip() + "\" line");
                }
                if (!sql.isEmpty()) {
                    sql.append('\n');
                }
                sql.append(line);
            }
        }
        add(byName, name, sql, source);
        return Map.copyOf(byName);
    }

    private static void add(Map<String, String> byName, String name, StringBuilder sql, String source) {
        if (name == null) {
            return;
        }
        if (sql.isEmpty()) {
            throw new IllegalStateException(source + ": statement " + name + " has no SQL");
        }
        byName.put(name, sql.toString());
    }
}
