package dev.herald.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keys of a YAML document SnakeYAML has parsed, as Helidon's configuration names them ({@code db.connection.url},
 * {@code admin.tokens.0}): one per value or empty key, none for a section. The known-keys check takes them from the parse it
 * already has (DuplicateKeys', the bundled defaults') rather than have Helidon build a configuration of the same
 * file once more on the path to the first answer (docs/performance.md, issue 33).
 */
final class YamlKeys {

    private YamlKeys() {
    }

    /** @param document what SnakeYAML made of the file: maps, lists and values; {@code null} for an empty file */
    static List<String> of(Object document) {
        List<String> keys = new ArrayList<>();
        add("", document, keys);
        return List.copyOf(keys);
    }

    private static void add(String key, Object node, List<String> keys) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((name, value) -> add(below(key, String.valueOf(name)), value, keys));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                add(below(key, Integer.toString(i)), list.get(i), keys);
            }
        } else if (!key.isEmpty()) {
            // A key without a value ("cors:") is one for Helidon too, with an empty value; an empty section is none.
            keys.add(key);
        }
    }

    private static String below(String key, String name) {
        return key.isEmpty() ? name : key + "." + name;
    }
}
