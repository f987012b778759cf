package dev.herald.tracking;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code tracking.timestamp-window.*}: how far an enhanced interaction's client {@code timestamp} may lie from the
 * server's clock (docs/api.md, POST /api/v1/public/track/{notificationId}/enhanced, check 7). The endpoint is
 * anonymous: without a bound, anyone could add counts to any day of the stats, years back or ahead. Clients send late
 * (a queue flushed on the next visit) and their clocks run a little ahead, hence a long past and a short future.
 */
public final class TimestampWindow {

    static final Duration DEFAULT_PAST = Duration.ofDays(30);
    static final Duration DEFAULT_FUTURE = Duration.ofDays(1);

    private final long pastMillis;
    private final long futureMillis;

    TimestampWindow(Duration past, Duration future) {
        if (past.isNegative() || future.isNegative()) {
            throw new IllegalArgumentException("tracking.timestamp-window: past and future must not be negative");
        }
        this.pastMillis = saturatedMillis(past);
        this.futureMillis = saturatedMillis(future);
    }

    public static TimestampWindow from(Config window) {
        return new TimestampWindow(ConfigValues.duration(window.get("past"), DEFAULT_PAST),
                                   ConfigValues.duration(window.get("future"), DEFAULT_FUTURE));
    }

    /**
     * Both ends included, to the millisecond: {@code now - past <= instant <= now + future}. Written as differences,
     * which cannot overflow for instants between 1970 and 9999 (checked before) and a real clock.
     */
    boolean contains(long epochMillis, long now) {
        return now - epochMillis <= pastMillis && epochMillis - now <= futureMillis;
    }

    /**
     * How long an event id is kept (EventIds): the window's whole length, past and future. An event stamped t may be
     * sent from t - future (a client clock ahead) to t + past, so its first copy and its last may lie that far apart.
     * A window too long to count keeps them all.
     */
    Duration eventIdsKept() {
        long length = pastMillis > Long.MAX_VALUE / 4 || futureMillis > Long.MAX_VALUE / 4
                ? Long.MAX_VALUE / 2 : pastMillis + futureMillis;
        return Duration.ofMillis(length);
    }

    /** A window longer than a long of milliseconds (some 292 million years) is as good as none. */
    private static long saturatedMillis(Duration duration) {
        try {
            return duration.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
