package dev.herald.ratelimit;

import java.time.Duration;
import java.util.List;

import io.helidon.config.Config;

/**
 * The {@code rate-limit} configuration. A value out of range ends the start with a line naming the setting.
 */
public record RateLimitSettings(int requests, Duration window, List<IpRange> trustedProxies, int maxClients,
                                Ipv6Prefix ipv6Prefix) {

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
                config.get("max-clients").asInt().orElse(100_000),
                new Ipv6Prefix(config.get("ipv6-prefix").asInt().orElse(Ipv6Prefix.DEFAULT)));
    }
}
