-- Every management write records what it changed here, in its own transaction, so that every instance on this
-- database can drop what it cached of it (feed answers, keys, notifications) within feed.cache.max-staleness.
-- The counter has one row, updated by every such transaction: its row lock orders them, so versions are committed
-- in order and without gaps, and a reader that has seen version v has seen everything before it. (An
-- AUTO_INCREMENT key gives no such promise: a later number can commit before an earlier one.)
CREATE TABLE IF NOT EXISTS change_counter (
    id      INT    NOT NULL PRIMARY KEY,
    version BIGINT NOT NULL
)${tableOptions};

INSERT INTO change_counter (id, version)
SELECT 1, 0 FROM (SELECT 1 AS one) AS seed WHERE NOT EXISTS (SELECT id FROM change_counter WHERE id = 1);

CREATE TABLE IF NOT EXISTS change_log (
    version         BIGINT      NOT NULL PRIMARY KEY,
    project_id      VARCHAR(64) NOT NULL,
    notification_id VARCHAR(64),
    changed_at      BIGINT      NOT NULL
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_change_log_changed_at ON change_log (changed_at);

-- Get Notifications for a key without showPast reads only what has not ended: the range end_at >= now (and the
-- NULLs) of this index, however long the project's history of expired notifications. It also finds the next
-- instant at which a current notification ends, and its twin the next one at which a future one starts.
CREATE INDEX IF NOT EXISTS idx_notifications_feed_end ON notifications (project_id, status, end_at);
CREATE INDEX IF NOT EXISTS idx_notifications_feed_start ON notifications (project_id, status, start_at);
