package dev.herald.storage;

import dev.herald.support.TestDatabase;

class MigrationsH2Test extends MigrationsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
