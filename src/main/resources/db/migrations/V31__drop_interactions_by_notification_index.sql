-- No statement has read interactions by notification since the daily totals (migration 3): stats read the totals,
-- exports read by project and time received (idx_interactions_export), retention and webhook events by seq. The
-- index was kept up by every insert all the same, on every Galera node, and held some 100 bytes a row on disk.
-- Expand: no version from 3 on reads by it; dropping an index is in place on MariaDB (no copy of the table).
DROP INDEX IF EXISTS idx_interactions_notification ON interactions;
