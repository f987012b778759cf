package dev.herald.export;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code tracking.export.*} (docs/operations.md#pulling-interactions-into-a-warehouse).
 *
 * @param settleWindow how old a row must be before an export hands it out: longer than a row can stay uncommitted
 *                     after the server stamped its time (a batch's wait, its retries, a lock wait, the clock skew
 *                     between instances), so that no row commits later below a cursor already returned
 * @param pageRows     the rows read from the database at a time while an answer streams: what one export holds
 * @param answerBytes  about the most bytes one answer holds (at least one row): every answer must be sent within
 *                     {@code limits.read-timeout}, which cuts a longer one
 */
public record ExportSettings(Duration settleWindow, int pageRows, long answerBytes) {

    public static ExportSettings from(Config export, Duration batchMaxWait) {
        ExportSettings settings = new ExportSettings(
                ConfigValues.duration(export.get("settle-window"), Duration.ofMinutes(5)),
                ConfigValues.integer(export.get("page-rows"), 100),
                ConfigValues.longInteger(export.get("answer-bytes"), 8 * 1024 * 1024));
        if (settings.settleWindow.compareTo(batchMaxWait) <= 0) {
            throw new IllegalArgumentException("tracking.export.settle-window must be longer than"
                                                       + " tracking.batch.max-wait (" + batchMaxWait + ")");
        }
        if (settings.pageRows < 1 || settings.pageRows > 1000) {
            throw new IllegalArgumentException("tracking.export.page-rows must be between 1 and 1000");
        }
        if (settings.answerBytes < 64 * 1024) {
            throw new IllegalArgumentException("tracking.export.answer-bytes must be at least 65536");
        }
        return settings;
    }
}
