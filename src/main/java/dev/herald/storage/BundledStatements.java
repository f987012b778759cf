package dev.herald.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

import dev.herald.startup.Ahead;

import org.yaml.snakeyaml.Yaml;

/**
 * The named statements Herald ships ({@code statements.yaml}, at the root of the module), read once with SnakeYAML
 * alone. They used to be the lowest source of the merged configuration: some 300 entries that Helidon parsed into its
 * tree, flattened, and built into a second tree for the DB Client, on the path to the first answer, to be read back
 * as a plain map (docs/performance.md, issue 33). A {@code db.statements.NAME} setting still replaces one.
 */
final class BundledStatements {

    /**
     * Begun ahead ({@link Database#ahead()}), else by the first caller of {@link #all()}: SnakeYAML's parse of the 44 KB file
     * was a tenth of the main thread's start (a JFR profile, issue 33), work that waits for nothing the configuration
     * says.
     */
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

    @SuppressWarnings("unchecked")
    private static Map<String, String> read() {
        try (InputStream in = BundledStatements.class.getResourceAsStream("/statements.yaml")) {
            if (in == null) {
                throw new IllegalStateException("statements.yaml is missing from Herald's module");
            }
            Map<String, Object> root = new Yaml().load(in);
            Map<String, Object> statements = (Map<String, Object>) ((Map<String, Object>) root.get("db")).get("statements");
            Map<String, String> byName = new HashMap<>();
            statements.forEach((name, sql) -> byName.put(name, String.valueOf(sql)));
            return Map.copyOf(byName);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
