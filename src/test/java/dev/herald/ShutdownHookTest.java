package dev.herald;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * The stop's log lines survive the JVM's shutdown, whichever hook the JVM starts first.
 */
class ShutdownHookTest {

    @Test
    void atShutdownClosingTheHoldWaitsForTheStopEvenBeforeItHasStarted() throws Exception {
        ShutdownHook.LogHold hold = new ShutdownHook.LogHold(() -> true);
        Thread logging = Thread.ofPlatform().start(hold::close);

        logging.join(300);
        assertThat("closing waits while the stop has not finished", logging.isAlive(), is(true));

        hold.release();
        logging.join(5_000);
        assertThat("closing returns once the stop has finished", logging.isAlive(), is(false));
    }

    @Test
    void outsideShutdownClosingTheHoldDoesNotWait() throws Exception {
        ShutdownHook.LogHold hold = new ShutdownHook.LogHold(() -> false);
        Thread logging = Thread.ofPlatform().start(hold::close);

        logging.join(5_000);
        assertThat(logging.isAlive(), is(false));
    }

    @Test
    void theHoldGoesBeforeTheConfiguredHandlers() {
        Logger logger = Logger.getAnonymousLogger();
        Handler console = new ConsoleHandler();
        Handler stream = new StreamHandler();
        logger.addHandler(console);
        logger.addHandler(stream);
        ShutdownHook.LogHold hold = new ShutdownHook.LogHold(() -> false);

        hold.putFirstOn(logger);

        assertThat(List.of(logger.getHandlers()), contains(hold, console, stream));
    }

    @Test
    void aRunningJvmIsNotShuttingDown() {
        assertThat(ShutdownHook.jvmShuttingDown(), is(false));
    }

    /** A real JVM exit: the stop logs its last line well after java.util.logging's own hook has started. */
    @Test
    void aSlowStopIsLoggedToItsLastLine(@TempDir Path directory) throws Exception {
        Path output = directory.resolve("output.txt");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                           "-cp", System.getProperty("java.class.path"), SlowStop.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            assertThat("the JVM exits", child.waitFor(30, TimeUnit.SECONDS), is(true));
        } finally {
            child.destroyForcibly();
        }

        String log = Files.readString(output);
        assertThat(log, containsString("stop started"));
        assertThat(log, containsString("stop finished"));
    }

    /** Installs a stop that takes 300 ms, then ends main, so that the JVM shuts down. */
    public static final class SlowStop {

        public static void main(String[] args) {
            Logger logger = Logger.getLogger(SlowStop.class.getName());
            ShutdownHook.install(() -> {
                logger.info("stop started");
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                logger.info("stop finished");
            });
        }
    }
}
