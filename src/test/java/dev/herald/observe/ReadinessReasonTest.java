package dev.herald.observe;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Readiness logs again only when the reason changes: a figure in the pool's message is not a new reason. */
class ReadinessReasonTest {

    private static final String POOL = "the database does not answer: herald - Connection is not available, request"
                                       + " timed out after %dms (total=0, active=0, idle=0, waiting=0)";

    @Test
    void thePoolsWaitMeasuredAMillisecondLongerIsTheSameReason() {
        assertThat(HealthService.sameReason(POOL.formatted(800), POOL.formatted(801)), is(true));
    }

    @Test
    void anotherKindOfFailureIsAnotherReason() {
        assertThat(HealthService.sameReason(POOL.formatted(800),
                                            "the database does not answer: Socket fail to connect to 127.0.0.1"),
                   is(false));
        assertThat(HealthService.sameReason(POOL.formatted(800), "requests failed since the check before (refused a"
                                                                 + " connection, or interactions not stored)"),
                   is(false));
    }
}
