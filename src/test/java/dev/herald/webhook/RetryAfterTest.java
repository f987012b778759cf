package dev.herald.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** RFC 9110 §10.2.3: delay-seconds or an HTTP-date; anything else is no usable answer. */
class RetryAfterTest {

    private static final Instant NOW = Instant.parse("1994-11-06T08:49:00Z");

    @Test
    void secondsAndDatesAreWaits() {
        assertThat(RetryAfter.parse("120", NOW), is(Optional.of(Duration.ofSeconds(120))));
        assertThat(RetryAfter.parse(" 0 ", NOW), is(Optional.of(Duration.ZERO)));
        assertThat(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", NOW), is(Optional.of(Duration.ofSeconds(37))));
    }

    @Test
    void aHugeNumberIsALongWaitNotAnOverflow() {
        assertThat(RetryAfter.parse("99999999999999999999999", NOW), is(Optional.of(Duration.ofSeconds(999_999_999))));
    }

    @Test
    void aPastDateOrAnythingElseIsNoAnswer() {
        assertThat(RetryAfter.parse("Sat, 05 Nov 1994 08:49:37 GMT", NOW), is(Optional.empty()));
        assertThat(RetryAfter.parse("-5", NOW), is(Optional.empty()));
        assertThat(RetryAfter.parse("1.5", NOW), is(Optional.empty()));
        assertThat(RetryAfter.parse("soon", NOW), is(Optional.empty()));
        assertThat(RetryAfter.parse("", NOW), is(Optional.empty()));
        assertThat(RetryAfter.parse("١٢٠", NOW), is(Optional.empty()));
    }
}
