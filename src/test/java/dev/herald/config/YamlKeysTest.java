package dev.herald.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The known-keys check reads the keys of a file from SnakeYAML's parse: they must be those Helidon's configuration
 * has for the same file, or a setting would be called unknown (or an unknown one pass) where Helidon reads it.
 */
class YamlKeysTest {

    private static final String LISTS_AND_SECTIONS = """
                admin:
                  tokens: [a, b]
                  accounts:
                    - name: ops
                      role: admin
                cors: {}
                feed:
                """;

    @Test
    void theBundledDefaultsHaveTheKeysHelidonReads() throws IOException {
        try (InputStream in = YamlKeysTest.class.getResourceAsStream("/application.yaml")) {
            assertThat(new TreeSet<>(YamlKeys.of(new Yaml().load(in))),
                       is(helidonKeys(Config.builder(ConfigSources.classpath("application.yaml")))));
        }
    }

    @Test
    void theShippedFilesHaveTheKeysHelidonReads() throws IOException {
        for (String file : new String[] {"config/prod.yaml", "config/dev.yaml"}) {
            Path path = Path.of(file);
            try (Reader reader = Files.newBufferedReader(path)) {
                assertThat(file, new TreeSet<>(YamlKeys.of(new Yaml().load(reader))),
                           is(helidonKeys(Config.builder(ConfigSources.file(path)))));
            }
        }
    }

    @Test
    void listsAreNumberedEmptyKeysCountAndSectionsDoNot() {
        Object document = new Yaml().load(LISTS_AND_SECTIONS);
        assertThat(new TreeSet<>(YamlKeys.of(document)),
                   is(Set.of("admin.tokens.0", "admin.tokens.1", "admin.accounts.0.name", "admin.accounts.0.role",
                          "feed")));
        assertThat(new TreeSet<>(YamlKeys.of(document)), is(helidonKeys(Config.builder(ConfigSources.create(LISTS_AND_SECTIONS, MediaTypes.APPLICATION_X_YAML)))));
        assertThat(YamlKeys.of(null).isEmpty(), is(true));
    }

    private static Set<String> helidonKeys(Config.Builder builder) {
        Config config = builder.disableEnvironmentVariablesSource().disableSystemPropertiesSource().build();
        return new TreeSet<>(config.asMap().orElseGet(Map::of).keySet());
    }
}
