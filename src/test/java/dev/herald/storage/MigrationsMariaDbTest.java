package dev.herald.storage;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class MigrationsMariaDbTest extends MigrationsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }

    @Override
    String aStatementOfMinutes() {
        return "SELECT SLEEP(30)";
    }

    @Override
    Dialect dialect() {
        return Dialect.MARIADB;
    }
}
