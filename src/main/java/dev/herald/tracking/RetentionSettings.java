package dev.herald.tracking;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code tracking.retention.*}: how long raw interactions (each one, with its metadata) are kept. The daily totals,
 * which every stat is read from, are kept for ever: pruning raw rows changes no count.
 *
 * @param rawDays  raw interactions received longer ago than this are deleted; 0 keeps them all
 * @param interval how often an instance looks for rows to delete
 * @param batch    rows deleted per statement: each locks only its own range of the table's primary key
 * @param pause    the wait between two statements, so that the writer of the hot path always gets its turn
 */
public record RetentionSettings(int rawDays, Duration interval, int batch, Duration pause) {

    public RetentionSettings {
        if (rawDays < 0 || batch < 1 || interval.isNegative() || interval.isZero() || pause.isNegative()) {
            throw new IllegalArgumentException("tracking.retention: raw-days must be 0 (keep all) or more, batch and "
                    + "interval positive, pause not negative");
        }
    }

    public static RetentionSettings from(Config retention) {
        return new RetentionSettings(ConfigValues.integer(retention.get("raw-days"), 400),
                                     ConfigValues.duration(retention.get("interval"), Duration.ofHours(1)),
                                     ConfigValues.integer(retention.get("batch"), 1000),
                                     ConfigValues.duration(retention.get("pause"), Duration.ofMillis(20)));
    }

    public boolean enabled() {
        return rawDays > 0;
    }
}
