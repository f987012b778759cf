package dev.herald.startup;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AheadTest {

    @Test
    void workNotBegunIsDoneByWhoeverAsksOnce() {
        AtomicInteger runs = new AtomicInteger();
        Ahead<String> ahead = new Ahead<>(() -> runs.incrementAndGet() + " on " + Thread.currentThread().getName());
        String caller = Thread.currentThread().getName();
        assertThat(ahead.get(), is("1 on " + caller));
        assertThat(ahead.get(), is("1 on " + caller));
        assertThat(runs.get(), is(1));
    }

    @Test
    void workBegunRunsOnItsThreadAndTheAskerWaitsForIt() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger runs = new AtomicInteger();
        Ahead<String> ahead = new Ahead<>(() -> {
            runs.incrementAndGet();
            started.countDown();
            release.await();
            return Thread.currentThread().getName();
        });
        ahead.begin("herald-test-ahead");
        assertThat(started.await(5, TimeUnit.SECONDS), is(true));
        Thread.ofPlatform().start(() -> sleepThen(release));
        assertThat(ahead.get(), is("herald-test-ahead"));
        assertThat(runs.get(), is(1));
    }

    @Test
    void aFailureReachesTheAskerAsTheSameException() {
        IllegalStateException failure = new IllegalStateException("statements.sql is missing");
        Ahead<String> ahead = new Ahead<>(() -> {
            throw failure;
        });
        ahead.begin("herald-test-failing");
        assertThat(assertThrows(IllegalStateException.class, ahead::get), is(sameInstance(failure)));
        assertThat(assertThrows(IllegalStateException.class, ahead::get), is(sameInstance(failure)));
    }

    @Test
    void worksInOrderRunOneAfterAnotherOnOneThreadEachOnce() throws InterruptedException {
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Ahead<String> first = new Ahead<>(() -> {
            ran.add("first on " + Thread.currentThread().getName());
            firstRunning.countDown();
            release.await();
            return "first";
        });
        Ahead<String> second = new Ahead<>(() -> {
            ran.add("second on " + Thread.currentThread().getName());
            return "second";
        });
        Ahead<String> third = new Ahead<>(() -> {
            ran.add("third on " + Thread.currentThread().getName());
            return "third";
        });
        Ahead.inOrder("herald-test-in-order", List.of(first, second, third));
        assertThat(firstRunning.await(5, TimeUnit.SECONDS), is(true));
        // Asked for while the thread is still on the first: done by the asker, and not again by the thread.
        String asker = Thread.currentThread().getName();
        assertThat(second.get(), is("second"));
        release.countDown();
        // Waits for the thread to get to the third rather than asking for it, which would do it here.
        for (int i = 0; i < 500 && ran.size() < 3; i++) {
            Thread.sleep(10);
        }
        assertThat(first.get(), is("first"));
        assertThat(third.get(), is("third"));
        assertThat(ran, is(List.of("first on herald-test-in-order", "second on " + asker,
                                   "third on herald-test-in-order")));
    }

    private static void sleepThen(CountDownLatch release) {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        release.countDown();
    }
}
