package dev.herald.tracking;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class WriterTotalsMariaDbTest extends WriterTotalsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }
}
