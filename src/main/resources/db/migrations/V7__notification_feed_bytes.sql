-- limits.feed-bytes is kept when notifications are written: the writer stores each notification's size in a feed
-- answer (its JSON object there, as the feed writes it, escaping included), and the bound of a project's answers is
-- the sum of the 1000 largest of its published ones, read from this index alone. Rows written before this version
-- (or by hand) have none yet: the next write to their project that is checked measures the published ones first.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS feed_bytes INT;

CREATE INDEX IF NOT EXISTS idx_notifications_feed_bytes ON notifications (project_id, status, feed_bytes);
