package dev.herald.cors;

import java.util.List;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code cors} configuration: no origins listed means any origin.
 */
public record CorsSettings(List<String> allowedOrigins) {

    public CorsSettings {
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    public static CorsSettings from(Config config) {
        return new CorsSettings(ConfigValues.list(config.get("allowed-origins")));
    }

    boolean allowsAnyOrigin() {
        return allowedOrigins.isEmpty();
    }
}
