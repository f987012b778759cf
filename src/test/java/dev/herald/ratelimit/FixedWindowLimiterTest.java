package dev.herald.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

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
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(1000, Duration.ofSeconds(60), 10_000, clock);
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
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(2, Duration.ofSeconds(60), 100, clock);
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

    /** A reload of the configuration (docs/operations.md#changing-the-configuration-without-a-restart). */
    @Test
    void newBoundsApplyToTheWindowsAlreadyCounting() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(1000, Duration.ofSeconds(60), 100, clock);
        limiter.acquire("client");
        limiter.acquire("client");

        limiter.reconfigure(3, Duration.ofSeconds(60), 100);
        FixedWindowLimiter.Decision third = limiter.acquire("client");
        assertThat(third.limit(), is(3));
        assertThat(third.remaining(), is(0));
        assertThat(limiter.acquire("client").allowed(), is(false));

        limiter.reconfigure(5, Duration.ofSeconds(60), 100);
        assertThat("a higher limit lets the same window go on", limiter.acquire("client").allowed(), is(true));

        clock.advance(Duration.ofSeconds(10));
        limiter.reconfigure(5, Duration.ofSeconds(10), 100);
        assertThat("a shorter window ends the one that is past it", limiter.acquire("client").remaining(), is(4));
    }

    @Test
    void expiredWindowsAreDroppedInPassing() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(5, Duration.ofSeconds(60), 1000, clock);
        for (int i = 0; i < 500; i++) {
            limiter.acquire(address(i));
        }
        clock.advance(Duration.ofSeconds(60));
        limiter.acquire("late");
        assertThat(limiter.trackedClients(), is(1));
    }

    @Test
    void theCountStopsJustPastTheLimit() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(3, Duration.ofSeconds(60), 10, clock);
        FixedWindowLimiter.Decision decision = null;
        for (int i = 0; i < 10_000; i++) {
            decision = limiter.acquire("busy");
        }
        assertThat(decision.allowed(), is(false));
        assertThat(decision.remaining(), is(0));
        clock.advance(Duration.ofSeconds(60));
        assertThat(limiter.acquire("busy").remaining(), is(2));
    }

    @Test
    void aClientAtItsLimitIsNeverDroppedEarly() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(2, Duration.ofSeconds(60), 100, clock);
        for (int i = 0; i < 3; i++) {
            limiter.acquire("heavy");
        }
        for (int i = 0; i < 10_000; i++) {
            limiter.acquire(address(i));
        }
        assertThat(limiter.trackedClients(), is(100));
        assertThat(limiter.acquire("heavy").allowed(), is(false));
    }

    /** At its limit, not over it: its last request was allowed, and a fresh count would allow as many again. */
    @Test
    void aClientExactlyAtItsLimitIsNeverDroppedEarlyEvenAsTheOldest() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(2, Duration.ofSeconds(60), 100, clock);
        assertThat(limiter.acquire("heavy").allowed(), is(true));
        assertThat(limiter.acquire("heavy").allowed(), is(true));
        for (int i = 0; i < 10_000; i++) {
            limiter.acquire(address(i));
        }
        assertThat(limiter.acquire("heavy").allowed(), is(false));
        clock.advance(Duration.ofSeconds(60));
        assertThat("its window ended as usual", limiter.acquire("heavy").allowed(), is(true));
    }

    @Test
    void endedWindowsMakeRoomBeforeAnyClientUnderItsLimitIsDropped() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(5, Duration.ofSeconds(60), 2, clock);
        limiter.acquire("early");
        clock.advance(Duration.ofSeconds(30));
        limiter.acquire("later");
        clock.advance(Duration.ofSeconds(30));
        limiter.acquire("new");
        assertThat(limiter.trackedClients(), is(2));
        assertThat("its count kept", limiter.acquire("later").remaining(), is(3));
    }

    @Test
    void whenEveryClientTrackedIsAtItsLimitANewOneIsServedUncounted() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(1, Duration.ofSeconds(60), 3, clock);
        for (String client : new String[] {"a", "b", "c"}) {
            assertThat(limiter.acquire(client).allowed(), is(true));
        }
        for (int i = 0; i < 5; i++) {
            FixedWindowLimiter.Decision uncounted = limiter.acquire("d");
            assertThat(uncounted.allowed(), is(true));
            assertThat(uncounted.remaining(), is(0));
            assertThat(uncounted.resetSeconds(), is(60L));
        }
        assertThat(limiter.trackedClients(), is(3));
        assertThat(limiter.acquire("a").allowed(), is(false));

        clock.advance(Duration.ofSeconds(60));
        assertThat(limiter.acquire("d").allowed(), is(true));
        assertThat("counted once there is room", limiter.acquire("d").allowed(), is(false));
    }

    @Test
    void sixteenThreadsOnOneClientGetExactlyTheLimit() throws Exception {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(1000, Duration.ofSeconds(60), 10, clock);
        AtomicInteger allowed = new AtomicInteger();
        runOnThreads(16, thread -> {
            for (int i = 0; i < 5000; i++) {
                if (limiter.acquire("one").allowed()) {
                    allowed.incrementAndGet();
                }
            }
        });
        assertThat(allowed.get(), is(1000));
        assertThat(limiter.acquire("one").remaining(), is(0));
    }

    @Test
    void sixteenThreadsGetExactlyTheLimitAgainInTheNextWindow() throws Exception {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(100, Duration.ofSeconds(60), 10, clock);
        for (int window = 0; window < 20; window++) {
            AtomicInteger allowed = new AtomicInteger();
            AtomicInteger tookTheLast = new AtomicInteger();
            // Every thread finds the last window ended: they race to start the next one.
            runOnThreads(16, thread -> {
                for (int i = 0; i < 50; i++) {
                    FixedWindowLimiter.Decision decision = limiter.acquire("one");
                    if (decision.allowed()) {
                        allowed.incrementAndGet();
                    }
                    if (decision.tookTheLast()) {
                        tookTheLast.incrementAndGet();
                    }
                }
            });
            assertThat(allowed.get(), is(100));
            assertThat(tookTheLast.get(), is(1));
            clock.advance(Duration.ofSeconds(60));
        }
    }

    /**
     * Sixteen threads of new clients make the limiter drop windows all the time; a client that has used its budget
     * is never one of them, however often it asks meanwhile. (One still under its limit may be: that is the rule.)
     */
    @Test
    void underEvictionByManyThreadsALimitedClientGetsNoFreshBudget() throws Exception {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(50, Duration.ofSeconds(60), 64, clock);
        for (int i = 0; i < 50; i++) {
            assertThat(limiter.acquire("heavy").allowed(), is(true));
        }
        AtomicInteger allowed = new AtomicInteger();
        runOnThreads(16, thread -> {
            for (int i = 0; i < 20_000; i++) {
                if (i % 8 == thread % 8) {
                    if (limiter.acquire("heavy").allowed()) {
                        allowed.incrementAndGet();
                    }
                } else {
                    limiter.acquire(address(thread << 20 | i));
                }
            }
        });
        assertThat(allowed.get(), is(0));
        assertThat(limiter.trackedClients(), lessThanOrEqualTo(64));
    }

    @Test
    void peekingCountsNothing() {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(2, Duration.ofSeconds(60), 10, clock);
        assertThat(limiter.peek("quiet").allowed(), is(true));
        assertThat(limiter.peek("quiet").remaining(), is(2));
        assertThat(limiter.trackedClients(), is(0));
        limiter.acquire("busy");
        clock.advance(Duration.ofSeconds(15));
        FixedWindowLimiter.Decision oneLeft = limiter.peek("busy");
        assertThat(oneLeft.allowed(), is(true));
        assertThat(oneLeft.remaining(), is(1));
        assertThat(oneLeft.tookTheLast(), is(false));
        assertThat(limiter.acquire("busy").tookTheLast(), is(true));
        FixedWindowLimiter.Decision spent = limiter.peek("busy");
        assertThat(spent.allowed(), is(false));
        assertThat(spent.resetSeconds(), is(45L));
        assertThat(limiter.peek("busy").allowed(), is(false));
        clock.advance(Duration.ofSeconds(45));
        assertThat(limiter.peek("busy").allowed(), is(true));
    }

    @Test
    void sixteenThreadsOfNewClientsStayWithinTheBound() throws Exception {
        FixedWindowLimiter<String> limiter = new FixedWindowLimiter<>(3, Duration.ofSeconds(60), 1000, clock);
        runOnThreads(16, thread -> {
            for (int i = 0; i < 20_000; i++) {
                // Every other address is shared by all threads, so clients are started, counted and dropped at once.
                limiter.acquire(i % 2 == 0 ? address(i) : address(thread << 20 | i));
            }
        });
        assertThat(limiter.trackedClients(), lessThanOrEqualTo(1000));
        for (int i = 0; i < 5000; i++) {
            limiter.acquire("after-" + i);
        }
        assertThat("every slot accounted for", limiter.trackedClients(), is(1000));
    }

    private static void runOnThreads(int threads, IntConsumer work) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    work.accept(thread);
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static String address(int i) {
        return (i >>> 24) + "." + ((i >>> 16) & 0xFF) + "." + ((i >>> 8) & 0xFF) + "." + (i & 0xFF);
    }
}
