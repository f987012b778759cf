package dev.herald.storage;

import dev.herald.support.TestDatabase;

class MigrationsH2Test extends MigrationsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }

    @Override
    String aStatementOfMinutes() {
        return "SELECT COUNT(*) FROM SYSTEM_RANGE(1, 40000) a, SYSTEM_RANGE(1, 10000) b";
    }

    @Override
    Dialect dialect() {
        return Dialect.H2;
    }
}
