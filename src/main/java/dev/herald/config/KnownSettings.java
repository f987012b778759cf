package dev.herald.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.storage.HikariSettings;
import dev.herald.text.NearestName;

/**
 * Finds settings Herald does not know under the sections it owns: a misspelled key is otherwise ignored without a
 * word, and under {@code db} that silently means another database (the embedded H2 for a misspelled URL).
 *
 * <p>The known keys are those of the bundled application.yaml, the few with no default, HikariCP's properties under
 * {@code db.connection}, and the DB Client's parameters; {@code db.statements.*} and the driver's
 * {@code db.connection.dataSource.*} are free. HikariCP's names are known in any case, as environment variables
 * deliver them in lower case. {@code server} is Helidon's: its first level is checked against Helidon's own settings
 * (a misspelled {@code server.prot} was ignored, and the port error that followed named 8080), nothing below it.
 */
public final class KnownSettings {

    /** The sections of the configuration that are Herald's, by their environment variables' prefixes. */
    private static final Set<String> SECTIONS = Set.of("observe", "db", "rate-limit", "cors", "access-log", "admin",
                                                       "limits", "feed", "tracking", "sdk", "user-tokens",
                                                       "config", "webhooks");
    private static final Set<String> WITHOUT_DEFAULT = Set.of("admin.tokens", "admin.accounts.name",
                                                              "admin.accounts.role", "admin.accounts.token-sha256",
                                                              "cors.allowed-origins",
                                                              "rate-limit.trusted-proxies",
                                                              "webhooks.allowed-addresses");
    /** The settings that are lists; every other known setting is one value. */
    private static final Set<String> LISTS = Set.of("admin.tokens", "admin.accounts", "cors.allowed-origins",
                                                    "rate-limit.trusted-proxies", "webhooks.allowed-addresses");
    /** Helidon's {@code server.*} settings that Herald reads as one value itself, before Helidon does. */
    private static final Set<String> SERVER_VALUES = Set.of("server.port", "server.host");
    private static final Set<String> FREE_PREFIXES = Set.of("db.statements.");
    // Helidon's JdbcParametersConfig, 4.1.7.
    private static final Set<String> DB_CLIENT_PARAMETERS = Set.of("use-n-string", "use-string-binding",
            "string-binding-size", "use-byte-array-binding", "timestamp-for-local-time", "set-object-for-java-time");
    /**
     * Helidon's own {@code server.*} settings, the first key below {@code server}: those of its listener and web
     * server in Helidon 4.5.0 (the webserver module's config-metadata.json; a test compares the two). Below them
     * ({@code server.tls.*}, {@code server.sockets.*}) nothing is checked.
     */
    static final Set<String> SERVER_OPTIONS = Set.of("backlog", "bind-address", "concurrency-limit",
            "concurrency-limit-discover-services", "connection-config", "connection-options", "content-encoding",
            "enable-proxy-protocol", "error-handling", "features", "features-discover-services", "host",
            "idle-connection-period", "idle-connection-timeout", "ignore-invalid-named-routing",
            "max-concurrent-requests", "max-in-memory-entity", "max-payload-size", "max-tcp-connections",
            "media-context", "name", "port", "protocols", "protocols-discover-services", "receive-buffer-size",
            "requested-uri-discovery", "restore-response-headers", "shutdown-grace-period", "shutdown-hook", "sockets",
            "smart-async-writes", "tls", "use-nio", "write-buffer-size", "write-queue-length");
    private static final String SERVER = "server.";
    private static final String CONNECTION = "db.connection.";
    private static final Pattern LIST_INDEX = Pattern.compile("\\.\\d+(?=\\.|$)");

    private final Set<String> known;
    /** The known keys as Helidon spells them in the environment, each dash an underscore ({@code LIMITS_READ_TIMEOUT}). */
    private final Set<String> spelledWithUnderscores = new TreeSet<>();

