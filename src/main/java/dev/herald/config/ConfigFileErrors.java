package dev.herald.config;

import java.nio.file.Path;
import java.util.Optional;

import io.helidon.config.ConfigException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Turns Helidon's "Cannot read from source" into a line that names the file and, for YAML, the line and column of
 * the mistake and what the parser expected there.
 */
final class ConfigFileErrors {

    private ConfigFileErrors() {
    }

    static String describe(Optional<Path> file, ConfigException e) {
        String source = file.map(path -> "Configuration file " + path.toAbsolutePath()).orElse("The configuration");
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
                Mark mark = yaml.getProblemMark();
                return source + " is not valid YAML: " + yaml.getProblem() + " at line " + (mark.getLine() + 1)
                        + ", column " + (mark.getColumn() + 1)
                        + (yaml.getContext() == null ? "" : " (" + yaml.getContext() + ")");
            }
        }
        if (deepest(e) instanceof ClassCastException) {
            // SnakeYAML read a list or a single value where Helidon expects a mapping of keys.
            return source + " is not a mapping of settings: its top level must be keys such as server: and db:";
        }
        Optional<String> clash = KnownSettings.listClash();
        if (clash.isPresent()) {
            return "The environment variable " + clash.get() + " sets a key below a list setting, which has none; unset "
                    + "it (a list is one comma-separated variable: ADMIN_TOKENS=tokenA,tokenB)";
        }
        return source + " cannot be read: " + firstLine(deepest(e).getMessage());
    }

    private static Throwable deepest(Throwable e) {
        Throwable deepest = e;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        return deepest;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
