package dev.herald.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines one logger writes while this is open (Herald's System.Logger writes to java.util.logging).
 */
public class LoggerLines extends Handler implements AutoCloseable {

    /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose this handler. */
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LoggerLines(String loggerName) {
        this.logger = Logger.getLogger(loggerName);
        logger.addHandler(this);
    }

    /** Every line so far, as {@code WARNING: text}. */
    public List<String> lines() {
        return records.stream().map(record -> record.getLevel() + ": " + record.getMessage()).toList();
    }

    /** The warnings so far. */
    public List<String> warnings() {
        return records.stream().filter(record -> record.getLevel() == Level.WARNING).map(LogRecord::getMessage)
                .toList();
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
        logger.removeHandler(this);
    }
}
