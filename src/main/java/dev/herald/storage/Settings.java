package dev.herald.storage;

import java.util.Map;
import java.util.Properties;

/**
 * Reads parts of the flat {@code db} settings ({@code connection.url}, {@code connection.dataSource.socketTimeout}).
 */
final class Settings {

    private Settings() {
    }

    /** The settings whose keys start with {@code prefix}, with the prefix taken off. */
    static Properties under(Map<String, String> settings, String prefix) {
        Properties properties = new Properties();
        settings.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                properties.setProperty(key.substring(prefix.length()), value);
            }
        });
        return properties;
    }

    /** The named statements ({@code statements.NAME}), by name. */
    static Map<String, String> statements(Map<String, String> settings) {
        Map<String, String> statements = new java.util.HashMap<>();
        under(settings, "statements.").forEach((name, sql) -> statements.put((String) name, (String) sql));
        return Map.copyOf(statements);
    }
}
