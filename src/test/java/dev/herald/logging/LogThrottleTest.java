package dev.herald.logging;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class LogThrottleTest {

    private static final Duration INTERVAL = Duration.ofMillis(300);

    @Test
    void theFirstIsDueAtOnceAndTheRestTogetherOnceTheIntervalIsOver() throws Exception {
        LogThrottle throttle = new LogThrottle(INTERVAL);
        assertThat("the first event", throttle.add(1), is(1L));
        assertThat(throttle.add(2), is(0L));
        assertThat(throttle.add(1), is(0L));
        assertThat("held back until the interval is over", throttle.due(), is(0L));

        Thread.sleep(INTERVAL.multipliedBy(2).toMillis());
        assertThat("the rest, without a new event", throttle.due(), is(3L));
        assertThat("reported once", throttle.due(), is(0L));

        Thread.sleep(INTERVAL.multipliedBy(2).toMillis());
        assertThat("nothing held back: nothing due", throttle.due(), is(0L));
        assertThat("an event after a quiet interval is due at once", throttle.add(5), is(5L));
    }
}
