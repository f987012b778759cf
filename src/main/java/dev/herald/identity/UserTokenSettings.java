package dev.herald.identity;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code user-tokens.*}: the longest lifetime a token may claim, the clock skew allowed between the customer's
 * backend and Herald, and the bounds of the verified-token cache.
 *
 * @param maxLifetime  a token whose exp is further than this from its iat (or from now, without iat) is refused
 * @param clockSkew    allowed on exp, nbf and an iat in the future
 * @param cacheEntries the most verified tokens kept
 * @param cacheBytes   the most bytes of tokens kept (each counted with what its parsed claims take)
 */
public record UserTokenSettings(Duration maxLifetime, Duration clockSkew, int cacheEntries, long cacheBytes) {

    private static final Duration MOST_SKEW = Duration.ofMinutes(10);

    public static UserTokenSettings from(Config tokens) {
        UserTokenSettings settings = new UserTokenSettings(
                ConfigValues.duration(tokens.get("max-lifetime"), Duration.ofHours(24)),
                ConfigValues.duration(tokens.get("clock-skew"), Duration.ofSeconds(60)),
                ConfigValues.integer(tokens.get("cache.max-entries"), 100_000),
                ConfigValues.longInteger(tokens.get("cache.max-bytes"), 4L * 1024 * 1024));
        if (settings.maxLifetime.isNegative() || settings.maxLifetime.isZero()) {
            throw new IllegalArgumentException("user-tokens.max-lifetime must be positive, e.g. PT24H");
        }
        if (settings.clockSkew.isNegative() || settings.clockSkew.compareTo(MOST_SKEW) > 0) {
            throw new IllegalArgumentException("user-tokens.clock-skew must be between PT0S and PT10M, e.g. PT60S");
        }
        if (settings.cacheEntries < 0 || settings.cacheBytes < 0) {
            throw new IllegalArgumentException("user-tokens.cache: max-entries and max-bytes must be 0 (no cache) or "
                                                       + "more");
        }
        return settings;
    }
}
