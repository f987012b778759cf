package dev.herald.audience;

import java.time.DateTimeException;

import dev.herald.api.Timestamps;

/**
 * An instant as a rule or an attribute gives it: an ISO 8601 date-time with a zone ({@code 2026-03-01T00:00:00Z},
 * {@code 2026-03-01T01:00:00+01:00}) or a number of seconds since the epoch, the form of a JWT's own dates.
 */
final class Instants {

    /** No instant: a condition on it does not match. */
    static final long NONE = Long.MIN_VALUE;
    /** Beyond this many seconds a long of milliseconds overflows. */
    private static final double MAX_SECONDS = 9.2e15;

    private Instants() {
    }

    /** Epoch millis of an attribute's value (String, Long or Double), or {@link #NONE}. */
    static long millis(Object value) {
        if (value instanceof String text) {
            return parse(text);
        }
        if (value instanceof Number number) {
            return seconds(number.doubleValue());
        }
        return NONE;
    }

    static long parse(String text) {
        if (text.length() > 64) {
            return NONE;
        }
        try {
            return Timestamps.parseZoned(text).toEpochMilli();
        } catch (DateTimeException | ArithmeticException e) {
            return NONE;
        }
    }

    static long seconds(double seconds) {
        if (!Double.isFinite(seconds) || Math.abs(seconds) > MAX_SECONDS) {
            return NONE;
        }
        return Math.round(seconds * 1000);
    }
}
