package dev.herald.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.helidon.config.Config;
import io.helidon.config.spi.ConfigSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * System properties set Herald's settings above the file and Helidon's server settings, as before; only the rest of
 * them (the JVM's own) stay out of Herald's configuration.
 */
class SystemPropertiesTest {

    private static final List<String> SET = List.of("rate-limit.requests", "server.port", "herald-test.other");

    @TempDir
    Path directory;

    @AfterEach
    void clear() {
        SET.forEach(System::clearProperty);
    }

    @Test
    void herald_sAndServerSettingsAreTakenOverTheFile() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.yaml"), "db:\n  connection:\n    url: jdbc:h2:mem:props\n"
                + "rate-limit:\n  requests: 5\nserver:\n  port: 8081\n");
        System.setProperty("rate-limit.requests", "7");
        System.setProperty("server.port", "9091");

        Config config = HeraldConfig.load(Optional.of(file), List.of(HeraldConfig.systemProperties()));

        assertThat(config.get("rate-limit.requests").asInt().get(), is(7));
        assertThat(config.get("server.port").asInt().get(), is(9091));
    }

    @Test
    void theJvmsOwnPropertiesAreNotSettings() {
        System.setProperty("herald-test.other", "1");
        Supplier<? extends ConfigSource> source = HeraldConfig.systemProperties();

        Config config = HeraldConfig.withDefaults(List.of(source));

        assertThat(System.getProperty("java.version") != null, is(true));
        assertThat(config.get("java.version").exists(), is(false));
        assertThat(config.get("herald-test.other").exists(), is(false));
        assertThat("Herald's own defaults are still there", config.get("rate-limit.requests").asInt().get(), is(1000));
    }
}
