package dev.herald.browser;

import java.io.IOException;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** A test class of the console with a browser and a Herald of its own ({@link ConsoleDriver}), signed out before each. */
abstract class DrivenConsoleTest {

    static ConsoleDriver console;

    @BeforeAll
    static void startConsole() throws IOException, InterruptedException {
        console = ConsoleDriver.start();
    }

    @AfterAll
    static void stopConsole() throws SQLException {
        if (console != null) {
            console.close();
        }
    }

    @BeforeEach
    void signedOut() {
        console.signedOut();
    }
}
