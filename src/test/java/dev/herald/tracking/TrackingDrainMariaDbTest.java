package dev.herald.tracking;

import java.nio.file.Path;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

@RequiresMariaDb
class TrackingDrainMariaDbTest extends TrackingDrainContract {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.mariadb();
    }
}
