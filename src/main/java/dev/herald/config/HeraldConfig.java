package dev.herald.config;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import dev.herald.startup.Ahead;

import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import io.helidon.config.ConfigSources;
import io.helidon.config.EnumMapperProvider;
import io.helidon.config.PropertiesConfigParser;
import io.helidon.config.spi.ConfigSource;
import io.helidon.config.yaml.YamlConfigParser;

/**
 * Where configuration comes from, highest priority first: system properties, environment variables
 * ({@code SERVER_PORT} sets {@code server.port}), the environment's file, the bundled defaults
 * (README.md#configuration).
 */
public final class HeraldConfig {

    private static final String DATABASE_URL = "db.connection.url";
    /** The largest configuration file read: a thousand accounts take about 150 KB. */
    static final long LARGEST_FILE = 1024 * 1024;
    // The file type bits of st_mode (sys/stat.h).
    private static final int FILE_TYPE = 0170000;
    private static final int NAMED_PIPE = 0010000;
    private static final int CHARACTER_DEVICE = 0020000;
    private static final int BLOCK_DEVICE = 0060000;
    private static final int SOCKET = 0140000;

    private HeraldConfig() {
    }

    /**
     * The file is the first program argument, else {@code HERALD_CONFIG}, else none. Says in the log where settings
     * come from, and warns of each setting Herald does not know.
     *
     * @throws BadSetting when the file cannot be read, or an unknown setting could change the database
     */
    public static Config load(String[] args) {
        return load(args, HeraldConfig::log);
    }

    /**
     * Begins {@link #load(String[])} on a thread of its own: the start reads its configuration while logging and
     * Helidon's registry are set up (issue 33: 20 ms less to the first answer, docs/performance.md). What the read
     * says is logged by the thread that takes its result, in the same order and after logging is set up: a line
     * logged before that would not have Herald's format.
     */
    public static Ahead<Config> readAhead(String[] args) {
        Ahead<Read> read = new Ahead<>(() -> Read.of(args));
        read.begin("herald-config");
        return new Ahead<>(() -> read.get().logged());
    }

    /** The parse of the bundled defaults, to begin while the configuration's thread reads the file. */
    public static Ahead<?> defaultsReading() {
        return new Ahead<>(BundledDefaults::document);
    }

    private static Config load(String[] args, BiConsumer<Level, String> log) {
        Optional<Path> file = configFile(args);
        file.ifPresent(path -> requireReadable(path, args.length > 0 ? " (the first argument)" : " (HERALD_CONFIG)"));
        log.accept(Level.INFO, "Configuration, highest priority first: system properties, environment variables, "
                + file.map(path -> "file " + path + ", ").orElse("") + "bundled defaults");
        return load(file, aboveTheFile(), log);
    }

    // The logger is asked for when a line is written, not when the class loads: the start reads its configuration
    // on a thread begun before the JDK's first look for a logging back end (a scan of the class path), which the main
    // thread meanwhile makes.
    private static void log(Level level, String line) {
        System.getLogger(HeraldConfig.class.getName()).log(level, line);
    }

    /** A read of the start's configuration: what it said, and the configuration or why there is none. */
    private record Read(List<Map.Entry<Level, String>> said, Config config, RuntimeException failure) {

        static Read of(String[] args) {
            List<Map.Entry<Level, String>> said = new ArrayList<>();
            try {
                return new Read(said, load(args, (level, line) -> said.add(Map.entry(level, line))), null);
            } catch (RuntimeException e) {
                return new Read(said, null, e);
            }
        }

        Config logged() {
            said.forEach(line -> log(line.getKey(), line.getValue()));
            if (failure != null) {
                throw failure;
            }
            return config;
        }
    }

    /** The file of {@link #load(String[])}, if any, unread: the one a reload reads again. */
    public static Optional<Path> file(String[] args) {
        return configFile(args);
    }

    /**
     * The same sources as {@link #load(String[])} read again, while Herald runs: the file as it is now, under the
     * environment and system properties of the start (a process's own do not change). Checked as at start; warns
     * again of each setting Herald does not know.
     *
     * @throws BadSetting as {@link #load(String[])}
     */
    public static Config reload(Optional<Path> file) {
        return load(file, aboveTheFile(), HeraldConfig::log);
    }

    /**
     * The file (if any) under {@code above}, over the bundled defaults, checked as at start; tests put their
     * settings above a file of their own here.
     *
     * @throws BadSetting when the file cannot be read, or an unknown setting could change the database
     */
    public static Config load(Optional<Path> file, List<Supplier<? extends ConfigSource>> above) {
        return load(file, above, HeraldConfig::log);
    }

