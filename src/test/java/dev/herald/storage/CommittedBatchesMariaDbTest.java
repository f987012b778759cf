package dev.herald.storage;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.BeforeAll;

@RequiresMariaDb
class CommittedBatchesMariaDbTest extends CommittedBatchesContract {

    @BeforeAll
    static void start() {
        start(TestDatabase.mariadb());
    }
}