    private KnownSettings(Set<String> known) {
        this.known = known;
        known.forEach(key -> spelledWithUnderscores.add(EnvironmentSource.spelling(key)));
    }

    /**
     * Whether an environment variable's key (each {@code _} a dot, Herald's reading) is a known key that Helidon reads
     * from the variable all the same, each dash written {@code _} rather than {@code _DASH_} ({@code LIMITS_READ_TIMEOUT}
     * sets {@code limits.read-timeout}): an operator's trial found it applied while Herald warned it was ignored.
     */
    public boolean isSpelledWithUnderscores(String key) {
        String plain = LIST_INDEX.matcher(key).replaceAll("");
        return !isKnown(plain) && spelledWithUnderscores.contains(EnvironmentSource.spelling(plain));
    }

    /** The keys of the bundled defaults and those Herald reads without a default. */
    public static KnownSettings bundled() {
        Set<String> known = new TreeSet<>(WITHOUT_DEFAULT);
        known.addAll(DefaultKeys.ALL);
        HikariSettings.names().forEach(property -> known.add("db.connection." + property));
        DB_CLIENT_PARAMETERS.forEach(parameter -> known.add("db.parameters." + parameter));
        return new KnownSettings(known);
    }

    /**
     * Checks each key of one source.
     *
     * @param keys   the keys the source sets
     * @param origin how the operator set a key ({@code file config/prod.yaml}), for the message
     * @param strict whether every unknown key under {@code db} is an error: in a file, yes; in the environment only
     *               one close to a known key, since a container platform sets variables of its own ({@code DB_PORT}
     *               for a service named db)
     * @return one warning per unknown key that is not an error
     * @throws BadSetting for an unknown key under {@code db}, or a section where a single value belongs
     */
    public List<String> check(Iterable<String> keys, Function<String, String> origin, boolean strict) {
        List<String> warnings = new ArrayList<>();
        for (String key : keys) {
            requireNoListForAValue(key, origin);
            String plain = LIST_INDEX.matcher(key).replaceAll("");
            if (isKnown(plain)) {
                continue;
            }
            known.stream().filter(value -> plain.startsWith(value + ".")).findFirst().ifPresent(value -> {
                if (LISTS.contains(value)) {
                    // ADMIN_TOKENS_FILE, as container platforms name secrets' files: Herald reads no such variable.
                    throw new BadSetting(value + " is a list, and " + plain + " (" + origin.apply(key) + ") is no entry"
                            + " of it: Herald reads no _FILE variables; a list is one comma-separated variable ("
                            + ConfigValues.environmentName(value) + "=a,b) or a YAML list in the file");
                }
                throw new BadSetting(value + " (" + origin.apply(key) + ") must be a single value, not a section ("
                        + plain + ")");
            });
            Optional<String> near = nearest(plain);
            String message = plain + " (" + origin.apply(key) + ") is not a setting Herald knows"
                    + near.map(name -> " (did you mean " + name + "?)").orElse("");
            if ((plain.equals("db") || plain.startsWith("db.")) && (strict || near.isPresent())) {
                throw new BadSetting(message + ": a mistake under db could point Herald at another database than meant, so it is refused");
            }
            warnings.add(message + "; it is ignored");
        }
        return warnings;
    }

    /**
     * A list where one value belongs ({@code server.port: [8080]}, {@code SERVER_PORT_0}): its entries' keys look like
     * the setting's own once their index is dropped, and Helidon answered the setting's default for it, so Herald
     * listened on another port, or kept another limit, without a word.
     */
    private void requireNoListForAValue(String key, Function<String, String> origin) {
        Matcher index = LIST_INDEX.matcher(key);
        if (!index.find()) {
            return;
        }
        String setting = key.substring(0, index.start());
        boolean oneValue = setting.startsWith(SERVER) ? SERVER_VALUES.contains(setting)
                : isHeralds(setting) && !LISTS.contains(setting) && isKnown(setting);
        if (oneValue) {
            throw new BadSetting(setting + " (" + origin.apply(key) + ") must be a single value, not a list");
        }
    }

