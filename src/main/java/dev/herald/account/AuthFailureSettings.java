package dev.herald.account;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code admin.auth-failures} configuration: how many failed authentications a client may have per window
 * before its admin requests are refused, and how many clients are tracked at once.
 */
public record AuthFailureSettings(int limit, Duration window, int maxClients) {

    public AuthFailureSettings {
        if (limit < 1 || window.toMillis() < 1 || maxClients < 1) {
            throw new IllegalArgumentException("admin.auth-failures.limit, window and max-clients must be positive");
        }
    }

    public static AuthFailureSettings from(Config config) {
        return new AuthFailureSettings(
                ConfigValues.integer(config.get("limit"), 10),
                ConfigValues.duration(config.get("window"), Duration.ofSeconds(60)),
                ConfigValues.integer(config.get("max-clients"), 10_000));
    }
}