    private static Config load(Optional<Path> file, List<Supplier<? extends ConfigSource>> above,
                               BiConsumer<Level, String> log) {
        file.ifPresent(path -> requireReadable(path, ""));
        List<Supplier<? extends ConfigSource>> overrides = new ArrayList<>(above);
        Optional<Object> parsed = file.flatMap(DuplicateKeys::refuse);
        // The file as DuplicateKeys parsed it; Helidon reads it itself only when that parse has nothing to give:
        // another format, an empty file, or a mistake, which Helidon's parse then describes.
        file.ifPresent(path -> overrides.add(parsed.filter(Map.class::isInstance)
                .<Supplier<? extends ConfigSource>>map(document -> YamlTree.source((Map<?, ?>) document))
                .orElseGet(() -> ConfigSources.file(path))));
        Config config;
        try {
            config = withDefaults(overrides);
        } catch (ConfigException e) {
            throw new BadSetting(ConfigFileErrors.describe(file, e));
        }
        checkKeys(file, parsed, log);
        return config;
    }

    /**
     * The file's own settings, without the defaults and without what the environment and system properties set above
     * it: what a reload compares with the running configuration to find settings of the file that are not used.
     * Parsed as {@link #load} parses it, without its checks (the reload's own load has made them).
     */
    public static Config fileAlone(Path file) {
        Optional<Object> parsed = DuplicateKeys.refuse(file);
        Supplier<? extends ConfigSource> source = parsed.filter(Map.class::isInstance)
                .<Supplier<? extends ConfigSource>>map(document -> YamlTree.source((Map<?, ?>) document))
                .orElseGet(() -> ConfigSources.file(file));
        return builder().sources(List.of(source)).build();
    }

    private static List<Supplier<? extends ConfigSource>> aboveTheFile() {
        return List.of(systemProperties(), EnvironmentSource.create());
    }

    /**
     * The system properties in Herald's sections and Helidon's {@code server}: no other key is read from the
     * configuration. The JVM's own sixty-odd ({@code java.*}, {@code os.*}, {@code user.*}) were each made a node
     * of Helidon's tree at every load (7 ms of a start's path, issue 33).
     */
    static Supplier<? extends ConfigSource> systemProperties() {
        Map<String, String> heralds = new TreeMap<>();
        System.getProperties().stringPropertyNames().stream()
                .filter(KnownSettings::isConfiguration)
                .forEach(key -> heralds.put(key, System.getProperty(key)));
        return ConfigSources.create(heralds, "system properties");
    }

    /**
     * The bundled defaults under the given sources; tests build their config here too. The named statements are not
     * among them: storage reads them itself, once (storage.BundledStatements).
     */
    public static Config withDefaults(List<Supplier<? extends ConfigSource>> overrides) {
        List<Supplier<? extends ConfigSource>> sources = new ArrayList<>(overrides);
        // Helidon's first build makes its empty configuration, itself built with the mapper services found through
        // ServiceLoader, each one's @Weight read by reflection: the JVM's first annotation, whose proxy class is spun
        // at run time (nearly a third of the configuration's read, a wall-clock profile, issue 33). Asked for before
        // the bundled defaults, it is made while the thread ahead parses them.
        Config.empty();
        sources.add(BundledDefaults.source());
        // No ${...} in keys: Herald's keys are fixed names, a key the known-keys check does not know is warned of
        // as written, and the resolving walked every value of every source at each load (8 ms of a start).
        return builder()
                .disableKeyResolving()
                .sources(sources)
                .build();
    }

    /**
     * Helidon's configuration without its own environment and system properties sources (Herald adds its own), and
     * with the parsers and the enum mapper it would find through ServiceLoader named instead: finding them read each
     * one's {@code @Weight} by reflection, on a cold JVM its first annotation, whose proxy class is spun at run time
     * (12 ms of the configuration's read, a wall-clock profile, issue 33). The same parsers and mapper either way;
     * no filter: no module of Herald's provides one, and the look for them scanned the class path.
     */
    private static Config.Builder builder() {
        return Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .disableParserServices()
                .disableFilterServices()
                .addParser(YamlConfigParser.create())
                .addParser(new PropertiesConfigParser())
                .disableMapperServices()
                .addMapper(new EnumMapperProvider());
    }

    /** @param parsed the file as DuplicateKeys read it, when it is YAML: its keys without a parse of Helidon's */
    private static void checkKeys(Optional<Path> file, Optional<Object> parsed, BiConsumer<Level, String> log) {
        KnownSettings known = KnownSettings.bundled();
        List<String> warnings = new ArrayList<>();
        List<String> inFile = parsed.map(YamlKeys::of).or(() -> file.map(HeraldConfig::fileKeys)).orElseGet(List::of);
        file.ifPresent(path -> warnings.addAll(known.check(inFile, key -> "file " + path, true)));
        Map<String, String> environment = environmentKeys(known);
        file.ifPresent(path -> requireNamedDatabase(path, inFile, environment));
        warnings.addAll(known.check(environment.keySet(), key -> "environment variable " + environment.get(key), false));
        warnings.addAll(bothSpellings(System.getenv()));
        warnings.addAll(known.check(System.getProperties().stringPropertyNames().stream()
                                            .filter(KnownSettings::isHeralds).toList(),
                                    key -> "system property " + key, true));
        warnings.forEach(warning -> log.accept(Level.WARNING, warning));
    }

