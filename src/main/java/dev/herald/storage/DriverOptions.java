package dev.herald.storage;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Driver options that Herald writes into a JDBC URL of several hosts, each only when neither the URL nor a
 * {@code db.connection.dataSource} setting names it: the operator's choice wins. In the URL, not as the pools' driver
 * properties: given so, the failover bounds reached the start-up connection and changed nothing for the pools
 * (measured, docs/scale-out.md).
 */
final class DriverOptions {

    private DriverOptions() {
    }

    /** Options in the order given, which is the order they are written in. */
    static Map<String, String> of(String... namesAndValues) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            options.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return options;
    }

    /** The options the settings do not name, in any case, as URL parameters ({@code a=1&b=2}), or empty. */
    static String missing(Map<String, String> settings, Map<String, String> options) {
        String lowerUrl = settings.get("connection.url").toLowerCase(Locale.ROOT);
        StringJoiner missing = new StringJoiner("&");
        options.forEach((name, value) -> {
            // HikariSettings hands driver settings on in lower case.
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lowerUrl.contains(lower + "=") && !settings.containsKey("connection.dataSource." + lower)) {
                missing.add(name + "=" + value);
            }
        });
        return missing.toString();
    }

    /** The settings with the missing options added to {@code connection.url}; the same map when none is missing. */
    static Map<String, String> added(Map<String, String> settings, Map<String, String> options) {
        String missing = missing(settings, options);
        if (missing.isEmpty()) {
            return settings;
        }
        String url = settings.get("connection.url");
        Map<String, String> added = new HashMap<>(settings);
        added.put("connection.url", url + (url.indexOf('?') < 0 ? '?' : '&') + missing);
        return added;
    }
}
