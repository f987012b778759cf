package dev.herald.tracking;

import java.nio.file.Path;

import dev.herald.support.TestDatabase;

class TrackingDrainH2Test extends TrackingDrainContract {

    @Override
    TestDatabase database(Path directory) {
        return TestDatabase.h2File(directory.resolve("data"));
    }
}
