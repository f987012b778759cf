package dev.herald;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;

/**
 * Where configuration comes from, highest priority first: system properties, environment variables
 * ({@code SERVER_PORT} sets {@code server.port}), the environment's file, the bundled defaults
 * (README.md#configuration).
 */
public final class HeraldConfig {

    private HeraldConfig() {
    }

    /** The file is the first program argument, else {@code HERALD_CONFIG}, else none. */
    public static Config load(String[] args) {
        Optional<Path> file = configFile(args);
        List<Supplier<? extends ConfigSource>> overrides = new ArrayList<>();
        overrides.add(ConfigSources.systemProperties());
        overrides.add(ConfigSources.environmentVariables());
        file.ifPresent(path -> overrides.add(ConfigSources.file(path)));
        return withDefaults(overrides);
    }

    /** The bundled defaults and named statements under the given sources; tests build their config here too. */
    public static Config withDefaults(List<Supplier<? extends ConfigSource>> overrides) {
        List<Supplier<? extends ConfigSource>> sources = new ArrayList<>(overrides);
        sources.add(ConfigSources.classpath("application.yaml"));
        // At the root, outside any package: in the linked image the module's packages are encapsulated, and a
        // resource under db/ would be out of Helidon config's reach.
        sources.add(ConfigSources.classpath("statements.yaml"));
        return Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .sources(sources)
                .build();
    }

    private static Optional<Path> configFile(String[] args) {
        Optional<Path> file = args.length > 0
                ? Optional.of(Path.of(args[0]))
                : Optional.ofNullable(System.getenv("HERALD_CONFIG")).filter(name -> !name.isBlank()).map(Path::of);
        file.filter(path -> !Files.isRegularFile(path)).ifPresent(path -> {
            throw new IllegalArgumentException("Configuration file not found: " + path.toAbsolutePath());
        });
        return file;
    }
}
