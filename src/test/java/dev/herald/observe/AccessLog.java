package dev.herald.observe;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines written to the access logger while it is open.
 */
final class AccessLog extends Handler implements AutoCloseable {

    private static final Logger LOGGER = Logger.getLogger(AccessLogFilter.LOGGER_NAME);
    private final List<String> lines = new CopyOnWriteArrayList<>();

    AccessLog() {
        LOGGER.addHandler(this);
    }

    /** The lines so far, after waiting up to a second for the first: a line is written as its answer is sent. */
    List<String> lines() throws InterruptedException {
        for (int i = 0; i < 100 && lines.isEmpty(); i++) {
            Thread.sleep(10);
        }
        return List.copyOf(lines);
    }

    @Override
    public void publish(LogRecord record) {
        lines.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        LOGGER.removeHandler(this);
    }
}
