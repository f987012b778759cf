package dev.herald.storage;

import dev.herald.support.TestDatabase;

class OlderStatementsH2Test extends OlderStatementsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }

    /** H2 parses and checks every statement it prepares. */
    @Override
    String preparingUrl(TestDatabase database) {
        return database.url();
    }

    @Override
    Dialect dialect() {
        return Dialect.H2;
    }
}
