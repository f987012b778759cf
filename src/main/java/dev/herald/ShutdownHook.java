package dev.herald;

import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Runs Herald's stop when the JVM shuts down (SIGTERM, or the end of {@code main} in a test), and keeps the log
 * open until the stop has finished.
 *
 * <p>The JVM starts all its shutdown hooks at once, java.util.logging's among them, and that one removes every
 * handler: whatever is logged afterwards is lost. Helidon guards against this with a first root handler whose
 * {@code close()} joins Helidon's hook thread, but joining a thread that has not been started yet returns at once.
 * When the logging hook got there first, every line of the stop was lost: 1 to 10 % of SIGTERMs with a start-up
 * cache trained on MariaDB (docs/performance.md). Here the first handler waits for the stop itself, whether its
 * thread has started or not.
 *
 * <p>The logging hook resets the levels of the other loggers before it reaches the root's handlers and waits, so
 * lines below a level that the logging configuration raised (HikariCP's INFO lines) may appear during the stop.
 */
final class ShutdownHook {

    private ShutdownHook() {
    }

    /**
     * Runs {@code stop} on a thread of its own when the JVM shuts down; until it returns, java.util.logging keeps
     * its handlers.
     *
     * @throws IllegalStateException if the JVM is already shutting down
     */
    static void install(Runnable stop) {
        LogHold hold = new LogHold(ShutdownHook::jvmShuttingDown);
        Thread hook = Thread.ofPlatform().name("herald-shutdown").unstarted(() -> {
            try {
                stop.run();
            } finally {
                hold.release();
            }
        });
        // The hook first: a hold without it would wait for a stop that never runs.
        Runtime.getRuntime().addShutdownHook(hook);
        hold.putFirstOn(LogManager.getLogManager().getLogger(""));
    }

    /** The JVM refuses new shutdown hooks once it has begun to run them, and only then. */
    static boolean jvmShuttingDown() {
        Thread probe = Thread.ofPlatform().unstarted(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shuttingDown) {
            // From either call: the shutdown may begin between the two.
            return true;
        }
    }

    /**
     * A handler that publishes nothing. java.util.logging closes a logger's handlers in order when it shuts down:
     * first on the root logger, this one holds the others open until the stop is released.
     */
    static final class LogHold extends Handler {

        private final CountDownLatch stopped = new CountDownLatch(1);
        private final BooleanSupplier shuttingDown;

        LogHold(BooleanSupplier shuttingDown) {
            this.shuttingDown = shuttingDown;
        }

        /** The stop has finished: closing no longer waits. */
        void release() {
            stopped.countDown();
        }

        /** Makes this the first handler of {@code logger}, before those the logging configuration gave it. */
        void putFirstOn(Logger logger) {
            Handler[] configured = logger.getHandlers();
            for (Handler handler : configured) {
                logger.removeHandler(handler);
            }
            logger.addHandler(this);
            for (Handler handler : configured) {
                logger.addHandler(handler);
            }
        }

        @Override
        public void publish(LogRecord record) {
        }

        @Override
        public void flush() {
        }

        /** At shutdown, waits for the stop; at any other time (a logging reconfiguration) it does not. */
        @Override
        public void close() {
            if (!shuttingDown.getAsBoolean()) {
                return;
            }
            boolean interrupted = false;
            while (true) {
                try {
                    stopped.await();
                    break;
                } catch (InterruptedException e) {
                    // The JVM waits for every hook anyway; leaving early would only lose the stop's log lines.
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
