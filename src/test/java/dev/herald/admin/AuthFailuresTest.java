package dev.herald.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import dev.herald.support.MutableClock;

import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The throttle on its own: exact under concurrency, a blocked client's token never checked, and memory bounded as
 * the rate limit's is, with the same rule: a blocked client is never forgotten early (it would get a fresh allowance
 * of guesses), and when every client tracked is blocked a new one goes uncounted rather than anyone being refused
 * for want of room. AdminAuthFailuresTest shows it through the server.
 */
class AuthFailuresTest {

    private static final BooleanSupplier WRONG = () -> false;
    private static final BooleanSupplier RIGHT = () -> true;

    private final MutableClock clock = new MutableClock(START);

    @Test
    void aBlockedClientsTokenIsNeverChecked() {
        AuthFailures failures = failures(2, 100);
        failures.attempt("a", WRONG);
        failures.attempt("a", WRONG);
        AuthFailures.Attempt blocked = failures.attempt("a", () -> {
            throw new AssertionError("the token of a blocked client was checked");
        });
        assertThat(blocked.blocked(), is(true));
        assertThat(blocked.blockedSeconds(), is(60L));
        assertThat(failures.attempt("b", RIGHT).authenticated(), is(true));
    }

    /** A token check that takes a while, as a real one may: all sixteen threads are checked before any is counted. */
    @Test
    void sixteenThreadsFailingAtOnceAreToldUnauthorizedExactlyLimitTimes() throws Exception {
        AuthFailures failures = failures(5, 100);
        CyclicBarrier checkedTogether = new CyclicBarrier(16);
        BooleanSupplier slowWrong = () -> {
            try {
                checkedTogether.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return false;
        };
        AtomicInteger unauthorized = new AtomicInteger();
        AtomicInteger blocked = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                done.add(pool.submit(() -> {
                    AuthFailures.Attempt attempt = failures.attempt("guesser", slowWrong);
                    (attempt.blocked() ? blocked : unauthorized).incrementAndGet();
                }));
            }
            for (Future<?> each : done) {
                each.get(30, TimeUnit.SECONDS);
            }
        }
        assertThat(unauthorized.get(), is(5));
        assertThat(blocked.get(), is(11));
    }

    @Test
    void blockedClientsAreKeptWhenTheTableIsFull() {
        AuthFailures failures = failures(2, 3);
        for (String client : new String[] {"a", "b", "c"}) {
            failures.attempt(client, WRONG);
            failures.attempt(client, WRONG);
            assertThat(failures.attempt(client, RIGHT).blocked(), is(true));
        }
        for (int i = 0; i < 10; i++) {
            assertThat("no room: uncounted", failures.attempt("d", WRONG).blocked(), is(false));
        }
        assertThat(failures.attempt("a", RIGHT).blockedSeconds(), is(60L));
        clock.advance(Duration.ofSeconds(60));
        assertThat(failures.attempt("a", RIGHT).authenticated(), is(true));
        failures.attempt("d", WRONG);
        failures.attempt("d", WRONG);
        assertThat("counted once there is room", failures.attempt("d", RIGHT).blocked(), is(true));
    }

    @Test
    void aClientUnderTheLimitMakesRoomForANewOne() {
        AuthFailures failures = failures(2, 3);
        failures.attempt("a", WRONG);
        for (String client : new String[] {"b", "c", "d"}) {
            failures.attempt(client, WRONG);
            failures.attempt(client, WRONG);
        }
        for (String client : new String[] {"b", "c", "d"}) {
            assertThat(client, failures.attempt(client, RIGHT).blocked(), is(true));
        }
    }

    private AuthFailures failures(int limit, int maxClients) {
        return new AuthFailures(new AuthFailureSettings(limit, Duration.ofSeconds(60), maxClients), clock);
    }
}
