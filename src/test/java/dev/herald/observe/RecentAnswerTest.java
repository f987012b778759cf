package dev.herald.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Readiness asks the database at most once a second, however many ask it, and at once after that. */
class RecentAnswerTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final AtomicInteger asked = new AtomicInteger();
    private volatile boolean up = true;
    private final RecentAnswer answer = new RecentAnswer(() -> {
        asked.incrementAndGet();
        return up;
    }, now::get);

    @Test
    void theAnswerIsKeptForOneSecondToTheNanosecond() {
        assertThat(answer.get(), is(true));
        up = false;
        now.addAndGet(RecentAnswer.MAX_AGE_NANOS - 1);
        assertThat(answer.get(), is(true));
        assertThat(asked.get(), is(1));
        now.addAndGet(1);
        assertThat(answer.get(), is(false));
        assertThat(asked.get(), is(2));
    }

    @Test
    void manySimultaneousCallersCostOneCheck() throws Exception {
        try (ExecutorService callers = Executors.newFixedThreadPool(16)) {
            List<Future<Boolean>> answers = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                answers.add(callers.submit(answer::get));
            }
            for (Future<Boolean> each : answers) {
                assertThat(each.get(), is(true));
            }
        }
        assertThat(asked.get(), is(1));
    }
}
