package dev.herald.storage;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.zaxxer.hikari.HikariConfig;

/**
 * The settings under {@code db.connection}, as HikariCP reads them (a property per setter of HikariConfig, camelCase)
 * and as environment variables deliver them: in lower case ({@code DB_CONNECTION_MAXIMUMPOOLSIZE} arrives as
 * {@code db.connection.maximumpoolsize}), and with {@code dataSource} as {@code datasource}. The driver reads its
 * own options in any case.
 */
public final class HikariSettings {

    static final String DRIVER_PREFIX = "dataSource.";
    private static final List<String> NAMES = readNames();
    private static final Map<String, String> BY_LOWER_CASE = byLowerCase();

    private HikariSettings() {
    }

    /** HikariCP's spelling of a property, given in any case; {@code url} is ours. */
    public static Optional<String> canonical(String property) {
        return Optional.ofNullable(BY_LOWER_CASE.get(property.toLowerCase(Locale.ROOT)));
    }

    /** Whether a key under {@code connection.} is a driver option ({@code dataSource.*}, in any case). */
    public static boolean isDriverOption(String property) {
        return property.regionMatches(true, 0, DRIVER_PREFIX, 0, DRIVER_PREFIX.length());
    }

    /**
     * The {@code connection.*} settings with HikariCP's spelling, the driver's options in lower case. Where a setting
     * is given in two spellings, the lower case one came from the environment, which overrides the file.
     */
    static Map<String, String> spelledForHikari(Map<String, String> settings) {
        Map<String, String> spelled = new HashMap<>();
        Map<String, String> fromEnvironment = new HashMap<>();
        settings.forEach((key, value) -> {
            // Helidon gives an environment variable's key in lower case; a file's keeps its camelCase.
            boolean lowerCase = key.equals(key.toLowerCase(Locale.ROOT));
            (lowerCase ? fromEnvironment : spelled).put(canonicalKey(key), value);
        });
        spelled.putAll(fromEnvironment);
        return spelled;
    }

    /**
     * HikariCP's spelling for its own settings; the driver's options in lower case (it reads them in any case, and
     * two spellings of one option would both reach it, the file's winning).
     */
    private static String canonicalKey(String key) {
        if (!key.startsWith("connection.")) {
            return key;
        }
        String property = key.substring("connection.".length());
        if (isDriverOption(property)) {
            return "connection." + DRIVER_PREFIX + property.substring(DRIVER_PREFIX.length()).toLowerCase(Locale.ROOT);
        }
        return canonical(property).map(name -> "connection." + name).orElse(key);
    }

    private static Map<String, String> byLowerCase() {
        Map<String, String> names = new HashMap<>();
        for (String name : NAMES) {
            names.put(name.toLowerCase(Locale.ROOT), name);
        }
        return Map.copyOf(names);
    }

    /** Every property: {@code url} and one for each one-argument setter of HikariConfig. */
    public static List<String> names() {
        return NAMES;
    }

    private static List<String> readNames() {
        List<String> properties = new ArrayList<>(List.of("url"));
        for (Method method : HikariConfig.class.getMethods()) {
            if (method.getName().startsWith("set") && method.getParameterCount() == 1
                    && !Modifier.isStatic(method.getModifiers()) && method.getName().length() > 3) {
                String name = method.getName().substring(3);
                properties.add(Character.toLowerCase(name.charAt(0)) + name.substring(1));
            }
        }
        return List.copyOf(properties);
    }
}
