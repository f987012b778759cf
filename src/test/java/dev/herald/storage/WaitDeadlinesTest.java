package dev.herald.storage;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/** One thread keeps every request's deadline: none is ended early, late, twice, or once it has its answer. */
class WaitDeadlinesTest {

    private static final long MILLIS = 1_000_000;

    /** A wait with its own deadline; answered by the test, or ended by the keeper (once). */
    private static final class Wait implements WaitDeadlines.Waiter {
        private final String name;
        private final long deadline;
        private volatile boolean answered;
        private volatile long endedAt;

        Wait(String name, Duration in) {
            this.name = name;
            this.deadline = System.nanoTime() + in.toNanos();
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public boolean answered() {
            return answered;
        }
    }

    private final List<String> ended = new CopyOnWriteArrayList<>();
    private final CountDownLatch endings = new CountDownLatch(2);

    private void end(Wait wait) {
        wait.endedAt = System.nanoTime();
        wait.answered = true;
        ended.add(wait.name);
        endings.countDown();
    }

    @Test
    void eachWaitIsEndedAtItsDeadlineNotBeforeAndInOrder() throws Exception {
        try (WaitDeadlines<Wait> deadlines = new WaitDeadlines<>("test-deadlines", this::end)) {
            Wait first = new Wait("first", Duration.ofMillis(150));
            Wait second = new Wait("second", Duration.ofMillis(300));
            deadlines.add(first);
            deadlines.add(second);
            assertThat(endings.await(5, TimeUnit.SECONDS), is(true));
            assertThat(ended, contains("first", "second"));
            assertThat("not before its deadline", first.endedAt - first.deadline, greaterThanOrEqualTo(0L));
            assertThat("not before its deadline", second.endedAt - second.deadline, greaterThanOrEqualTo(0L));
            assertThat("soon after it", second.endedAt - second.deadline, lessThan(500 * MILLIS));
        }
    }

    @Test
    void aWaitAnsweredBeforeItsDeadlineIsNeverEnded() throws Exception {
        try (WaitDeadlines<Wait> deadlines = new WaitDeadlines<>("test-deadlines", this::end)) {
            Wait answered = new Wait("answered", Duration.ofMillis(100));
            Wait late = new Wait("late", Duration.ofMillis(250));
            deadlines.add(answered);
            deadlines.add(late);
            answered.answered = true;
            assertThat(endings.await(1, TimeUnit.SECONDS), is(false));
            assertThat(ended, contains("late"));
        }
    }

    /** The keeper sleeps without a timeout once nothing waits; a wait added then must still end on time. */
    @Test
    void aWaitAddedAfterTheKeeperWentIdleIsEndedOnTime() throws Exception {
        try (WaitDeadlines<Wait> deadlines = new WaitDeadlines<>("test-deadlines", this::end)) {
            Wait early = new Wait("early", Duration.ofMillis(10));
            deadlines.add(early);
            while (early.endedAt == 0) {
                Thread.sleep(5);
            }
            Thread.sleep(200);
            Wait afterIdle = new Wait("after idle", Duration.ofMillis(50));
            deadlines.add(afterIdle);
            assertThat(endings.await(5, TimeUnit.SECONDS), is(true));
            assertThat(afterIdle.endedAt - afterIdle.deadline, lessThan(500 * MILLIS));
        }
    }

    /** On a stop nothing will answer them any more: every wait left is ended at once, and any added afterwards. */
    @Test
    void closeEndsEveryWaitLeftAndAnyAddedAfterIt() {
        WaitDeadlines<Wait> deadlines = new WaitDeadlines<>("test-deadlines", this::end);
        Wait left = new Wait("left", Duration.ofMinutes(1));
        Wait answered = new Wait("answered", Duration.ofMinutes(1));
        deadlines.add(left);
        deadlines.add(answered);
        answered.answered = true;
        deadlines.close();
        assertThat(ended, contains("left"));
        deadlines.add(new Wait("after the close", Duration.ofMinutes(1)));
        assertThat(ended, contains("left", "after the close"));
    }

    @Test
    void nothingIsEndedWhileEveryDeadlineIsAhead() throws Exception {
        try (WaitDeadlines<Wait> deadlines = new WaitDeadlines<>("test-deadlines", this::end)) {
            deadlines.add(new Wait("ahead", Duration.ofMinutes(1)));
            Thread.sleep(100);
            assertThat(ended, is(empty()));
        }
    }
}
