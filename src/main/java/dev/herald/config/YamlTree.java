package dev.herald.config;

import java.util.List;
import java.util.Map;

import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigNode.ListNode;
import io.helidon.config.spi.ConfigNode.ObjectNode;
import io.helidon.config.spi.ConfigSource;

/**
 * A YAML document SnakeYAML has already parsed, handed to Helidon as a configuration source, node for node as
 * Helidon's own YAML parser builds it (every value its text, a {@code null} an empty value). Each YAML file is then
 * scanned once on the way to the first answer, not once for Herald's checks and again for Helidon
 * (docs/performance.md, start-up).
 */
final class YamlTree {

    private YamlTree() {
    }

    /** @param mapping the document's top level, a mapping of keys */
    static ConfigSource source(Map<?, ?> mapping) {
        return ConfigSources.create(object(mapping));
    }

    private static ObjectNode object(Map<?, ?> mapping) {
        ObjectNode.Builder builder = ObjectNode.builder();
        mapping.forEach((key, value) -> {
            String name = key.toString();
            if (value instanceof List<?> list) {
                builder.addList(name, list(list));
            } else if (value instanceof Map<?, ?> map) {
                builder.addObject(name, object(map));
            } else {
                builder.addValue(name, value == null ? "" : value.toString());
            }
        });
        return builder.build();
    }

    private static ListNode list(List<?> values) {
        ListNode.Builder builder = ListNode.builder();
        values.forEach(value -> {
            if (value instanceof List<?> list) {
                builder.addList(list(list));
            } else if (value instanceof Map<?, ?> map) {
                builder.addObject(object(map));
            } else {
                builder.addValue(value == null ? "" : value.toString());
            }
        });
        return builder.build();
    }
}
