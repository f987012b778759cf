package dev.herald.webhook;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class DeliveryWorkerMariaDbTest extends DeliveryWorkerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }
}
