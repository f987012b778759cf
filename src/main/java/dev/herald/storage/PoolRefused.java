package dev.herald.storage;

import io.helidon.dbclient.DbClientException;

/** No connection from the serving pool within its wait: none free, or no database node reachable. */
public final class PoolRefused extends DbClientException {

    PoolRefused(String message, Throwable cause) {
        super(message, cause);
    }
}
