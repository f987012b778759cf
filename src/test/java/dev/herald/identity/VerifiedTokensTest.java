package dev.herald.identity;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;
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
            cache.put(VerifiedTokens.digest("expired" + i), 300, verified(NOW - 61_000), NOW);
        }
        for (int i = 0; i < 10; i++) {
            cache.put(VerifiedTokens.digest("live" + i), 300, verified(NOW + 3_600_000), NOW);
        }
        assertThat(cache.size(), is(10));
        for (int i = 0; i < 10; i++) {
            assertThat("live" + i, cache.find(VerifiedTokens.digest("live" + i), NOW).isPresent(), is(true));
        }
        for (int i = 0; i < 100; i++) {
            cache.put(VerifiedTokens.digest("more" + i), 300, verified(NOW + 3_600_000), NOW);
            assertThat(cache.size(), lessThanOrEqualTo(10));
        }
    }

    /**
     * A full cache keeps whom it holds and verifies newcomers without keeping them: no churn of entries, and their
     * garbage, with more users than room. Expired entries make room again, swept at most once a second.
     */
    @Test
    void aFullCacheKeepsWhomItHoldsUntilTheyExpire() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        100, 1L << 30));
        long soon = NOW + 10_000;
        for (int i = 0; i < 100; i++) {
            cache.put(VerifiedTokens.digest("user" + i), 300, verified(soon), NOW);
        }
        cache.put(VerifiedTokens.digest("newcomer"), 300, verified(NOW + 3_600_000), NOW);
        assertThat("not kept", cache.find(VerifiedTokens.digest("newcomer"), NOW).isPresent(), is(false));
        for (int i = 0; i < 100; i++) {
            assertThat("user" + i + " kept", cache.find(VerifiedTokens.digest("user" + i), NOW).isPresent(), is(true));
        }
        long expired = soon + 60_001;
        cache.put(VerifiedTokens.digest("newcomer"), 300, verified(NOW + 3_600_000), expired);
        assertThat("room once the others expired", cache.find(VerifiedTokens.digest("newcomer"), expired).isPresent(), is(true));
        assertThat(cache.size(), is(1));
    }

    /** Ten thousand users of the plan "pro" hold one "pro" and one "plan" between them, not ten thousand. */
    @Test
    void repeatedAttributesAreHeldOnce() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        10, 1L << 20));
        for (String user : List.of("ada", "grace")) {
            UserIdentity parsed = new UserIdentity("project", user, new String("de-DE"),
                                                   Map.of(new String("plan"), new String("pro"),
                                                          new String("tags"), List.of(new String("beta"))),
                                                   NOW + 3_600_000);
            cache.put(VerifiedTokens.digest(user), 300, new TokenVerifier.Verified(parsed, "kid"), NOW);
        }
        UserIdentity ada = cache.find(VerifiedTokens.digest("ada"), NOW).orElseThrow().identity();
        UserIdentity grace = cache.find(VerifiedTokens.digest("grace"), NOW).orElseThrow().identity();
        assertThat(ada.subject(), is("ada"));
        assertThat(grace.attributes().get("plan"), sameInstance(ada.attributes().get("plan")));
        assertThat(grace.strings("tags").getFirst(), sameInstance(ada.strings("tags").getFirst()));
        assertThat(grace.locale(), sameInstance(ada.locale()));
        String[] names = {null, null};
        ada.attributes().keySet().stream().filter("plan"::equals).findFirst().ifPresent(name -> names[0] = name);
        grace.attributes().keySet().stream().filter("plan"::equals).findFirst().ifPresent(name -> names[1] = name);
        assertThat(names[1], sameInstance(names[0]));
    }

    @Test
    void theCanonicalStringsAreBounded() {
        CanonicalStrings strings = new CanonicalStrings();
        for (int i = 0; i < CanonicalStrings.MOST + 100; i++) {
            strings.of("value" + i);
        }
        String fresh = new String("value" + (CanonicalStrings.MOST + 50));
        assertThat("past the bound, kept as it is", strings.of(fresh), sameInstance(fresh));
        String known = new String("value1");
        assertThat(strings.of(known), is("value1"));
        assertThat("within it, shared", strings.of(known), not(sameInstance(known)));
        String long65 = "x".repeat(CanonicalStrings.LONGEST + 1);
        assertThat(strings.of(long65), sameInstance(long65));
    }

    @Test
    void bytesAreBounded() {
        long weight = VerifiedTokens.weight(8000, verified(NOW).identity());
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        100_000, 5 * weight));
        for (int i = 0; i < 50; i++) {
            cache.put(VerifiedTokens.digest("big" + i), 8000, verified(NOW + 3_600_000), NOW);
            assertThat(cache.size(), lessThanOrEqualTo(5));
        }
        VerifiedTokens none = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                       0, 0));
        none.put(VerifiedTokens.digest("any"), 300, verified(NOW + 3_600_000), NOW);
        assertThat(none.size(), is(0));
    }

    @Test
    void nothingIsServedPastExpWithTheSkew() {
        VerifiedTokens cache = new VerifiedTokens(new UserTokenSettings(Duration.ofHours(24), Duration.ofSeconds(60),
                                                                        10, 1L << 20));
        cache.put(VerifiedTokens.digest("token"), 300, verified(NOW), NOW - 1000);
        assertThat(cache.find(VerifiedTokens.digest("token"), NOW + 60_000).isPresent(), is(true));
        assertThat(cache.find(VerifiedTokens.digest("token"), NOW + 60_001).isPresent(), is(false));
        assertThat("and it is gone", cache.size(), is(0));
    }

    private static TokenVerifier.Verified verified(long expiresAt) {
        return new TokenVerifier.Verified(new UserIdentity("project", "user", null, Map.of("plan", "pro"), expiresAt),
                                          "kid");
    }
}
