package dev.herald.account;

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
 * of guesses); when every client tracked is blocked, the rest share one window and are blocked together. AdminAuthFailuresTest shows it through the server.
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

    /**
     * When every client tracked is blocked, the clients that find no room share one window: their failures count
     * together, and once it is spent each of them is blocked, a right token included (it failed open: after 10,000
     * blocked addresses a fresh one guessed 20,000 tokens unthrottled).
     */
    @Test
    void whenTheTableIsFullOfBlockedClientsItFailsClosed() {
        AuthFailures failures = failures(2, 3);
        for (String client : new String[] {"a", "b", "c"}) {
            failures.attempt(client, WRONG);
            failures.attempt(client, WRONG);
            assertThat(failures.attempt(client, RIGHT).blocked(), is(true));
        }
        assertThat("a right token while the shared window has room", failures.attempt("d", RIGHT).authenticated(),
                   is(true));
        assertThat(failures.attempt("d", WRONG).blocked(), is(false));
        assertThat("the shared window counts every untracked client", failures.attempt("e", WRONG).blocked(), is(false));
        for (String client : new String[] {"d", "e", "f"}) {
            AuthFailures.Attempt attempt = failures.attempt(client, () -> {
                throw new AssertionError("a token was checked past the shared window's limit");
            });
            assertThat(client, attempt.blockedSeconds(), is(60L));
        }
        for (int i = 0; i < 1_000; i++) {
            assertThat(failures.attempt("guesser-" + i, WRONG).blocked(), is(true));
        }
        assertThat(failures.attempt("a", RIGHT).blockedSeconds(), is(60L));
        clock.advance(Duration.ofSeconds(60));
        assertThat(failures.attempt("a", RIGHT).authenticated(), is(true));
        assertThat(failures.attempt("f", RIGHT).authenticated(), is(true));
        failures.attempt("d", WRONG);
        failures.attempt("d", WRONG);
        assertThat("counted on its own once there is room", failures.attempt("d", RIGHT).blocked(), is(true));
    }

    /** Each saturation used to write one line per client: 10,000 lines, 1.7 MB, every minute. */
    @Test
    void manyClientsBlockedAtOnceMakeOneLinePerMinute() {
        try (AuthFailureLog log = new AuthFailureLog()) {
            AuthFailures failures = failures(2, 10_000);
            for (int i = 0; i < 10_000; i++) {
                failures.attempt("client-" + i, WRONG);
                failures.attempt("client-" + i, WRONG);
            }
            assertThat("the first block at once", log.warnings().size(), is(1));
            assertThat(log.warnings().getFirst().startsWith("2 failed admin authentications from "), is(true));
            clock.advance(Duration.ofSeconds(59));
            failures.attempt("client-0", RIGHT);
            assertThat(log.warnings().size(), is(1));
            clock.advance(Duration.ofSeconds(1));
            failures.attempt("client-0", RIGHT);
            assertThat(log.warnings().size(), is(2));
            assertThat(log.warnings().get(1), is("9999 clients reached 2 failed admin authentications within 60 s since"
                    + " the previous line; their admin requests are answered 429 until their windows end; the last:"
                    + " client-9999"));
        }
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
