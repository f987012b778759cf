package dev.herald.identity;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The verified-token cache stays within its entries and its bytes, serves nothing past exp (with the skew), and drops
 * expired entries before live ones.
 */
class VerifiedTokensTest {

    private static final long NOW = 1_000_000_000L;

    @Test
    void entriesAreBoundedAndExpiredOnesGoFirst() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        10, 1L << 30));
        for (int i = 0; i < 5; i++) {
            cache.put("expired" + i, 300, verified(NOW - 61_000), NOW);
        }
        for (int i = 0; i < 10; i++) {
            cache.put("live" + i, 300, verified(NOW + 3_600_000), NOW);
        }
        assertThat(cache.size(), is(10));
        for (int i = 0; i < 10; i++) {
            assertThat("live" + i, cache.find("live" + i, NOW).isPresent(), is(true));
        }
        for (int i = 0; i < 100; i++) {
            cache.put("more" + i, 300, verified(NOW + 3_600_000), NOW);
            assertThat(cache.size(), lessThanOrEqualTo(10));
        }
    }

    /** A full cache with new users arriving makes room for a tenth at once: one scan per tenth, not per token. */
    @Test
    void aFullCacheMakesRoomForATenthAtOnce() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        100, 1L << 30));
        for (int i = 0; i < 101; i++) {
            cache.put("user" + i, 300, verified(NOW + 3_600_000), NOW);
        }
        assertThat("past the bound: down to nine tenths", cache.size(), is(90));
        for (int i = 0; i < 10; i++) {
            cache.put("next" + i, 300, verified(NOW + 3_600_000), NOW);
        }
        assertThat("room for ten without another scan", cache.size(), is(100));
    }

    @Test
    void bytesAreBounded() {
        long weight = VerifiedTokens.weight(8000, verified(NOW).identity());
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        100_000, 5 * weight));
        for (int i = 0; i < 50; i++) {
            cache.put("big" + i, 8000, verified(NOW + 3_600_000), NOW);
            assertThat(cache.size(), lessThanOrEqualTo(5));
        }
        VerifiedTokens none = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                       0, 0));
        none.put("any", 300, verified(NOW + 3_600_000), NOW);
        assertThat(none.size(), is(0));
    }

    @Test
    void nothingIsServedPastExpWithTheSkew() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        10, 1L << 20));
        cache.put("token", 300, verified(NOW), NOW - 1000);
        assertThat(cache.find("token", NOW + 60_000).isPresent(), is(true));
        assertThat(cache.find("token", NOW + 60_001).isPresent(), is(false));
        assertThat("and it is gone", cache.size(), is(0));
    }

    private static TokenVerifier.Verified verified(long expiresAt) {
        return new TokenVerifier.Verified(new UserIdentity("project", "user", null, Map.of("plan", "pro"), expiresAt),
                                          "kid");
    }
}
