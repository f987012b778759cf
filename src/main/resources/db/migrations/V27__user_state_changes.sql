-- When each user's state of a notification last changed (issue 35, point 5): the server's time, in milliseconds, of
-- the last write that set one of its instants, so that a warehouse pulls the states changed since its cursor
-- (export.UserStateExport, docs/api.md#export). Expand: NOT NULL with a default, so the previous version's upsert,
-- which names no such column, still inserts; its rows, and those before this migration, are changed at 0, first in
-- the export's order (docs/api.md#export says what a pull makes of them). Adding a column with a constant default at
-- the end is instant on MariaDB: the table is not copied.
ALTER TABLE user_notification_states ADD COLUMN IF NOT EXISTS changed_at BIGINT NOT NULL DEFAULT 0;

-- The export reads one project's rows in that order, a page at a time by keyset on (changed_at, user_key,
-- notification_id). Online on MariaDB (InnoDB's online index creation), in time proportional to the table.
CREATE INDEX IF NOT EXISTS idx_user_states_changes
    ON user_notification_states (project_id, changed_at, user_key, notification_id);
