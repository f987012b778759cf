package dev.herald.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When a failed delivery is tried again: Svix's schedule (which Standard Webhooks' senders follow), after the first
 * attempt at once: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about 27.6 hours in all, then the message is given up.
 * Each wait is spread by up to a tenth either way, so that the messages of one outage do not all come back in the
 * same second. A receiver's {@code Retry-After} is honoured when it asks for longer than the schedule, never beyond
 * the schedule's longest wait: a receiver cannot park a message for a year.
 */
public final class RetrySchedule {

    private static final List<Duration> STANDARD = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
            Duration.ofHours(10));

    private final List<Duration> waits;
    private final RandomGenerator random;

    private RetrySchedule(List<Duration> waits, RandomGenerator random) {
        if (waits.isEmpty() || waits.stream().anyMatch(wait -> wait.isNegative() || wait.isZero())) {
            throw new IllegalArgumentException("a retry schedule needs at least one positive wait: " + waits);
        }
        this.waits = List.copyOf(waits);
        this.random = random;
    }

    public static RetrySchedule standard(RandomGenerator random) {
        return new RetrySchedule(STANDARD, random);
    }

    /** Another schedule (tests, or an operator's shorter one), with the same jitter and bounds. */
    public static RetrySchedule of(List<Duration> waits, RandomGenerator random) {
        return new RetrySchedule(waits, random);
    }

    /** Attempts a message gets in all, the first included. */
    public int attempts() {
        return waits.size() + 1;
    }

    /**
     * @param failedAttempts how many attempts have failed so far (1 after the first)
     * @param retryAfter     what the receiver asked for in its last answer, if anything
     * @return how long to wait before the next attempt; empty when the message is given up
     */
    public Optional<Duration> next(int failedAttempts, Optional<Duration> retryAfter) {
        if (failedAttempts < 1) {
            throw new IllegalArgumentException("no attempt has failed yet: " + failedAttempts);
        }
        if (failedAttempts > waits.size()) {
            return Optional.empty();
        }
        Duration planned = waits.get(failedAttempts - 1);
        long millis = planned.toMillis();
        long spread = millis / 10;
        Duration jittered = Duration.ofMillis(millis - spread + random.nextLong(2 * spread + 1));
        Duration longest = waits.stream().max(Duration::compareTo).orElseThrow();
        return Optional.of(retryAfter.filter(asked -> asked.compareTo(jittered) > 0)
                .map(asked -> asked.compareTo(longest) > 0 ? longest : asked)
                .orElse(jittered));
    }
}
