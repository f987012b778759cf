package dev.herald.webhook;

import dev.herald.support.TestDatabase;

class OutboxEventsH2Test extends OutboxEventsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
