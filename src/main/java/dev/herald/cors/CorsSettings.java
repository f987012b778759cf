package dev.herald.cors;

import java.util.List;

import io.helidon.config.Config;

/**
 * The {@code cors} configuration: no origins listed means any origin.
 */
public record CorsSettings(List<String> allowedOrigins) {

    public CorsSettings {
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    public static CorsSettings from(Config config) {
        return new CorsSettings(config.get("allowed-origins").asList(String.class).orElse(List.of()));
    }

    boolean allowsAnyOrigin() {
        return allowedOrigins.isEmpty();
    }
}
