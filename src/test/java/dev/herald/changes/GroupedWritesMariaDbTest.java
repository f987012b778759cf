package dev.herald.changes;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class GroupedWritesMariaDbTest extends GroupedWritesContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }
}
