package dev.herald.webhook;

import dev.herald.support.TestDatabase;

class DeliveryWorkerH2Test extends DeliveryWorkerContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
