package dev.herald.storage;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class OlderStatementsMariaDbTest extends OlderStatementsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }

    /** The driver prepares statements on the client unless told otherwise: then the server checks no name. */
    @Override
    String preparingUrl(TestDatabase database) {
        return database.url() + (database.url().contains("?") ? "&" : "?") + "useServerPrepStmts=true";
    }

    @Override
    Dialect dialect() {
        return Dialect.MARIADB;
    }
}
