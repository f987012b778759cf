package dev.herald.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Helidon's parsers and enum mapper, which Herald names rather than have Helidon find them, still do their part. */
class ConfigBuilderTest {

    @TempDir
    Path directory;

    @Test
    void anEnumSettingMaps() {
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of("some.unit", "SECONDS"))));
        assertThat(config.get("some.unit").as(TimeUnit.class).get(), is(TimeUnit.SECONDS));
    }

    @Test
    void aFileSnakeYamlCannotReadIsParsedByHelidonBySuffix() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.properties"),
                                      "db.connection.url=jdbc:h2:mem:props\nrate-limit.requests=7\n");
        Config config = HeraldConfig.load(Optional.of(file), List.of());
        assertThat(config.get("rate-limit.requests").asInt().get(), is(7));
        assertThat(config.get("db.connection.url").asString().get(), is("jdbc:h2:mem:props"));
    }

    @Test
    void aYamlFileWithAMistakeIsNamedByHelidonsParser() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.yaml"), "db:\n  connection:\n   url: [\n");
        BadSetting refused = assertThrows(BadSetting.class, () -> HeraldConfig.load(Optional.of(file), List.of()));
        assertThat(refused.getMessage(), refused.getMessage().contains(file.toString()), is(true));
    }
}
