package dev.herald.account;

import dev.herald.support.TestDatabase;

class TeamFleetH2Test extends TeamFleetContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.h2();
    }
}
