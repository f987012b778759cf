package dev.herald;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.herald.account.AccountChanges;
import dev.herald.account.AdminSettings;
import dev.herald.config.ConfigValues;
import dev.herald.config.ConfigWatcher;
import dev.herald.config.HeraldConfig;
import dev.herald.config.KnownSettings;

import io.helidon.config.Config;

/**
 * A configuration changed while Herald runs (docs/operations.md#changing-the-configuration-without-a-restart): read
 * whole again from the same sources as at start, checked as at start ({@link Main#checkSettings}), and then either
 * kept out whole, with one line that says what is wrong, or its live settings ({@link LiveSettings}) applied, with
 * one line that names what changed, and one warning per setting that changed but is read at start only.
 */
final class Reconfiguration {

    private static final System.Logger LOGGER = System.getLogger(Reconfiguration.class.getName());
    private static final Pattern LIST_ENTRY = Pattern.compile("\\.\\d+(\\..*)?$");
    private static final Pattern ENTRY_INDEX = Pattern.compile("\\.\\d+");

    private final Supplier<Config> loader;
    /** The file's own settings as they are now ({@link HeraldConfig#fileAlone}). */
    private final Supplier<Config> fileAlone;
    private final LiveSettings live;
    /** The configuration of the start: what the settings read at start only hold while Herald runs. */
    private final Config started;
    /**
     * Its settings, flattened at the first reload rather than at start: the walk over every key (and the known
     * keys' tree) ran on the main thread beside the first requests, for a reload that may never come.
     */
    private Map<String, String> atStart;
    /** The configuration last applied: the live settings hold its values. */
    private Config current;

    /**
     * @param loader    reads the whole configuration again, or throws saying what is wrong
     * @param fileAlone reads the file's own settings, once the loader has read them
     * @param started   the configuration Herald started with, and runs on
     */
    Reconfiguration(Supplier<Config> loader, Supplier<Config> fileAlone, Config started, LiveSettings live) {
        this.loader = loader;
        this.fileAlone = fileAlone;
        this.started = started;
        this.current = started;
        this.live = live;
    }

    /** Watches the file Herald was started with ({@code config.reload-interval}) and takes SIGHUP. */
    static ConfigWatcher watch(String[] args, Config config, Services services) {
        Optional<Path> file = HeraldConfig.file(args);
        Supplier<Config> loader = file.isPresent() ? () -> HeraldConfig.reload(file) : () -> {
            throw new IllegalStateException("Herald was started without a configuration file; environment variables"
                    + " and system properties are read at start only");
        };
        Reconfiguration reconfiguration = new Reconfiguration(loader, () -> HeraldConfig.fileAlone(file.orElseThrow()),
                                                              config, services.live());
        return ConfigWatcher.start(file, ConfigWatcher.interval(config), reconfiguration::reload);
    }

    /** Reads the configuration again and applies what may change live; the watcher's work, and the tests'. */
    synchronized void reload() {
        Config next;
        try {
            next = loader.get();
            Main.checkSettings(next);
        } catch (RuntimeException e) {
            LOGGER.log(Level.WARNING, "Configuration not reloaded: " + StartFailures.describe(e));
            return;
        }
        if (atStart == null) {
            atStart = settings(started);
        }
        Map<String, String> before = settings(current);
        Map<String, String> after = settings(next);
        // Against the start, not the last reload: a setting put back as it was at start says nothing, and one that
        // still differs says so at each reload until the restart.
        // A key Herald does not read (misspelt, say) has had its warning from the check: no restart would apply it.
        KnownSettings known = KnownSettings.bundled();
        changed(atStart, after).stream().filter(setting -> !isLive(setting) && known.reads(setting)).forEach(
                setting -> LOGGER.log(Level.WARNING, setting + " changed in the file: takes effect at the next restart"));
        List<String> changedLive = changed(before, after).stream()
                .filter(setting -> isLive(setting) && known.reads(setting)).toList();
        warnOfUnusedFileSettings(after, known);
        live.apply(next);
        Config previous = current;
        current = next;
        if (changedLive.isEmpty()) {
            LOGGER.log(Level.INFO, "Configuration read again: no setting that changes live has changed");
            return;
        }
        LOGGER.log(Level.INFO, "Configuration reloaded: " + String.join("; ", describe(changedLive, previous, next,
                                                                                           before, after)));
        if (changedLive.contains("admin.accounts") || changedLive.contains("admin.tokens")) {
            try {
                live.endUnconfiguredSessions();
            } catch (RuntimeException e) {
                // Their requests are refused in any case: the credentials are asked at each.
                LOGGER.log(Level.WARNING, "The sessions of removed accounts were not deleted: "
                        + StartFailures.describe(e) + "; they are refused, and deleted at the next reload or start");
            }
        }
    }

