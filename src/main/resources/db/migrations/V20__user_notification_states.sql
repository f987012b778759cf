-- Per-user state (issue 31, docs/behaviour.md#per-user-state): the instant a signed-in user first saw, read,
-- dismissed and archived each notification. user_key is UserIdentity.userKey(), a SHA-256 of the project and the
-- token's sub: no user id, and no token attribute, is ever stored. A column is set once and kept (writes set it only
-- where it is NULL), so writes in any order, through any instance or Galera node, end in the same row.
--
-- The primary key serves a user's rows in a project (GET /users/me/state) and the erasure of a user (DELETE
-- .../users/{sub}): both read one prefix (project_id, user_key). No foreign key: the rows of a deleted notification
-- go with the user's erasure, and a state write never waits for a lock on the notification.
CREATE TABLE IF NOT EXISTS user_notification_states (
    project_id      VARCHAR(64) NOT NULL,
    user_key        VARCHAR(64) NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    seen_at         BIGINT,
    read_at         BIGINT,
    dismissed_at    BIGINT,
    archived_at     BIGINT,
    PRIMARY KEY (project_id, user_key, notification_id)
)${tableOptions};

-- Unique users reached (stats): the users with a seen_at for a notification, and per notification of a project,
-- counted from this index alone.
CREATE INDEX IF NOT EXISTS idx_user_states_seen ON user_notification_states (project_id, notification_id, seen_at);
