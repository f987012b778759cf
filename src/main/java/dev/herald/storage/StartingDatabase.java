package dev.herald.storage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.helidon.dbclient.DbClient;

/**
 * The serving pool of a database whose schema is still being brought up to date on a thread of its own: the
 * routes can be built with {@link #client()}, nothing may be served before {@link #awaitSchema()} has returned.
 */
public final class StartingDatabase {

    private final DbClient client;
    private final CompletableFuture<Void> schema;

    StartingDatabase(DbClient client, CompletableFuture<Void> schema) {
        this.client = client;
        this.schema = schema;
    }

    public DbClient client() {
        return client;
    }

    /**
     * Waits for the migrations. When they failed (the database never answered within the start-up time-out, a
     * statement was refused), the serving pool is closed and their failure thrown: the service must not start.
     */
    public DbClient awaitSchema() {
        try {
            schema.join();
            return client;
        } catch (CompletionException e) {
            client.close();
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }
}