    /**
     * An operator who edits the file and finds nothing changed is told why: a setting the environment or a system
     * property sets wins over the file. Said at each reload, in one line, while the file sets such a setting to
     * another value; the values are not shown (they may be secrets).
     */
    private void warnOfUnusedFileSettings(Map<String, String> running, KnownSettings known) {
        Map<String, String> inFile;
        try {
            inFile = settings(fileAlone.get());
        } catch (RuntimeException e) {
            // The file changed again since the loader read it: the reload that change brings says what it holds.
            return;
        }
        List<String> unused = inFile.keySet().stream()
                .filter(setting -> known.reads(setting) && !inFile.get(setting).equals(running.get(setting)))
                .map(setting -> setting + " (" + (System.getenv(ConfigValues.environmentName(setting)) != null
                        ? "environment variable " + ConfigValues.environmentName(setting)
                        : "system property " + setting) + ")")
                .toList();
        if (!unused.isEmpty()) {
            // INFO: a file of defaults under the environment's values is a common way, and no mistake in itself.
            LOGGER.log(Level.INFO, "Set in the file but not used, since the environment or a system property sets "
                    + "them and wins: " + String.join(", ", unused));
        }
    }

    /** Each setting's value, a list's entries joined under the list's key ({@code cors.allowed-origins}). */
    private static Map<String, String> settings(Config config) {
        Map<String, String> settings = new TreeMap<>();
        new TreeMap<>(config.asMap().orElseGet(Map::of)).forEach((key, value) -> {
            String setting = setting(key);
            String entry = key.substring(setting.length());
            settings.merge(setting, ENTRY_INDEX.matcher(entry).matches() || entry.isEmpty() ? value
                                    : entry.substring(entry.indexOf('.', 1) + 1) + "=" + value,
                           (a, b) -> a + ", " + b);
        });
        return settings;
    }

    /** The setting a key belongs to: a list's entry ({@code admin.accounts.0.name}) to the list. */
    private static String setting(String key) {
        return LIST_ENTRY.matcher(key).replaceFirst("");
    }

    private static List<String> changed(Map<String, String> before, Map<String, String> after) {
        TreeSet<String> all = new TreeSet<>(before.keySet());
        all.addAll(after.keySet());
        return all.stream().filter(setting -> !String.valueOf(before.get(setting))
                .equals(String.valueOf(after.get(setting)))).toList();
    }

    private static boolean isLive(String setting) {
        return LiveSettings.KEYS.stream().anyMatch(key -> setting.equals(key) || setting.startsWith(key + "."));
    }

    /** What changed, each setting named; a secret's value never shown, an account by its name only. */
    private static List<String> describe(List<String> settings, Config previous, Config next,
                                         Map<String, String> before, Map<String, String> after) {
        return settings.stream().map(setting -> setting + ": " + switch (setting) {
            case "admin.tokens" -> AccountChanges.tokensBetween(AdminSettings.from(previous.get("admin")),
                                                                AdminSettings.from(next.get("admin")));
            case "admin.accounts" -> AccountChanges.between(AdminSettings.from(previous.get("admin")),
                                                            AdminSettings.from(next.get("admin")));
            default -> after.getOrDefault(setting, "unset") + " (was " + before.getOrDefault(setting, "unset") + ")";
        }).toList();
    }
}
