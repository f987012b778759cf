package dev.herald.ratelimit;

import java.time.Duration;
import java.util.List;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;

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
                ConfigValues.integer(config.get("requests"), 1000),
                ConfigValues.duration(config.get("window"), Duration.ofSeconds(60)),
                ConfigValues.list(config.get("trusted-proxies")).stream()
                        .map(RateLimitSettings::trustedProxy)
                        .toList(),
                ConfigValues.integer(config.get("max-clients"), 100_000),
                new Ipv6Prefix(ConfigValues.integer(config.get("ipv6-prefix"), Ipv6Prefix.DEFAULT)));
    }

    /** How many requests a client may make per window, and how many clients are tracked. */
    public RequestLimit requestLimit() {
        return new RequestLimit(requests, window, maxClients);
    }

    private static IpRange trustedProxy(String entry) {
        try {
            return IpRange.parse(entry);
        } catch (IllegalArgumentException e) {
            throw new BadSetting("rate-limit.trusted-proxies (RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES): " + e.getMessage()
                    + "; write an address or a CIDR range, e.g. 10.0.0.0/8 or 2001:db8::/32");
        }
    }
}
