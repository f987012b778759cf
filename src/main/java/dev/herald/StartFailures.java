package dev.herald;

import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.ConfigValues;

import io.helidon.config.ConfigException;
import io.helidon.config.ConfigMappingException;

/**
 * The one place a failed start ends: one line that says what is wrong and what to do, then exit code 1, which a
 * service manager's restart-on-failure sees. A stack trace only for a failure nobody foresaw: that is a bug.
 */
final class StartFailures {

    private static final System.Logger LOGGER = System.getLogger(Main.class.getName());
    // Helidon's words for a value its own settings (server.*) cannot read.
    private static final Pattern HELIDON_MAPPING = Pattern.compile(
            "Mapping of value '(.*)' stored under key '([^']*)' has failed.*", Pattern.DOTALL);

    /** Set once a failed start has said why: the shutdown that follows has nothing to add. */
    private static volatile boolean ended;

    private StartFailures() {
    }

    static boolean hasEnded() {
        return ended;
    }

    static void exit(RuntimeException failure) {
        ended = true;
        if (foreseen(failure)) {
            LOGGER.log(Level.ERROR, "Herald did not start: " + describe(failure));
        } else {
            LOGGER.log(Level.ERROR, "Herald did not start: " + describe(failure)
                    + " (unexpected: please report it with the stack trace that follows)", failure);
        }
        System.exit(1);
    }

    /** The failure's message, and each cause's where it adds something: {@code (cause: Connection refused)}. */
    static String describe(Throwable failure) {
        StringBuilder line = new StringBuilder(message(failure));
        for (Throwable cause = failure.getCause(); cause != null && cause != cause.getCause();
             cause = cause.getCause()) {
            String message = message(cause);
            if (!message.isBlank() && !line.toString().contains(message)) {
                line.append(" (cause: ").append(message).append(')');
            }
        }
        return line.toString();
    }

    private static boolean foreseen(RuntimeException failure) {
        return failure instanceof IllegalArgumentException || failure instanceof IllegalStateException
                || failure instanceof ConfigException || failure instanceof UncheckedIOException;
    }

    private static String message(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        Matcher mapping = HELIDON_MAPPING.matcher(message);
        if (failure instanceof ConfigMappingException && mapping.matches()) {
            return mapping.group(2) + " (" + ConfigValues.environmentName(mapping.group(2)) + ") is \""
                    + mapping.group(1) + "\", which is not of the form it needs (README, Configuration)";
        }
        String first = message.lines().findFirst().orElse("");
        // H2's: its statement follows on the next lines, which one line leaves out.
        return first.endsWith("; SQL statement:") ? first.substring(0, first.length() - "; SQL statement:".length())
                : first;
    }
}
