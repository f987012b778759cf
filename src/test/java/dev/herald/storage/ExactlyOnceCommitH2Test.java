package dev.herald.storage;

import java.sql.SQLException;

import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.BeforeAll;

class ExactlyOnceCommitH2Test extends ExactlyOnceCommitContract {

    @BeforeAll
    static void start() throws SQLException {
        start(TestDatabase.h2());
    }
}
