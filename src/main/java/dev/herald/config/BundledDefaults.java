package dev.herald.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.LoaderOptions;

import io.helidon.config.spi.ConfigSource;

/**
 * The bundled application.yaml, parsed once: its keys are what the known-keys check knows, and its tree is the
 * lowest configuration source, rebuilt from the parse for each load (a reload too) rather than read again.
 */
final class BundledDefaults {

    private static final Map<?, ?> DOCUMENT = read();

    private BundledDefaults() {
    }

    static Map<?, ?> document() {
        return DOCUMENT;
    }

    static ConfigSource source() {
        return YamlTree.source(DOCUMENT);
    }

    private static Map<?, ?> read() {
        try (InputStream in = BundledDefaults.class.getResourceAsStream("/application.yaml")) {
            if (in == null) {
                throw new IllegalStateException("application.yaml is missing from Herald's module");
            }
            // As Helidon's YAML parser reads it: the safe constructor, nothing but maps, lists and values.
            return (Map<?, ?>) new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
