package dev.herald.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryScheduleTest {

    private static final List<Duration> SVIX = List.of(Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10),
            Duration.ofHours(10));

    @Test
    void eachWaitIsSvixsWithinATenthEitherWay() {
        RetrySchedule schedule = RetrySchedule.standard(new SplittableRandom(7));
        assertEquals(8, schedule.attempts());
        for (int round = 0; round < 200; round++) {
            for (int failed = 1; failed <= SVIX.size(); failed++) {
                long planned = SVIX.get(failed - 1).toMillis();
                long wait = schedule.next(failed, Optional.empty()).orElseThrow().toMillis();
                assertTrue(wait >= planned - planned / 10 && wait <= planned + planned / 10,
                        "wait " + wait + " ms after " + failed + " failures, planned " + planned);
            }
        }
    }

    @Test
    void theWaitsAreSpreadNotAllTheSame() {
        RetrySchedule schedule = RetrySchedule.standard(new SplittableRandom(11));
        long distinct = java.util.stream.IntStream.range(0, 50)
                .mapToObj(i -> schedule.next(2, Optional.empty()).orElseThrow()).distinct().count();
        assertTrue(distinct > 40, "50 messages of one outage came back at only " + distinct + " instants");
    }

    @Test
    void theMessageIsGivenUpAfterTheLastAttempt() {
        RetrySchedule schedule = RetrySchedule.standard(new SplittableRandom(1));
        assertTrue(schedule.next(7, Optional.empty()).isPresent());
        assertEquals(Optional.empty(), schedule.next(8, Optional.empty()));
        assertEquals(Optional.empty(), schedule.next(8, Optional.of(Duration.ofSeconds(1))));
    }

    @Test
    void retryAfterIsHonouredWhenLongerAndBoundedByTheLongestWait() {
        RetrySchedule schedule = RetrySchedule.standard(new SplittableRandom(3));
        assertEquals(Duration.ofSeconds(90), schedule.next(1, Optional.of(Duration.ofSeconds(90))).orElseThrow());
        Duration shorter = schedule.next(3, Optional.of(Duration.ofSeconds(1))).orElseThrow();
        assertTrue(shorter.compareTo(Duration.ofMinutes(27)) >= 0, "a shorter Retry-After cut the wait to " + shorter);
        assertEquals(Duration.ofHours(10), schedule.next(1, Optional.of(Duration.ofDays(365))).orElseThrow());
    }

    @Test
    void aScheduleWithoutAPositiveWaitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RetrySchedule.of(List.of(), new SplittableRandom()));
        assertThrows(IllegalArgumentException.class,
                () -> RetrySchedule.of(List.of(Duration.ZERO), new SplittableRandom()));
        RetrySchedule schedule = RetrySchedule.standard(new SplittableRandom());
        assertThrows(IllegalArgumentException.class, () -> schedule.next(0, Optional.empty()));
    }
}
