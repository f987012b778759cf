package dev.herald.account;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import dev.herald.api.ApiException;
import dev.herald.api.ResponseHeaders;
import dev.herald.logging.LogThrottle;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.ratelimit.FixedWindowLimiter;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/**
 * Failed admin authentications per client, in fixed windows that start with a client's first failure. A client
 * with {@code limit} failures in its window is blocked until the window ends. Memory is bounded as the rate limit's
 * is ({@code max-clients}, a blocked client never dropped early).
 *
 * <p>It fails closed: when every client tracked is blocked, clients that find no room share one window of the same
 * limit, so that the failures of all of them together count, and when that is spent each of them is blocked too, a
 * right token included, until it ends. (It used to count them not at all: after 10,000 blocked addresses a fresh
 * one guessed 20,000 tokens at 15,000 a second.) An operator who is blocked so signs in from a tracked address or
 * waits out the window.
 *
 * <p>The log has one line per interval (the window, at least a minute) whatever the number of clients blocked: the
 * first block at once, then the count of the rest with the last client's address.
 */
final class AuthFailures {

    private static final System.Logger LOGGER = System.getLogger(AuthFailures.class.getName());

    /** The one key of the window shared by the clients that find no room of their own. */
    private static final Object UNTRACKED = new Object();
    private static final Duration MIN_LOG_INTERVAL = Duration.ofMinutes(1);

    private final FixedWindowLimiter<Object> failures;
    private final FixedWindowLimiter<Object> untracked;
    private final AuthFailureSettings settings;
    private final LogThrottle blocks;
    private volatile Object lastBlocked;

    AuthFailures(AuthFailureSettings settings, Clock clock) {
        this.settings = settings;
        this.failures = new FixedWindowLimiter<>(settings.limit(), settings.window(), settings.maxClients(), clock);
        this.untracked = new FixedWindowLimiter<>(settings.limit(), settings.window(), 1, clock);
        this.blocks = new LogThrottle(settings.window().compareTo(MIN_LOG_INTERVAL) > 0 ? settings.window()
                                                                                          : MIN_LOG_INTERVAL,
                                      () -> clock.millis() * 1_000_000);
    }

    /**
     * One attempt of {@code client}. A blocked client's token is not checked at all. A failure is counted after the
     * check; attempts that were checked together are counted one by one, and those past the limit are blocked too,
     * so no client is ever told 401 more than {@code limit} times in a window.
     */
    Attempt attempt(Object client, BooleanSupplier tokenIsValid) {
        logBlocks(blocks.due(), 0);
        FixedWindowLimiter.Decision before = failures.peek(client);
        if (!before.allowed()) {
            return Attempt.blockedFor(before.resetSeconds());
        }
        if (!before.counted() && failures.isFull()) {
            FixedWindowLimiter.Decision shared = untracked.peek(UNTRACKED);
            if (!shared.allowed()) {
                return Attempt.blockedFor(shared.resetSeconds());
            }
        }
        if (tokenIsValid.getAsBoolean()) {
            return Attempt.AUTHENTICATED;
        }
        FixedWindowLimiter.Decision failure = failures.acquire(client);
        Object counted = client;
        if (!failure.counted()) {
            failure = untracked.acquire(UNTRACKED);
            counted = UNTRACKED;
        }
        if (failure.tookTheLast()) {
            lastBlocked = counted;
            logBlocks(blocks.add(1), failure.resetSeconds());
        }
        return failure.allowed() ? Attempt.UNAUTHORIZED : Attempt.blockedFor(failure.resetSeconds());
    }

    /**
     * One line per interval, however many clients are blocked; never the token. A block is one request per client
     * and window, however many fail at once; the failures after it are never counted.
     */
    private void logBlocks(long count, long blockedSeconds) {
        if (count == 0) {
            return;
        }
        Object last = lastBlocked;
        String who = last == UNTRACKED
                ? "the clients past admin.auth-failures.max-clients (" + settings.maxClients() + "), counted together"
                : ClientAddresses.describe(last);
        String window = describe(settings.window());
        LOGGER.log(Level.WARNING, count == 1 && blockedSeconds > 0
                ? settings.limit() + " failed admin authentications from " + who + " within " + window
                        + "; its admin requests are answered 429 for the next " + blockedSeconds + " s"
                : count + " clients reached " + settings.limit() + " failed admin authentications within " + window
                        + " since the previous line; their admin requests are answered 429 until their windows end;"
                        + " the last: " + who);
    }

    private static String describe(Duration window) {
        return window.toMillis() % 1000 == 0 ? window.toSeconds() + " s" : window.toMillis() + " ms";
    }

    /**
     * How an attempt ends: served, 401, or 429 for {@code blockedSeconds} (whole, at least 1).
     */
    /** The answer to a blocked client: 429 and when to try again, the same for a token and a sign-in. */
    static ApiException blocked(ServerResponse response, Attempt attempt) {
        response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, attempt.blockedSeconds()));
        return ApiException.error(Status.TOO_MANY_REQUESTS_429, "TOO_MANY_AUTH_FAILURES",
                                  "Too many failed authentication attempts from this IP, please try again later.");
    }

    record Attempt(boolean authenticated, long blockedSeconds) {

        static final Attempt AUTHENTICATED = new Attempt(true, 0);
        static final Attempt UNAUTHORIZED = new Attempt(false, 0);

        static Attempt blockedFor(long seconds) {
            return new Attempt(false, seconds);
        }

        boolean blocked() {
            return blockedSeconds > 0;
        }
    }
}
