package dev.herald.ratelimit;

import java.time.Duration;

import dev.herald.support.MutableClock;

import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

class FixedWindowLimiterTest {

    private final MutableClock clock = new MutableClock(START);

    @Test
    void memoryStaysBoundedUnderMillionsOfDistinctAddresses() {
        FixedWindowLimiter limiter = new FixedWindowLimiter(1000, Duration.ofSeconds(60), 10_000, clock);
        for (int i = 0; i < 3_000_000; i++) {
            limiter.acquire(address(i));
            assertThat(limiter.trackedClients(), lessThanOrEqualTo(10_000));
            if (i % 1000 == 0) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        assertThat(limiter.trackedClients(), is(10_000));
    }

    @Test
    void aClientAmongTheNewestKeepsItsCountWhileOthersAreDropped() {
        FixedWindowLimiter limiter = new FixedWindowLimiter(2, Duration.ofSeconds(60), 100, clock);
        for (int i = 0; i < 50; i++) {
            limiter.acquire(address(i));
        }
        limiter.acquire("heavy");
        limiter.acquire("heavy");
        for (int i = 50; i < 149; i++) {
            limiter.acquire(address(i));
        }
        assertThat(limiter.acquire("heavy").allowed(), is(false));
    }

    @Test
    void expiredWindowsAreDroppedInPassing() {
        FixedWindowLimiter limiter = new FixedWindowLimiter(5, Duration.ofSeconds(60), 1000, clock);
        for (int i = 0; i < 500; i++) {
            limiter.acquire(address(i));
        }
        clock.advance(Duration.ofSeconds(60));
        limiter.acquire("late");
        assertThat(limiter.trackedClients(), is(1));
    }

    @Test
    void theCountStopsJustPastTheLimit() {
        FixedWindowLimiter limiter = new FixedWindowLimiter(3, Duration.ofSeconds(60), 10, clock);
        FixedWindowLimiter.Decision decision = null;
        for (int i = 0; i < 10_000; i++) {
            decision = limiter.acquire("busy");
        }
        assertThat(decision.allowed(), is(false));
        assertThat(decision.remaining(), is(0));
        clock.advance(Duration.ofSeconds(60));
        assertThat(limiter.acquire("busy").remaining(), is(2));
    }

    private static String address(int i) {
        return (i >>> 24) + "." + ((i >>> 16) & 0xFF) + "." + ((i >>> 8) & 0xFF) + "." + (i & 0xFF);
    }
}
