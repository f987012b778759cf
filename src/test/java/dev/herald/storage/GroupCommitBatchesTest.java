package dev.herald.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * What goes into a batch, on H2 through the serving pool.
 *
 * <p>The group commit's bound counts rows, and a request's item is never split: an item that would pass the bound
 * waits for the next transaction, and one heavier than the bound alone is a transaction of its own (a "mark all read"
 * of 1000 ids is one write).
 *
 * <p>A batch lingers for more only while it holds fewer rows than recent batches did: once every client that waited
 * on the last batch is back in this one, it is written at once, not after the rest of the linger (issue 34: on a
 * cluster each instance's batch held all of its clients and then waited out the linger with nothing more to come). A
 * smaller batch still lingers for the rest. The linger is long (30 s) so that a batch written before its end can only
 * have been closed by the rule.
 */
class GroupCommitBatchesTest {

    private static final int MAX_ROWS = 4;
    private static final Duration LINGER = Duration.ofSeconds(30);
    private static final long PATIENCE_SECONDS = 10;

    private static TestHerald herald;

    @BeforeAll
    static void start() {
        herald = TestHerald.start(TestDatabase.h2());
    }

    @AfterAll
    static void stop() throws Exception {
        herald.close();
    }

    @Test
    void batchesStayWithinTheRowsAndNeverSplitAnItem() throws Exception {
        List<List<List<String>>> batches = Collections.synchronizedList(new ArrayList<>());
        GroupCommit<List<String>> writer = new GroupCommit<>(
                "test", "herald-test-writer", herald.serving().pool(), Map.of(),
                (connection, lane, id, batch) -> {
                    id.insert(connection);
                    batches.add(List.copyOf(batch));
                },
                new GroupCommit.Settings(Duration.ofMillis(200), MAX_ROWS, 100, Duration.ofSeconds(5), 1, 1),
                List::size, IllegalStateException::new);
        List<List<String>> items = List.of(rows("a", 3), rows("b", 3), rows("c", 1), rows("d", 6), rows("e", 1),
                                           rows("f", 2));
        ExecutorService clients = Executors.newFixedThreadPool(items.size());
        try {
            List<Future<?>> submitted = new ArrayList<>();
            items.forEach(item -> submitted.add(clients.submit(() -> writer.submit(item))));
            for (Future<?> each : submitted) {
                each.get();
            }
        } finally {
            clients.shutdown();
            writer.close();
        }

        List<List<String>> written = batches.stream().flatMap(List::stream).toList();
        assertThat(written, containsInAnyOrder(items.toArray()));
        for (List<List<String>> batch : batches) {
            int rows = batch.stream().mapToInt(List::size).sum();
            if (batch.size() > 1) {
                assertThat("a batch of several items stays within the bound: " + batch, rows,
                           lessThanOrEqualTo(MAX_ROWS));
            }
        }
        assertThat(batches.stream().filter(batch -> batch.contains(rows("d", 6))).map(List::size).toList(),
                   everyItem(is(1)));
    }


    @Test
    void aBatchAsLargeAsTheLastIsWrittenWithoutWaitingOutTheLinger() throws Exception {
        try (Lingering lingering = new Lingering()) {
            lingering.fourWaitedTogether();

            lingering.awaitAll(lingering.submitAll("e", "f", "g", "h"));
            assertThat(lingering.batches.get(2).size(), is(4));
        }
    }

    @Test
    void aBatchSmallerThanTheLastLingersForTheRest() throws Exception {
        try (Lingering lingering = new Lingering()) {
            lingering.fourWaitedTogether();

            List<Future<?>> firstTwo = lingering.submitAll("e", "f");
            Thread.sleep(300);
            List<Future<?>> lastTwo = lingering.submitAll("g", "h");

            lingering.awaitAll(firstTwo);
            lingering.awaitAll(lastTwo);
            assertThat("the two that came 300 ms later are in the same batch", lingering.batches.get(2).size(), is(4));
        }
    }

    /** A "mark all read" of many ids is one client: a batch of one light request after it does not wait for more. */
    @Test
    void aLingerCountsRequestsNotRows() throws Exception {
        try (Lingering lingering = new Lingering()) {
            lingering.awaitAll(lingering.submitAll("heavy"));
            lingering.awaitAll(lingering.submitAll("light"));

            assertThat(lingering.batches, contains(List.of("heavy"), List.of("light")));
        }
    }

    private static List<String> rows(String item, int count) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(item + i);
        }
        return rows;
    }

    /**
     * A writer that lingers {@link #LINGER}, whose write of the item "first" waits until released, and to which the
     * item "heavy" is ten rows.
     */
    private static final class Lingering implements AutoCloseable {
        private final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
        private final CountDownLatch firstWriteHeld = new CountDownLatch(1);
        private final CountDownLatch releaseFirstWrite = new CountDownLatch(1);
        private final ExecutorService clients = Executors.newCachedThreadPool();
        private final GroupCommit<String> writer = new GroupCommit<>(
                "linger", "herald-linger-writer", herald.serving().pool(), Map.of(),
                (connection, lane, id, batch) -> {
                    id.insert(connection);
                    if (batch.contains("first")) {
                        firstWriteHeld.countDown();
                        awaitRelease();
                    }
                    batches.add(List.copyOf(batch));
                },
                new GroupCommit.Settings(LINGER, 100, 100, Duration.ofMinutes(5), 1, 1),
                item -> item.equals("heavy") ? 10 : 1, IllegalStateException::new);

        /** A first batch held while four items queue up behind it: the second batch takes the four together. */
        void fourWaitedTogether() throws Exception {
            List<Future<?>> first = submitAll("first");
            assertThat("the first item, with no batch before it, is written without lingering",
                       firstWriteHeld.await(PATIENCE_SECONDS, TimeUnit.SECONDS), is(true));
            List<Future<?>> four = submitAll("a", "b", "c", "d");
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (writer.figures().queued() < 4) {
                assertThat("the four are queued behind the held write", System.nanoTime() < giveUp, is(true));
                Thread.sleep(5);
            }
            releaseFirstWrite.countDown();
            awaitAll(first);
            awaitAll(four);
            assertThat(batches.get(0), contains("first"));
            assertThat(batches.get(1).size(), is(4));
        }

        private void awaitRelease() {
            try {
                releaseFirstWrite.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        List<Future<?>> submitAll(String... items) {
            List<Future<?>> submitted = new ArrayList<>();
            for (String item : items) {
                submitted.add(clients.submit(() -> writer.submit(item)));
            }
            return submitted;
        }

        /** Well within the linger: a batch still lingering fails here. */
        void awaitAll(List<Future<?>> submitted) throws Exception {
            for (Future<?> each : submitted) {
                each.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            }
        }

        @Override
        public void close() {
            releaseFirstWrite.countDown();
            clients.shutdownNow();
            writer.close();
        }
    }
}
