package dev.herald.account;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class TeamFleetMariaDbTest extends TeamFleetContract {

    @Override
    TestDatabase newDatabase() {
        return TestDatabase.mariadb();
    }
}
