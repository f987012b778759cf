package dev.herald.storage;

import java.sql.SQLException;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.BeforeAll;

@RequiresMariaDb
class ExactlyOnceCommitMariaDbTest extends ExactlyOnceCommitContract {

    @BeforeAll
    static void start() throws SQLException {
        start(TestDatabase.mariadb());
    }
}
