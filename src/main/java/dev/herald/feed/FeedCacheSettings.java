package dev.herald.feed;

import java.time.Duration;

import dev.herald.config.ConfigValues;

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
                ConfigValues.bool(cache.get("enabled"), true),
                ConfigValues.duration(cache.get("max-staleness"), DEFAULT_MAX_STALENESS),
                ConfigValues.integer(cache.get("max-keys"), 10_000),
                ConfigValues.longInteger(cache.get("max-bytes"), 16L * 1024 * 1024));
        if (settings.maxStaleness.isNegative() || settings.maxStaleness.isZero() || settings.maxKeys < 1
                || settings.maxBytes < 1) {
            throw new IllegalArgumentException("feed.cache: max-staleness, max-keys and max-bytes must be positive");
        }
        return settings;
    }
}
