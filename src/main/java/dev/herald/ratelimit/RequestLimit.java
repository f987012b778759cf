package dev.herald.ratelimit;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * How many requests one client may make per window, and how many clients are tracked at once (memory stays bounded):
 * the public API's ({@code rate-limit}, {@link RateLimitSettings}) and the management API's own
 * ({@code admin.rate-limit}).
 */
public record RequestLimit(int requests, Duration window, int maxClients) {

    public RequestLimit {
        if (requests < 1 || window.toMillis() < 1 || maxClients < 1) {
            throw new IllegalArgumentException("requests, window and max-clients of a rate limit must be positive");
        }
    }

    /**
     * {@code admin.rate-limit}: 600 requests per minute by default, some ten a second, far above what a person in the
     * console asks, and a bound on what any client costs, whatever it presents.
     */
    public static RequestLimit management(Config config) {
        int requests = ConfigValues.integer(config.get("requests"), 600);
        Duration window = ConfigValues.duration(config.get("window"), Duration.ofSeconds(60));
        int maxClients = ConfigValues.integer(config.get("max-clients"), 10_000);
        if (requests < 1 || window.toMillis() < 1 || maxClients < 1) {
            throw new IllegalArgumentException("admin.rate-limit.requests, window and max-clients must be positive");
        }
        return new RequestLimit(requests, window, maxClients);
    }
}
