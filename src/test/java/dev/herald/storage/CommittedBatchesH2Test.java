package dev.herald.storage;

import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.BeforeAll;

class CommittedBatchesH2Test extends CommittedBatchesContract {

    @BeforeAll
    static void start() {
        start(TestDatabase.h2());
    }
}
