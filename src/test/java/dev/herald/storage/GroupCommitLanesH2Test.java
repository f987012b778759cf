package dev.herald.storage;

import dev.herald.support.TestDatabase;

class GroupCommitLanesH2Test extends GroupCommitLanesContract {

    @Override
    TestDatabase database() {
        return TestDatabase.h2();
    }
}
