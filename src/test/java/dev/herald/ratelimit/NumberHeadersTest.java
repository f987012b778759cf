package dev.herald.ratelimit;

import io.helidon.http.HeaderNames;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;

class NumberHeadersTest {

    private final NumberHeaders headers = new NumberHeaders(HeaderNames.RETRY_AFTER, 10);

    @Test
    void numbersUpToTheBoundAreBuiltOnce() {
        assertThat(headers.of(10).get(), is("10"));
        assertThat(headers.of(10), sameInstance(headers.of(10)));
        assertThat(headers.of(0).get(), is("0"));
        assertThat(headers.of(0).name(), is("Retry-After"));
    }

    @Test
    void largerNumbersAreBuiltEachTime() {
        assertThat(headers.of(11).get(), is("11"));
        assertThat(headers.of(1_000_000_000_000L).get(), is("1000000000000"));
        assertThat(headers.of(11), not(sameInstance(headers.of(11))));
    }
}