    /**
     * Whether Herald reads this key, or a list's entries under it ({@code admin.accounts}): a misspelt key, or one of
     * another program's, is no setting that a restart would apply.
     */
    public boolean reads(String key) {
        String plain = LIST_INDEX.matcher(key).replaceAll("");
        return (isHeralds(plain) || plain.startsWith(SERVER))
                && (isKnown(plain) || known.stream().anyMatch(value -> value.startsWith(plain + ".")));
    }

    /**
     * An environment variable below a list setting that is no entry of it ({@code ADMIN_TOKENS_FILE}, as container
     * platforms write secrets): Helidon cannot merge it with a list from the file, and fails the whole configuration.
     */
    static Optional<String> listClash() {
        return System.getenv().keySet().stream()
                .filter(name -> WITHOUT_DEFAULT.stream().map(ConfigValues::environmentName)
                        .anyMatch(list -> name.startsWith(list + "_") && !name.substring(list.length() + 1).matches("\\d+")))
                .sorted()
                .findFirst();
    }

    /** Whether a key is in Herald's sections or Helidon's {@code server}: no other key is read from configuration. */
    public static boolean isConfiguration(String key) {
        return isHeralds(key) || key.equals(SERVER.substring(0, SERVER.length() - 1)) || key.startsWith(SERVER);
    }

    /**
     * Whether an environment variable's key is checked: one of Herald's sections, or the two {@code server.*}
     * settings Herald reads itself (a list given for one of them, {@code SERVER_PORT_0}); Helidon's others, and the
     * rest of the environment, are not ours.
     */
    public static boolean isCheckedInTheEnvironment(String key) {
        return isHeralds(key)
                || SERVER_VALUES.stream().anyMatch(value -> key.equals(value) || key.startsWith(value + "."));
    }

    /** Whether a key is one of Herald's sections: only those are checked, the rest of the environment is not ours. */
    public static boolean isHeralds(String key) {
        int dot = key.indexOf('.');
        return SECTIONS.contains(dot < 0 ? key : key.substring(0, dot));
    }

    private boolean isKnown(String key) {
        if (key.startsWith(SERVER)) {
            int dot = key.indexOf('.', SERVER.length());
            return SERVER_OPTIONS.contains(dot < 0 ? key.substring(SERVER.length()) : key.substring(SERVER.length(), dot));
        }
        if (known.contains(key) || !isHeralds(key) && !isSectionTypo(key)) {
            return true;
        }
        if (key.startsWith(CONNECTION)) {
            // From the environment, HikariCP's names come in lower case; the driver reads its options in any case.
            String property = key.substring(CONNECTION.length());
            return HikariSettings.canonical(property).isPresent() || HikariSettings.isDriverOption(property);
        }
        return FREE_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /** A top-level key that is no section of ours but close to one ({@code lmits.connections}). */
    private static boolean isSectionTypo(String key) {
        int dot = key.indexOf('.');
        String section = dot < 0 ? key : key.substring(0, dot);
        List<String> sections = new ArrayList<>(SECTIONS);
        sections.add("server");
        return !section.equals("server") && NearestName.among(section, sections).isPresent();
    }

    private Optional<String> nearest(String key) {
        List<String> names = new ArrayList<>(known);
        SERVER_OPTIONS.forEach(option -> names.add(SERVER + option));
        return NearestName.among(key, names);
    }

    /**
     * The keys of the bundled application.yaml, from the one parse of it (BundledDefaults), made when first asked
     * for: {@link #isHeralds} needs none of them, and the start reads the defaults on another thread meanwhile.
     */
    private static final class DefaultKeys {
        static final List<String> ALL = YamlKeys.of(BundledDefaults.document());
    }
}
