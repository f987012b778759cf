-- Daily totals per notification and type, kept by the tracking transaction: stats read a few rows per
-- notification and day instead of counting millions of interactions (docs/performance.md).
CREATE TABLE IF NOT EXISTS interaction_daily_counts (
    project_id      VARCHAR(64) NOT NULL,
    day_number      BIGINT      NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    total           BIGINT      NOT NULL,
    PRIMARY KEY (project_id, day_number, notification_id, type)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_daily_counts_notification
    ON interaction_daily_counts (notification_id, day_number, type);

-- Totals of the interactions recorded before this version. Emptied first, so a start interrupted after the copy
-- copies again rather than fails. Days as the tracking code computes them: floor(occurred_at / 86,400,000).
DELETE FROM interaction_daily_counts;

INSERT INTO interaction_daily_counts (project_id, day_number, notification_id, type, total)
SELECT project_id, FLOOR(occurred_at / 86400000.0), notification_id, type, COUNT(*)
FROM interactions
GROUP BY project_id, FLOOR(occurred_at / 86400000.0), notification_id, type;

-- Stats no longer count interactions; the index that served them only slows every insert down.
DROP INDEX IF EXISTS idx_interactions_project_stats ON interactions;
