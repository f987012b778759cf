package dev.herald.observe;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code observe} configuration: where health, metrics and the OpenAPI document are served. They have a
 * listener of their own, on the loopback interface by default, so that no spelling of a path on the public port
 * ({@code /;x/observe}, {@code /%6fbserve}, {@code //observe}) can reach them, whatever a proxy in front filters.
 */
public record ObserveSettings(String host, int port) {

    /** The name of the listener, for Helidon and for tests that address it. */
    public static final String SOCKET = "observe";

    public ObserveSettings {
        if (host.isBlank()) {
            throw new IllegalArgumentException("observe.host must not be empty");
        }
    }

    public static ObserveSettings from(Config config) {
        return new ObserveSettings(ConfigValues.string(config.get("host")).orElse("127.0.0.1"),
                                   ConfigValues.port(config.get("port"), 8081));
    }
}
