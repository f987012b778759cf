package dev.herald.account;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings of the admin sign-in throttle while it is open (its System.Logger writes to java.util.logging).
 */
final class AuthFailureLog extends Handler implements AutoCloseable {

    /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose this handler. */
    private static final Logger LOGGER = Logger.getLogger(AuthFailures.class.getName());
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    AuthFailureLog() {
        LOGGER.addHandler(this);
    }

    /** The warnings so far; written before the answer that reaches the limit is sent, so never late. */
    List<String> warnings() {
        return records.stream().filter(record -> record.getLevel() == Level.WARNING).map(LogRecord::getMessage).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        LOGGER.removeHandler(this);
    }
}