    /**
     * With a configuration file, the database must be named: by the file, the environment or a system property. The
     * bundled default, embedded H2, is for a start without any file. A file whose {@code db} section was lost (given
     * twice, the second without the URL; misplaced under another key) otherwise started production on an empty H2
     * database beside the binary, with one "Database: H2" line as the only sign.
     */
    private static void requireNamedDatabase(Path file, List<String> inFile, Map<String, String> environment) {
        if (inFile.contains(DATABASE_URL) || environment.containsKey(DATABASE_URL)
                || System.getProperty(DATABASE_URL) != null) {
            return;
        }
        throw new BadSetting("No database is named: neither file " + file + " nor the environment sets "
                + DATABASE_URL + " (" + ConfigValues.environmentName(DATABASE_URL) + "), and Herald does not fall back "
                + "to its embedded H2 database when a configuration file is given. Set it: jdbc:mariadb://host:3306/herald, "
                + "or jdbc:h2:file:./data/herald to run on embedded H2 on purpose");
    }

    private static List<String> fileKeys(Path path) {
        Config alone = builder().sources(List.of(ConfigSources.file(path))).build();
        return List.copyOf(alone.asMap().orElseGet(Map::of).keySet());
    }

    /**
     * The keys environment variables set in Herald's sections, each with its variable, as Helidon reads them:
     * {@code _DASH_} is a dash, {@code _} a dot, all lower case; but for a known key with dashes that Helidon also
     * reads with each dash an {@code _}, which is a known setting, not an unknown one.
     */
    private static Map<String, String> environmentKeys(KnownSettings known) {
        Map<String, String> keys = new TreeMap<>();
        System.getenv().forEach((name, value) -> {
            String key = name.toLowerCase(Locale.ROOT).replace("_dash_", "-").replace('_', '.');
            if (KnownSettings.isCheckedInTheEnvironment(key) && !known.isSpelledWithUnderscores(key)) {
                keys.put(key, name);
            }
        });
        return keys;
    }

    /**
     * A setting given by two variables, with {@code _DASH_} and with {@code _} for its dashes (both read by Helidon):
     * the first wins, and an outside review found the other silently ignored.
     */
    static List<String> bothSpellings(Map<String, String> environment) {
        List<String> warnings = new ArrayList<>();
        new TreeMap<>(environment).forEach((name, value) -> {
            String underscored = name.replace("_DASH_", "_");
            if (!underscored.equals(name) && environment.containsKey(underscored)) {
                warnings.add(name + " and " + underscored + " set the same setting; " + name + " is used ("
                        + (value.equals(environment.get(underscored)) ? "they agree" : "the other is ignored")
                        + "): set one");
            }
        });
        return warnings;
    }

    private static Optional<Path> configFile(String[] args) {
        return args.length > 0
                ? Optional.of(Path.of(args[0]))
                : Optional.ofNullable(System.getenv("HERALD_CONFIG")).filter(name -> !name.isBlank()).map(Path::of);
    }

    /** @param namedBy how the operator named it, for the message: {@code " (HERALD_CONFIG)"}, or nothing */
    private static void requireReadable(Path file, String namedBy) {
        Optional<String> problem = unreadable(file);
        if (problem.isPresent()) {
            throw new BadSetting(problem.get() + namedBy);
        }
        if (!Files.isReadable(file)) {
            throw new BadSetting("Configuration file " + file.toAbsolutePath() + " is not readable by this user");
        }
    }

    /**
     * Why the file is not one to read, if it is not: missing, not a regular file, or larger than {@link #LARGEST_FILE}.
     * Asked before every read, by the watcher too: opening a named pipe blocks until a writer comes, and a file read
     * whole could exhaust the heap, either of which would stop every later reload, SIGHUP's included.
     */
    static Optional<String> unreadable(Path file) {
        String path = file.toAbsolutePath().toString();
        if (!Files.exists(file)) {
            return Optional.of("Configuration file not found: " + path);
        }
        if (Files.isDirectory(file)) {
            return Optional.of("Configuration file " + path + " is a directory, not a file");
        }
        if (!Files.isRegularFile(file)) {
            return Optional.of("Configuration file " + path + " is " + kind(file) + ", not a regular file");
        }
        try {
            long size = Files.size(file);
            if (size > LARGEST_FILE) {
                return Optional.of("Configuration file " + path + " is " + size + " bytes, more than 1 MiB ("
                        + LARGEST_FILE + "), which no configuration needs");
            }
        } catch (IOException e) {
            return Optional.of("Configuration file " + path + " cannot be read: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** What a file that is neither regular nor a directory is, as {@code ls -l} would say. */
    private static String kind(Path file) {
        try {
            int type = (Integer) Files.getAttribute(file, "unix:mode") & FILE_TYPE;
            return switch (type) {
                case NAMED_PIPE -> "a named pipe (FIFO)";
                case CHARACTER_DEVICE -> "a character device";
                case BLOCK_DEVICE -> "a block device";
                case SOCKET -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "a special file";
        }
    }
}
