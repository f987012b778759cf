package dev.herald.tracking;

import dev.herald.support.TestDatabase;

class WriterTotalsH2Test extends WriterTotalsContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
