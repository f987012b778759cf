package dev.herald.admin;

import java.time.Duration;

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
                config.get("limit").asInt().orElse(10),
                config.get("window").as(Duration.class).orElse(Duration.ofSeconds(60)),
                config.get("max-clients").asInt().orElse(10_000));
    }
}
