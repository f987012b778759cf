package dev.herald.changes;

import dev.herald.support.TestDatabase;

class GroupedWritesH2Test extends GroupedWritesContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
