package dev.herald.storage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The serving pool of a database whose schema is still being brought up to date on a thread of its own: the
 * routes can be built with {@link #serving()}, nothing may be served before {@link #awaitSchema()} has returned.
 */
public final class StartingDatabase {

    private final ServingDatabase serving;
    private final CompletableFuture<Void> schema;

    StartingDatabase(ServingDatabase serving, CompletableFuture<Void> schema) {
        this.serving = serving;
        this.schema = schema;
    }

    public ServingDatabase serving() {
        return serving;
    }

    /**
     * Waits for the migrations. When they failed (the database never answered within the start-up time-out, a
     * statement was refused), the serving pool is closed and their failure thrown: the service must not start.
     */
    public ServingDatabase awaitSchema() {
        try {
            schema.join();
            return serving;
        } catch (CompletionException e) {
            serving.client().close();
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }
}
