-- One writer per instance now gathers interactions into batches (tracking.BatchingInteractionWriter), so a day's
-- total has no simultaneous writers on an instance to spread over shards: one row per total. The totals are copied
-- from the sharded table, added up; the old table is dropped by the next migration, so a start interrupted here
-- copies again from an intact source. Instances of the previous version must be stopped before this one starts:
-- what they recorded after the copy would be missing from the totals (docs/operations: upgrading).
CREATE TABLE IF NOT EXISTS interaction_daily_totals (
    project_id      VARCHAR(64) NOT NULL,
    day_number      BIGINT      NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    total           BIGINT      NOT NULL,
    PRIMARY KEY (project_id, day_number, notification_id, type)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_daily_totals_notification
    ON interaction_daily_totals (notification_id, day_number, type);

DELETE FROM interaction_daily_totals;

INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, total)
SELECT project_id, day_number, notification_id, type, SUM(total)
FROM interaction_daily_counts
GROUP BY project_id, day_number, notification_id, type;
