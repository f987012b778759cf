-- Project stats group one project's interactions by notification and type within a time range: with the
-- notification in the index they are counted from the index alone. The index it replaces is its prefix; left in
-- place, MariaDB's optimizer preferred it and fetched every row (50 s instead of seconds on 10 million rows).
CREATE INDEX IF NOT EXISTS idx_interactions_project_stats
    ON interactions (project_id, occurred_at, notification_id, type);

DROP INDEX IF EXISTS idx_interactions_project ON interactions;
