-- Daily totals per notification and type, kept by the tracking transaction: stats read a few rows per
-- notification and day instead of counting millions of interactions (docs/performance.md). Each total is split
-- over a few shards, picked at random per interaction, so that simultaneous interactions with one notification
-- do not all wait for one row's lock; stats add the shards up.
CREATE TABLE IF NOT EXISTS interaction_daily_counts (
    project_id      VARCHAR(64) NOT NULL,
    day_number      BIGINT      NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    shard           SMALLINT    NOT NULL,
    total           BIGINT      NOT NULL,
    PRIMARY KEY (project_id, day_number, notification_id, type, shard)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_daily_counts_notification
    ON interaction_daily_counts (notification_id, day_number, type);

-- Totals of the interactions recorded before this version. Emptied first, so a start interrupted after the copy
-- copies again rather than fails. Days as the tracking code computes them: floor(occurred_at / 86,400,000).
DELETE FROM interaction_daily_counts;

INSERT INTO interaction_daily_counts (project_id, day_number, notification_id, type, shard, total)
SELECT project_id, FLOOR(occurred_at / 86400000.0), notification_id, type, 0, COUNT(*)
FROM interactions
GROUP BY project_id, FLOOR(occurred_at / 86400000.0), notification_id, type;

-- Stats no longer count interactions; the index that served them only slows every insert down.
DROP INDEX IF EXISTS idx_interactions_project_stats ON interactions;
