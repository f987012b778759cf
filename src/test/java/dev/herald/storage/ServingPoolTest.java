package dev.herald.storage;

import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The serving pool takes its HikariCP settings from {@code connection.*} and reports its figures as they are.
 */
class ServingPoolTest {

    private TestDatabase database;
    private ServingPool pool;

    @BeforeEach
    void open() {
        database = TestDatabase.h2();
        pool = ServingPool.create(Map.of(
                "connection.url", database.url(),
                "connection.username", database.username(),
                "connection.password", database.password(),
                "connection.maximumPoolSize", "2",
                "connection.minimumIdle", "2",
                "connection.connectionTimeout", "10000",
                // Not pool settings: HikariCP refuses properties it does not know, so these must not reach it.
                "connection.helidon.extension", "any",
                "statements.ping", "SELECT 1"));
    }

    @AfterEach
    void close() throws Exception {
        pool.close();
        database.close();
    }

    @Test
    void connectionsInUseFreeAndAwaitedAreCounted() throws Exception {
        try (Connection first = pool.connection()) {
            Connection second = pool.connection();
            CompletableFuture<Connection> third = CompletableFuture.supplyAsync(pool::connection);
            awaitFigures(new PoolFigures(2, 0, 2, 1));

            second.close();
            try (Connection handedOn = third.get(10, TimeUnit.SECONDS)) {
                assertThat("the freed connection went to the waiting request", pool.figures(),
                           is(new PoolFigures(2, 0, 2, 0)));
            }
        }
        awaitFigures(new PoolFigures(0, 2, 2, 0));
    }

    @Test
    void aClosedPoolHasNoConnections() {
        pool.close();

        assertThat(pool.figures(), is(new PoolFigures(0, 0, 0, 0)));
    }

    @Test
    void theDatabaseTypeComesFromTheUrl() {
        assertThat(pool.dbType(), is("jdbc:h2"));
    }

    /** HikariCP counts a waiting request and a returned connection a moment after the fact. */
    private void awaitFigures(PoolFigures expected) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!pool.figures().equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pool.figures(), is(expected));
    }
}
