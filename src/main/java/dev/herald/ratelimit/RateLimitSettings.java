package dev.herald.ratelimit;

import java.time.Duration;
import java.util.List;

import io.helidon.config.Config;

/**
 * The {@code rate-limit} configuration.
 */
public record RateLimitSettings(int requests, Duration window, List<IpRange> trustedProxies, int maxClients) {

    public RateLimitSettings {
        if (requests < 1 || window.toMillis() < 1 || maxClients < 1) {
            throw new IllegalArgumentException("rate-limit.requests, window and max-clients must be positive");
        }
        trustedProxies = List.copyOf(trustedProxies);
    }

    public static RateLimitSettings from(Config config) {
        return new RateLimitSettings(
                config.get("requests").asInt().orElse(1000),
                config.get("window").as(Duration.class).orElse(Duration.ofSeconds(60)),
                config.get("trusted-proxies").asList(String.class).orElse(List.of()).stream()
                        .map(IpRange::parse)
                        .toList(),
                config.get("max-clients").asInt().orElse(100_000));
    }
}
