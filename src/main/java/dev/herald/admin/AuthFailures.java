package dev.herald.admin;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import dev.herald.ratelimit.ClientAddresses;
import dev.herald.ratelimit.FixedWindowLimiter;

/**
 * Failed admin authentications per client, in fixed windows that start with a client's first failure. A client
 * with {@code limit} failures in its window is blocked until the window ends. Memory is bounded as the rate limit's
 * is ({@code max-clients}, a blocked client never dropped early); when every client tracked is blocked, a new one's
 * failures go uncounted rather than anyone being refused for want of room.
 */
final class AuthFailures {

    private static final System.Logger LOGGER = System.getLogger(AuthFailures.class.getName());

    private final FixedWindowLimiter<Object> failures;
    private final AuthFailureSettings settings;

    AuthFailures(AuthFailureSettings settings, Clock clock) {
        this.settings = settings;
        this.failures = new FixedWindowLimiter<>(settings.limit(), settings.window(), settings.maxClients(), clock);
    }

    /**
     * One attempt of {@code client}. A blocked client's token is not checked at all. A failure is counted after the
     * check; attempts that were checked together are counted one by one, and those past the limit are blocked too,
     * so no client is ever told 401 more than {@code limit} times in a window.
     */
    Attempt attempt(Object client, BooleanSupplier tokenIsValid) {
        FixedWindowLimiter.Decision before = failures.peek(client);
        if (!before.allowed()) {
            return Attempt.blockedFor(before.resetSeconds());
        }
        if (tokenIsValid.getAsBoolean()) {
            return Attempt.AUTHENTICATED;
        }
        FixedWindowLimiter.Decision failure = failures.acquire(client);
        if (failure.tookTheLast()) {
            log(client, failure.resetSeconds());
        }
        return failure.allowed() ? Attempt.UNAUTHORIZED : Attempt.blockedFor(failure.resetSeconds());
    }

    /**
     * The one line of a burst: the failure that reaches the limit is one request per client and window, however
     * many fail at once, and the failures after it are never counted. The token is not in it.
     */
    private void log(Object client, long blockedSeconds) {
        LOGGER.log(Level.WARNING, settings.limit() + " failed admin authentications from "
                + ClientAddresses.describe(client) + " within " + describe(settings.window()) + ";"
                + " its admin requests are answered 429 for the next " + blockedSeconds + " s");
    }

    private static String describe(Duration window) {
        return window.toMillis() % 1000 == 0 ? window.toSeconds() + " s" : window.toMillis() + " ms";
    }

    /**
     * How an attempt ends: served, 401, or 429 for {@code blockedSeconds} (whole, at least 1).
     */
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
