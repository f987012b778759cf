package dev.herald.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Herald hands Helidon the YAML files it has already parsed (YamlTree): the configuration must be node for node the
 * one Helidon's own parser makes of the same text, or a setting would read differently than documented.
 */
class YamlTreeTest {

    private static final String EVERY_KIND = """
            admin:
              tokens: [a, "b,c", 12]
              accounts:
                - name: ops
                  role: admin
                - {name: "x y", role: member}
            cors: {}
            feed:
            limits: {ratio: 1.50, big: 12345678901234567890, yes: yes, on: true, off: ~, date: 2026-11-28}
            nested: [[1, 2], [three]]
            "dotted.key": value
            quoted: "${not.resolved}"
            multi: |
              two
              lines
            """;

    @Test
    void everyKindOfNodeReadsAsHelidonsParserReadsIt() {
        assertThat(nodes(YamlTree.source(new Yaml().load(EVERY_KIND))),
                   is(nodes(ConfigSources.create(EVERY_KIND, MediaTypes.APPLICATION_X_YAML))));
    }

    @Test
    void theBundledDefaultsReadAsHelidonsParserReadsThem() {
        assertThat(nodes(BundledDefaults.source()), is(nodes(ConfigSources.classpath("application.yaml").build())));
    }

    @Test
    void theShippedFilesReadAsHelidonsParserReadsThem() throws IOException {
        for (String file : new String[] {"config/prod.yaml", "config/dev.yaml"}) {
            Path path = Path.of(file);
            try (Reader reader = Files.newBufferedReader(path)) {
                assertThat(file, nodes(YamlTree.source(new Yaml().load(reader))),
                           is(nodes(ConfigSources.file(path).build())));
            }
        }
    }

    /** Every node of the configuration: its key, its type and, for a value, the value. */
    private static Map<String, String> nodes(ConfigSource source) {
        Config config = Config.builder(() -> source)
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
        Map<String, String> nodes = new TreeMap<>();
        config.traverse().forEach(node -> nodes.put(node.key().toString(),
                node.type() + (node.isLeaf() ? "=" + node.asString().orElse("<none>") : "")));
        return nodes;
    }
}
