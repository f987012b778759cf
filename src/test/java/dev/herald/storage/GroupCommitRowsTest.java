package dev.herald.storage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The group commit's bound counts rows, and a request's item is never split: an item that would pass the bound waits
 * for the next transaction, and one heavier than the bound alone is a transaction of its own (a "mark all read" of
 * 1000 ids is one write). On H2, through the serving pool.
 */
class GroupCommitRowsTest {

    private static final int MAX_ROWS = 4;

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

    private static List<String> rows(String item, int count) {
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(item + i);
        }
        return rows;
    }
}
