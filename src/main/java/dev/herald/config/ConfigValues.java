package dev.herald.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.helidon.config.Config;

/**
 * Reads one setting of a given form, or says which setting is wrong, what it holds and what form it needs, with an
 * example: Helidon's own mappers name only a lambda class.
 */
public final class ConfigValues {

    /** A wrong value this long without a space is not quoted: see {@link #shown}. */
    private static final int LONGEST_SHOWN = 20;

    private ConfigValues() {
    }

    /** A whole number; {@code orElse} when the setting is absent. */
    public static int integer(Config node, int orElse) {
        long value = longInteger(node, orElse);
        if (value != (int) value) {
            throw wrongForm(node, String.valueOf(value), "a whole number up to " + Integer.MAX_VALUE + ", e.g. " + orElse);
        }
        return (int) value;
    }

    /** A TCP port, 0 for any free one. */
    public static int port(Config node, int orElse) {
        int port = integer(node, orElse);
        if (port < 0 || port > 65535) {
            throw wrongForm(node, String.valueOf(port), "a port from 1 to 65535, or 0 for any free one, e.g. " + orElse);
        }
        return port;
    }

    /** A whole number, for settings that may exceed two billion (bytes). */
    public static long longInteger(Config node, long orElse) {
        return text(node).map(value -> {
            try {
                return Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw wrongForm(node, value, "a whole number, e.g. " + orElse);
            }
        }).orElse(orElse);
    }

    /** An ISO-8601 duration ({@code PT30S}); people write {@code 30s}, which Java does not read. */
    public static Duration duration(Config node, Duration orElse) {
        return text(node).map(value -> {
            try {
                return Duration.parse(value.strip());
            } catch (DateTimeParseException e) {
                throw wrongForm(node, value, "an ISO-8601 duration, e.g. PT30S (30 seconds), PT5M (5 minutes), "
                        + "PT0.5S, P1D (1 day)");
            }
        }).orElse(orElse);
    }

    /** {@code true} or {@code false}, nothing else: Helidon would read {@code yes} as false without a word. */
    public static boolean bool(Config node, boolean orElse) {
        return text(node).map(value -> switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw wrongForm(node, value, "true or false");
        }).orElse(orElse);
    }

    /** A text value, when set. */
    public static Optional<String> string(Config node) {
        return text(node);
    }

    /**
     * A list, written in a file as a YAML list or as one comma-separated value. A value set by an environment variable
     * ({@code ADMIN_TOKENS=a,b}) or a system property replaces the file's list whole: Helidon merges the two into a
     * node that has both, and would answer the file's list.
     */
    public static List<String> list(Config node) {
        if (!node.exists()) {
            return List.of();
        }
        if (node.hasValue()) {
            String value = node.asString().get();
            return value.isBlank() ? List.of() : Arrays.stream(value.split(",")).map(String::strip).toList();
        }
        // A section's values are read as the list (Helidon reads {a: x} as [x]); the unknown keys are warned of.
        return node.asList(String.class).get();
    }

    /** The environment variable that sets a key: {@code db.startup-timeout} is {@code DB_STARTUP_DASH_TIMEOUT}. */
    public static String environmentName(String key) {
        String documented = key.replace("-", "_DASH_").replace('.', '_').toUpperCase(Locale.ROOT);
        if (!key.contains("-")) {
            return documented;
        }
        // Helidon reads each dash written "_" too: name the variable the operator set, when only that one is set (an
        // outside review found a bad LIMITS_READ_TIMEOUT reported as LIMITS_READ_DASH_TIMEOUT, never set).
        String underscored = key.replace('-', '_').replace('.', '_').toUpperCase(Locale.ROOT);
        return System.getenv(underscored) != null && System.getenv(documented) == null ? underscored : documented;
    }

    static String environmentName(Config node) {
        return environmentName(node.key().toString());
    }

    private static Optional<String> text(Config node) {
        if (!node.exists()) {
            return Optional.empty();
        }
        if (!node.hasValue()) {
            throw new BadSetting(node.key() + " (" + environmentName(node) + ") must be a single value, not a "
                    + (node.type() == Config.Type.LIST ? "list" : "section"));
        }
        return node.asString().asOptional();
    }

    private static BadSetting wrongForm(Config node, String value, String form) {
        return new BadSetting(node.key() + " (" + environmentName(node) + ") is " + shown(value) + "; it must be "
                + form);
    }

    /**
     * A wrong value quoted, unless it could be a secret (docs/security.md, Logging): no number, duration,
     * port or true/false is that long without a space, and a token pasted into the wrong setting is.
     */
    public static String shown(String value) {
        String stripped = value.strip();
        return stripped.length() >= LONGEST_SHOWN && stripped.chars().noneMatch(Character::isWhitespace)
                ? "a value of " + stripped.length() + " characters (not shown: it could be a token)"
                : "\"" + value + "\"";
    }
}
