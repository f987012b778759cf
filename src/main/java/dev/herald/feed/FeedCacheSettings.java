package dev.herald.feed;

import java.time.Duration;

import io.helidon.config.Config;

/**
 * {@code feed.cache.*}: whether Get Notifications answers from memory, how stale another instance's write may be
 * seen here, and how much memory the answers may take.
 *
 * @param maxStaleness a write through another instance on the same database shows here within this
 * @param maxKeys      the most keys whose answers are kept
 * @param maxBytes     the most body bytes kept; an answer larger than this is served but never kept
 */
public record FeedCacheSettings(boolean enabled, Duration maxStaleness, int maxKeys, long maxBytes) {

    public static final Duration DEFAULT_MAX_STALENESS = Duration.ofSeconds(1);

    public static FeedCacheSettings from(Config cache) {
        FeedCacheSettings settings = new FeedCacheSettings(
                cache.get("enabled").asBoolean().orElse(true),
                cache.get("max-staleness").as(Duration.class).orElse(DEFAULT_MAX_STALENESS),
                cache.get("max-keys").asInt().orElse(10_000),
                cache.get("max-bytes").asLong().orElse(16L * 1024 * 1024));
        if (settings.maxStaleness.isNegative() || settings.maxStaleness.isZero() || settings.maxKeys < 1
                || settings.maxBytes < 1) {
            throw new IllegalArgumentException("feed.cache: max-staleness, max-keys and max-bytes must be positive");
        }
        return settings;
    }
}
