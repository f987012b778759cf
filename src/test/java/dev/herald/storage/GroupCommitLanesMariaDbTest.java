package dev.herald.storage;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class GroupCommitLanesMariaDbTest extends GroupCommitLanesContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }
}
