package dev.herald.logging;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * {@code java.util.logging} set up from {@code logging.properties} before anything logs, where Helidon's set-up
 * looked: the file in the working directory if there is one, else Herald's own (its console handler and format are
 * Helidon's, {@code helidon-logging-jul}). A JVM told where its logging configuration is
 * ({@code java.util.logging.config.file} or {@code .class}) keeps it. Herald's rather than Helidon's
 * {@code LogConfig}, which found its provider through {@code ServiceLoader} and read each candidate's annotations
 * by reflection: 10 to 15 ms of the main thread's start (issue 33, docs/performance.md).
 */
public final class LogSetup {

    static final String FILE = "logging.properties";

    private LogSetup() {
    }

    /** Once, first thing; says in the log where the configuration came from when it is not Herald's. */
    public static void configure() {
        configure(Path.of(FILE));
    }

    static void configure(Path inWorkingDirectory) {
        System.Logger logger = System.getLogger(LogSetup.class.getName());
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            logger.log(Level.INFO, "Logging configured by the JVM's java.util.logging.config settings");
            return;
        }
        String unread = null;
        if (Files.isRegularFile(inWorkingDirectory)) {
            try (InputStream in = Files.newInputStream(inWorkingDirectory)) {
                LogManager.getLogManager().readConfiguration(in);
                logger.log(Level.INFO, "Logging configured from file " + inWorkingDirectory.toAbsolutePath());
                shortenPoolWarnings();
                return;
            } catch (IOException | IllegalArgumentException e) {
                // IllegalArgumentException: a malformed unicode escape, which Properties refuses.
                unread = inWorkingDirectory.toAbsolutePath() + " cannot be read (" + e.getMessage() + ")";
            }
        }
        try (InputStream in = LogSetup.class.getResourceAsStream("/" + FILE)) {
            if (in == null) {
                throw new IllegalStateException(FILE + " is missing from Herald's module");
            }
            LogManager.getLogManager().readConfiguration(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (unread != null) {
            logger.log(Level.WARNING, "Logging configured from Herald's " + FILE + ": " + unread);
        }
        shortenPoolWarnings();
    }

    /** On the root's handlers, which every record reaches: a logger's own filter is not asked for its children's. */
    private static void shortenPoolWarnings() {
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setFilter(new PoolWarnings(handler.getFilter()));
        }
    }
}
