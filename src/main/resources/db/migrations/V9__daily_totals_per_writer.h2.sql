-- As V9__daily_totals_per_writer.mariadb.sql: one row per total and writer. H2 changes one thing per ALTER TABLE, so
-- the table is rebuilt instead, in steps that can each run again after a start interrupted anywhere: the copy
-- merges, the old table is dropped only once copied, and a rename finishes it. H2 runs inside its one instance:
-- no other writer meets the table half-way.
CREATE TABLE IF NOT EXISTS interaction_daily_totals_per_writer (
    project_id      VARCHAR(64) NOT NULL,
    day_number      BIGINT      NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    writer          INT         NOT NULL DEFAULT 0,
    total           BIGINT      NOT NULL,
    PRIMARY KEY (project_id, day_number, notification_id, type, writer)
);

MERGE INTO interaction_daily_totals_per_writer (project_id, day_number, notification_id, type, writer, total)
KEY (project_id, day_number, notification_id, type, writer)
SELECT project_id, day_number, notification_id, type, 0, total FROM interaction_daily_totals;

DROP TABLE IF EXISTS interaction_daily_totals;

ALTER TABLE interaction_daily_totals_per_writer RENAME TO interaction_daily_totals;

CREATE INDEX IF NOT EXISTS idx_daily_totals_notification
    ON interaction_daily_totals (notification_id, day_number, type);
