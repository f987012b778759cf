package dev.herald.storage;

import io.helidon.dbclient.DbClient;

/**
 * What requests go through: the DB Client that the routes query, and the pool behind it, for its figures.
 */
public record ServingDatabase(DbClient client, ServingPool pool) {
}
