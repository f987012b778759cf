package dev.herald.webhook;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class OutboxEventsMariaDbTest extends OutboxEventsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.mariadb();
    }
}
