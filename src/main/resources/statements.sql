-- Every query of Herald, one name each. A line "-- name: NAME" begins a statement and its SQL follows, sent as
-- it is written; other lines beginning with "--" are comments. storage.BundledStatements reads this file once,
-- apart from the configuration; a db.statements.NAME setting replaces one. They become the DbClient's named
-- statements.

-- Migrations
-- name: create-migrations-table
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INT NOT NULL PRIMARY KEY, description VARCHAR(200) NOT NULL, applied_at BIGINT NOT NULL)
-- name: select-applied-migrations
SELECT version FROM schema_migrations
-- name: insert-migration
INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)
-- From migration 23 on, each migration is recorded with the oldest version of Herald that runs on the schema it
-- leaves, so that an older Herald finding it knows whether it may start (storage.Migrations, docs/operations.md).
-- An instance of version 22 reads only select-applied-migrations: the added column changes nothing for it.
-- name: migration-add-compatible-from
ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS compatible_from INT
-- name: migration-update-compatible-from
UPDATE schema_migrations SET compatible_from = ? WHERE version = ?
-- name: insert-migration-compatible-from
INSERT INTO schema_migrations (version, description, applied_at, compatible_from) VALUES (?, ?, ?, ?)
-- name: select-newer-migrations
SELECT version, description, compatible_from FROM schema_migrations WHERE version > ? ORDER BY version
-- Migration 10 (storage.MessageMigration): every message, a page at a time in id order; each one it changes is
-- changed only if no one changed it since it was read, and announced in the change log like a management write.
-- name: migration-select-messages
SELECT id, project_id, message FROM notifications WHERE id > ? ORDER BY id LIMIT 500
-- name: migration-update-message
UPDATE notifications SET message = ?, feed_bytes = NULL WHERE id = ? AND message = ?
-- name: migration-insert-change
INSERT INTO change_log (version, project_id, notification_id, changed_at) VALUES (?, ?, ?, ?)
-- One instance migrates at a time (storage.SchemaLock): the row's key lets one insert win, on one server or a
-- Galera cluster; its holder renews the lease while it works.
-- name: create-schema-lock-table
CREATE TABLE IF NOT EXISTS schema_lock (
  name VARCHAR(32) NOT NULL PRIMARY KEY, holder VARCHAR(200) NOT NULL, expires_at BIGINT NOT NULL)
-- name: insert-schema-lock
INSERT INTO schema_lock (name, holder, expires_at) VALUES ('schema', ?, ?)
-- name: select-schema-lock
SELECT holder, expires_at FROM schema_lock WHERE name = 'schema'
-- name: renew-schema-lock
UPDATE schema_lock SET expires_at = ? WHERE name = 'schema' AND holder = ?
-- name: delete-stale-schema-lock
DELETE FROM schema_lock WHERE name = 'schema' AND holder = ? AND expires_at = ?
-- name: release-schema-lock
DELETE FROM schema_lock WHERE name = 'schema' AND holder = ?
-- A holder that lost the lock stops its migration's statement in flight: on H2 by cancelling that session, from
-- another (closing its connection waits for the statement's end).
-- name: select-session-id-h2
SELECT SESSION_ID()
-- name: cancel-session-h2
CALL CANCEL_SESSION(?)
-- A migration's statement on MariaDB waits for its tables' metadata lock this many seconds at most, 0 for not at all:
-- while it waits, every write to those tables queues behind it (storage.YieldingDdl). DEFAULT: the server's again.
-- name: set-migration-lock-wait-mariadb
SET SESSION lock_wait_timeout = ?
-- name: reset-migration-lock-wait-mariadb
SET SESSION lock_wait_timeout = DEFAULT
-- Transactions begun in an earlier second than this one, other than this session's, oldest first, with the session
-- that holds each: what a migration's DDL would wait behind (storage.OpenTransactions). INNODB_TRX needs the PROCESS
-- privilege; trx_started counts whole seconds.
-- name: select-open-transactions-mariadb
SELECT t.trx_mysql_thread_id AS thread_id, TIMESTAMPDIFF(SECOND, t.trx_started, NOW()) AS age_seconds,
  p.USER AS user_name, p.HOST AS host, p.DB AS database_name, p.COMMAND AS command, p.INFO AS statement_text
FROM information_schema.INNODB_TRX t LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
WHERE t.trx_mysql_thread_id <> CONNECTION_ID() AND t.trx_started < NOW()
ORDER BY t.trx_started, t.trx_mysql_thread_id
-- A MariaDB server says whether it is a Galera node, and its state (4: Synced), even while cut off from the
-- majority, when it refuses every other statement (storage.GaleraNodes).
-- name: show-wsrep-on
SHOW GLOBAL VARIABLES LIKE 'wsrep_on'
-- name: show-wsrep-local-state
SHOW GLOBAL STATUS LIKE 'wsrep_local_state'

-- Readiness: the database answers a query on a table. A Galera node cut off from the majority answers SELECT 1
-- and refuses every query on a table: with SELECT 1, an instance given that node alone said it was ready while
-- every request it served failed (cluster/faults.sh).
-- name: ping
SELECT version FROM change_counter WHERE id = 1

-- Projects and API keys
-- name: insert-project
INSERT INTO projects (id, name, created_at, default_locale, required_locales) VALUES (:id, :name, :createdAt,
  :defaultLocale, :requiredLocales)
-- name: update-project
UPDATE projects SET name = :name, default_locale = :defaultLocale, required_locales = :requiredLocales WHERE id = :id
-- The management lists read a page at a time, after a cursor (docs/api.md#pages): the first page's cursor is
-- before every row (created_at -1, or Long.MAX_VALUE for the newest-first list of notifications).
-- name: select-projects-page
SELECT id, name, created_at, default_locale, required_locales FROM projects WHERE created_at > :createdAt OR
  (created_at = :sameCreatedAt AND id > :after) ORDER BY created_at, id LIMIT :limit
-- name: select-project
SELECT id, name, created_at, default_locale, required_locales FROM projects WHERE id = ?
-- A management write reads what it changes in its own transaction, locked until it commits (a locking read sees
-- the latest commit, not the transaction's snapshot): its audit line's "from" is what it replaced, and of two
-- writes at once the second sees the first's (docs/api.md#audit-log).
-- name: select-project-for-update
SELECT id, name, created_at, default_locale, required_locales FROM projects WHERE id = ? FOR UPDATE
-- A change of a project's default language (project.ProjectStore#update): notifications that follow it and may
-- have a translation in the new one (the pattern finds candidates; each is read to be sure).
-- name: select-notifications-following-default-translated
SELECT id, translations FROM notifications WHERE project_id = ? AND locale IS NULL AND translations LIKE ?
-- name: insert-api-key
INSERT INTO api_keys (api_key, project_id, show_past, show_future, order_by, created_at, revoked_at,
                      require_user_token)
VALUES (:key, :projectId, :showPast, :showFuture, :orderBy, :createdAt, :revokedAt, :requireUserToken)
-- name: select-active-api-key
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE api_key = ? AND revoked_at IS NULL
-- The public API's keys, held in memory (apikey.ActiveKeys): all of them at start, a project's after a change.
-- name: select-active-api-keys
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE revoked_at IS NULL
-- name: select-project-active-api-keys
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE project_id = ? AND revoked_at IS NULL
-- name: select-api-key
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE api_key = ?
-- name: select-project-api-keys-page
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE project_id = :projectId
  AND (created_at > :createdAt OR (created_at = :sameCreatedAt AND api_key > :after))
ORDER BY created_at, api_key LIMIT :limit
-- name: update-api-key-settings
UPDATE api_keys SET show_past = :showPast, show_future = :showFuture, order_by = :orderBy,
  require_user_token = :requireUserToken WHERE api_key = :key
-- name: select-api-key-for-update
SELECT api_key, project_id, show_past, show_future, order_by, created_at, revoked_at, require_user_token FROM
  api_keys WHERE api_key = ? FOR UPDATE
-- name: revoke-api-key
UPDATE api_keys SET revoked_at = :revokedAt WHERE api_key = :key AND revoked_at IS NULL

-- User token keys (identity.TokenKeyStore): the public API holds the active ones in memory (identity.ActiveTokenKeys).
-- name: insert-user-token-key
INSERT INTO user_token_keys (kid, project_id, algorithm, secret, public_key, created_at, revoked_at) VALUES (:kid,
  :projectId, :algorithm, :secret, :publicKey, :createdAt, NULL)
-- name: count-project-active-user-token-keys
SELECT COUNT(*) AS active_keys FROM user_token_keys WHERE project_id = ? AND revoked_at IS NULL
-- name: select-user-token-key
SELECT kid, project_id, algorithm, secret, public_key, created_at, revoked_at FROM user_token_keys WHERE kid = ?
-- name: select-active-user-token-key
SELECT kid, project_id, algorithm, secret, public_key, created_at, revoked_at FROM user_token_keys WHERE kid = ? AND
  revoked_at IS NULL
-- name: select-active-user-token-keys
SELECT kid, project_id, algorithm, secret, public_key, created_at, revoked_at FROM user_token_keys WHERE revoked_at
  IS NULL
-- name: select-project-active-user-token-keys
SELECT kid, project_id, algorithm, secret, public_key, created_at, revoked_at FROM user_token_keys WHERE project_id =
  ? AND revoked_at IS NULL
-- name: select-project-user-token-keys-page
SELECT kid, project_id, algorithm, secret, public_key, created_at, revoked_at FROM user_token_keys WHERE project_id =
  :projectId
  AND (created_at > :createdAt OR (created_at = :sameCreatedAt AND kid > :after))
ORDER BY created_at, kid LIMIT :limit
-- name: revoke-user-token-key
UPDATE user_token_keys SET revoked_at = :revokedAt WHERE kid = :kid AND revoked_at IS NULL

-- Notifications
-- name: insert-notification
INSERT INTO notifications (id, project_id, status, title, message, image, image_alt, action_type, action_url,
                           action_target, action_label, preset, start_at, end_at, created_at, updated_at, feed_bytes,
                           audience, locale, translations)
VALUES (:id, :projectId, :status, :title, :message, :image, :imageAlt, :actionType, :actionUrl, :actionTarget,
        :actionLabel, :preset, :startAt, :endAt, :createdAt, :updatedAt, :feedBytes, :audience, :locale, :translations)
-- docs/api.md, GET /api/v1/public/{apiKey}/notifications, rules 1 to 3: PUBLISHED only, for everyone (no audience:
-- all a request without a user token sees), past and future only when the key shows them, the 1000 newest.
-- Current (inclusive bounds) always passes both conditions. Two shapes: a key without showPast reads the range
-- end_at >= now of idx_notifications_feed_end, never the project's expired history; a key with showPast wants that
-- history anyway.
-- name: select-feed-without-past
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations
FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND audience IS NULL
  AND (end_at IS NULL OR end_at >= :now)
  AND (start_at IS NULL OR start_at <= :now OR :showFuture = TRUE)
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-feed-with-past
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations
FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND audience IS NULL
  AND (start_at IS NULL OR start_at <= :now OR :showFuture = TRUE)
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- The same for notifications with an audience (docs/api.md#audience): the 1000 newest of them, each served only
-- to a user with a token whose claims match its rules (feed.KeyFeed).
-- name: select-targeted-feed-without-past
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations, audience
FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND audience IS NOT NULL
  AND (end_at IS NULL OR end_at >= :now)
  AND (start_at IS NULL OR start_at <= :now OR :showFuture = TRUE)
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-targeted-feed-with-past
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations, audience
FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND audience IS NOT NULL
  AND (start_at IS NULL OR start_at <= :now OR :showFuture = TRUE)
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- The language of a project's notifications that name none, and of the answers to readers who ask for none there
-- is (docs/api.md#languages): read once per load of a key's feed.
-- name: select-project-default-locale
SELECT default_locale FROM projects WHERE id = ?
-- The next instants at which a key's answer changes by time alone (feed.FeedAnswer): a future notification
-- starts, a current one ends. Each reads one end of a range of its index.
-- name: select-next-feed-start
SELECT MIN(start_at) AS next_at FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND
  start_at > :now
-- name: select-next-feed-end
SELECT MIN(end_at) AS next_at FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND end_at >=
  :now
-- name: select-notification-project
SELECT project_id FROM notifications WHERE id = ?
-- Tracking (tracking.TrackedNotificationStore): the project, and the languages an interaction may be recorded in.
-- name: select-tracked-notification
SELECT n.project_id, COALESCE(n.locale, p.default_locale) AS locale, n.translations FROM notifications n JOIN
  projects p ON p.id = n.project_id WHERE n.id = ?
-- Tracking with a user token: may the user be served this notification (its audience checked in Java)?
-- name: select-notification-served-to
SELECT status, COALESCE(audience, '') AS audience FROM notifications WHERE id = ?
-- name: count-notifications
SELECT COUNT(*) AS notifications FROM notifications
-- By pages in id order, so that however many a database holds, one page at a time is in memory.
-- name: select-notification-ids-after
SELECT id FROM notifications WHERE id > ? ORDER BY id LIMIT ?
-- name: select-project-notification-ids-since
SELECT id FROM notifications WHERE project_id = ? AND created_at >= ?
-- name: select-notification
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale
FROM notifications WHERE id = ?
-- name: select-notification-for-update
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, audience, locale, translations
FROM notifications WHERE id = ? FOR UPDATE
-- A page of a project's notifications, newest first; by status, or by state as the feed computes it (live: what
-- the feed shows as current; scheduled: its future; ended: its past). With each, its pending draft of changes'
-- time and author, if it has one (notification_drafts' primary key: one lookup a row).
-- name: select-project-notifications-page
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, seq, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale,
       (SELECT d.updated_at FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_at,
       (SELECT d.updated_by FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_by
FROM notifications WHERE project_id = :projectId
  AND (created_at < :createdAt OR (created_at = :sameCreatedAt AND seq < :seq))
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-project-notifications-page-by-status
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, seq, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale,
       (SELECT d.updated_at FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_at,
       (SELECT d.updated_by FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_by
FROM notifications WHERE project_id = :projectId
  AND status = :status
  AND (created_at < :createdAt OR (created_at = :sameCreatedAt AND seq < :seq))
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-project-notifications-page-scheduled
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, seq, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale,
       (SELECT d.updated_at FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_at,
       (SELECT d.updated_by FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_by
FROM notifications WHERE project_id = :projectId
  AND status = 'PUBLISHED' AND start_at > :now
  AND (created_at < :createdAt OR (created_at = :sameCreatedAt AND seq < :seq))
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-project-notifications-page-live
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, seq, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale,
       (SELECT d.updated_at FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_at,
       (SELECT d.updated_by FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_by
FROM notifications WHERE project_id = :projectId
  AND status = 'PUBLISHED' AND (start_at IS NULL OR start_at <= :now) AND (end_at IS NULL OR end_at >= :now)
  AND (created_at < :createdAt OR (created_at = :sameCreatedAt AND seq < :seq))
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: select-project-notifications-page-ended
SELECT id, project_id, status, title, message, image, image_alt, action_type, action_url, action_target, action_label,
       preset, start_at, end_at, created_at, updated_at, seq, audience, locale, translations,
       (SELECT p.default_locale FROM projects p WHERE p.id = notifications.project_id) AS project_locale,
       (SELECT d.updated_at FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_at,
       (SELECT d.updated_by FROM notification_drafts d WHERE d.notification_id = notifications.id)
         AS draft_updated_by
FROM notifications WHERE project_id = :projectId
  AND status = 'PUBLISHED' AND end_at < :now
  AND (created_at < :createdAt OR (created_at = :sameCreatedAt AND seq < :seq))
ORDER BY created_at DESC, seq DESC LIMIT :limit
-- name: update-notification
UPDATE notifications SET status = :status, title = :title, message = :message, image = :image, image_alt = :imageAlt,
       action_type = :actionType,
       action_url = :actionUrl, action_target = :actionTarget, action_label = :actionLabel, preset = :preset,
       start_at = :startAt, end_at = :endAt, updated_at = :updatedAt, feed_bytes = :feedBytes,
       audience = :audience, locale = :locale, translations = :translations
WHERE id = :id
-- name: delete-notification
DELETE FROM notifications WHERE id = ?
-- A notification's pending change (notification.NotificationStore): written, read and deleted in the transaction
-- that holds the notification's row lock, so a delete then an insert replaces it.
-- name: insert-notification-draft
INSERT INTO notification_drafts (notification_id, body, updated_at, updated_by) VALUES (:notificationId, :body,
  :updatedAt, :updatedBy)
-- name: select-notification-draft
SELECT body, updated_at, updated_by FROM notification_drafts WHERE notification_id = ?
-- name: delete-notification-draft
DELETE FROM notification_drafts WHERE notification_id = ?
-- The versions of a notification's content (notification.NotificationVersions), written in the transaction that
-- holds its row lock: numbered by the newest + 1, the newest 100 kept.
-- name: insert-notification-version
INSERT INTO notification_versions (notification_id, version, content, saved_at, saved_by) VALUES (:notificationId,
  :version, :content, :savedAt, :savedBy)
-- name: select-newest-notification-version
SELECT version, content, saved_at, saved_by FROM notification_versions WHERE notification_id = ? ORDER BY version
  DESC LIMIT 1
-- name: select-notification-version
SELECT version, content, saved_at, saved_by FROM notification_versions WHERE notification_id = ? AND version = ?
-- name: select-notification-versions-page
SELECT version, content, saved_at, saved_by FROM notification_versions WHERE notification_id = ? AND version < ?
  ORDER BY version DESC LIMIT ?
-- name: delete-old-notification-versions
DELETE FROM notification_versions WHERE notification_id = ? AND version <= ?
-- name: delete-notification-versions
DELETE FROM notification_versions WHERE notification_id = ?
-- The ones archive-ended-notifications archives, read in its transaction when an endpoint wants to hear of them.
-- name: select-ended-published-notifications
SELECT id, start_at, end_at FROM notifications WHERE project_id = ? AND status = 'PUBLISHED' AND end_at < ? FOR UPDATE
-- name: archive-ended-notifications
UPDATE notifications SET status = 'ARCHIVED', updated_at = :updatedAt WHERE project_id = :projectId AND status =
  'PUBLISHED' AND end_at < :now

-- limits.feed-bytes (feed.FeedBound), in the transaction of a notification write. The project's row lock comes
-- first and orders the writes of one project, so two of them cannot both pass on the same room; what follows
-- reads what the writes before committed. feed_bytes is a notification's size in a feed answer; rows without it
-- (written before migration 7, or by hand) are measured before the sum.
-- name: lock-project
SELECT id FROM projects WHERE id = ? FOR UPDATE
-- After lock-project: the languages a notification write checks against (docs/api.md#languages).
-- name: select-project-languages
SELECT default_locale, required_locales FROM projects WHERE id = ?
-- name: select-notification-feed-bytes
SELECT id, status, feed_bytes, end_at FROM notifications WHERE id = ?
-- name: count-project-keys-showing-past
SELECT COUNT(*) AS keys_showing_past FROM api_keys WHERE project_id = ? AND revoked_at IS NULL AND show_past = TRUE
-- A size is the largest of the notification's languages (feed.FeedBound.entryBytes): its own is its locale, else
-- its project's default.
-- name: select-feed-entry
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations,
       (SELECT default_locale FROM projects WHERE projects.id = notifications.project_id) AS default_locale
FROM notifications WHERE id = ?
-- name: select-unmeasured-feed-entries
SELECT id, title, message, image, image_alt, action_type, action_url, action_target, action_label, preset, start_at,
       end_at, created_at, seq, locale, translations,
       (SELECT default_locale FROM projects WHERE projects.id = notifications.project_id) AS default_locale
FROM notifications WHERE project_id = :projectId AND status = 'PUBLISHED' AND feed_bytes IS NULL
-- name: update-feed-bytes
UPDATE notifications SET feed_bytes = :feedBytes WHERE seq = :seq
-- The languages a notification write measures its size with: its project's default, and the notification's own
-- and translations as stored (none yet for a new one).
-- name: select-notification-languages
SELECT projects.default_locale, notifications.locale, notifications.translations FROM projects LEFT JOIN notifications
  ON notifications.id = :id AND notifications.project_id = projects.id
WHERE projects.id = :projectId
-- Every key's answer holds at most the 1000 newest published notifications (:limit), so at most the 1000
-- largest: their sum bounds it, whatever the key's settings and the clock. Read from idx_notifications_feed_bytes.
-- name: select-feed-bound
SELECT COUNT(*) AS entries, COALESCE(SUM(feed_bytes), 0) AS entry_bytes FROM (SELECT feed_bytes FROM notifications
      WHERE project_id = :projectId AND status = 'PUBLISHED'
      ORDER BY feed_bytes DESC
      LIMIT :limit) AS largest
-- The same without the ended ones, for a project whose every active key leaves its past out: an ended notification
-- is in no answer of theirs, now or later (it only ever stays ended). Read from idx_notifications_feed_end.
-- name: select-feed-bound-without-past
SELECT COUNT(*) AS entries, COALESCE(SUM(feed_bytes), 0) AS entry_bytes FROM (SELECT feed_bytes FROM notifications
      WHERE project_id = :projectId AND status = 'PUBLISHED' AND (end_at IS NULL OR end_at >= :now)
      ORDER BY feed_bytes DESC
      LIMIT :limit) AS largest

-- Interactions. A batch is one multi-row insert, this statement's VALUES row repeated once per interaction, then
-- one multi-row upsert of the daily totals it adds to (each total of a notification, type and UTC day once, by
-- how many, in rows of its own writer: migration 9), in the same transaction, so the totals always agree with
-- the interactions. Positional parameters, in the column order. Databases spell an upsert differently: Database
-- picks the statements named with its dialect's suffix.
-- locale: the language the interaction was recorded in, always one of the notification's (migration 22).
-- event_batch (migration 30): the mark of the batch whose webhook event takes the row, NULL when none does.
-- Each interaction's event id, its client's idempotency key (migration 32, tracking.EventIds): inserted in the
-- batch's transaction, and looked up for a batch's retry (or a project's batches after a repeat) in one statement,
-- by the primary key on both databases (a row constructor's IN list: each pair a point of the key, where H2 reads
-- all of a project's ids for project_id = ? AND event_id IN); deleted once older than the timestamp window.
-- name: select-interaction-event-ids
SELECT project_id, event_id FROM interaction_event_ids WHERE (project_id, event_id) IN (
-- name: select-interaction-event-ids-row
(?, ?)
-- name: select-interaction-event-ids-end
)
-- name: insert-interaction-event-ids
INSERT INTO interaction_event_ids (project_id, event_id, received_at) VALUES
-- name: insert-interaction-event-ids-row
(?, ?, ?)
-- name: delete-interaction-event-ids-mariadb
DELETE FROM interaction_event_ids WHERE received_at < ? ORDER BY received_at LIMIT ?
-- name: delete-interaction-event-ids-h2
DELETE FROM interaction_event_ids WHERE received_at < ? FETCH FIRST ? ROWS ONLY
-- name: insert-interactions
INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint, metadata, locale,
  event_batch) VALUES
-- name: insert-interactions-row
(?, ?, ?, ?, ?, ?, ?, ?, ?)
-- Each group commit's id, in its own transaction (storage.ExactlyOnceCommit, migration 24): found when a commit's
-- outcome is unknown; deleted after an hour, a bounded number at a time, oldest first.
-- name: insert-committed-batch
INSERT INTO committed_batches (id, committed_at) VALUES (?, ?)
-- name: select-committed-batch
SELECT committed_at FROM committed_batches WHERE id = ?
-- name: delete-committed-batches-mariadb
DELETE FROM committed_batches WHERE committed_at < ? ORDER BY committed_at LIMIT ?
-- name: delete-committed-batches-h2
DELETE FROM committed_batches WHERE committed_at < ? FETCH FIRST ? ROWS ONLY
-- Retention (tracking.InteractionRetention): the oldest rows by primary key, then a delete of exactly that key
-- range, so that each statement locks its own rows and no gap the writer inserts into.
-- name: select-interactions-after
SELECT seq, received_at FROM interactions WHERE seq > :after ORDER BY seq LIMIT :limit
-- name: delete-interactions-range
DELETE FROM interactions WHERE seq > :after AND seq <= :to AND received_at < :cutoff
-- Exports (export.ExportStore, docs/api.md#export): keyset on (received_at, seq) within a project, read from
-- idx_interactions_export (migration 26). "After a position" is spelt received_at >= t AND (received_at > t OR
-- seq > s), so that both databases read one index range from (project, t) on.
-- Where an answer ends: the candidates (at most :limit rows from the cursor on, from the index but for the
-- metadata's length), each with the rows and the bytes up to it (each row's metadata plus :rowBytes for the rest),
-- and the last one within :budget bytes (the first in any case: every answer moves on). The candidates' keys are
-- read alone, from the index, and each row's metadata then by its primary key: asked for the metadata in the same
-- read, MariaDB read the index from the project's first row on (ref on project_id, key_len 258) and answered a
-- cursor in the middle of 7 M rows in over a second, 0.35 to 0.76 s on 4 M rows, against 0.08 s so wherever it stood.
-- name: select-export-interactions-last
SELECT received_at, seq, rows_up_to, candidates FROM (
  SELECT received_at, seq, ROW_NUMBER() OVER (ORDER BY received_at, seq) AS rows_up_to,
         SUM(row_bytes) OVER (ORDER BY received_at, seq) AS bytes_up_to, COUNT(*) OVER () AS candidates
  FROM (SELECT page_key.received_at, page_key.seq, COALESCE(LENGTH(page_row.metadata), 0) + :rowBytes AS row_bytes
        FROM (SELECT received_at, seq FROM interactions
              WHERE project_id = :projectId AND received_at >= :afterAt AND (received_at > :afterAt OR seq > :afterId)
                AND received_at < :before
              ORDER BY received_at, seq LIMIT :limit) AS page_key
        JOIN interactions page_row ON page_row.seq = page_key.seq) AS candidate) AS sized
WHERE bytes_up_to <= :budget OR rows_up_to = 1 ORDER BY received_at DESC, seq DESC LIMIT 1
-- name: select-export-interactions-page
SELECT seq, notification_id, project_id, type, occurred_at, received_at, endpoint, locale, metadata FROM interactions
  WHERE project_id = :projectId AND received_at >= :afterAt AND (received_at > :afterAt OR seq > :afterId)
  AND received_at <= :lastAt AND (received_at < :lastAt OR seq <= :lastId)
ORDER BY received_at, seq LIMIT :rows
-- The export of per-user state (export.UserStateExport), as that of interactions but by keyset on (changed_at,
-- user_key, notification_id) (idx_user_states_changes, migration 27); every row's size is bounded, so an answer's
-- end is its candidates' last.
-- name: select-export-user-states-last
SELECT changed_at, user_key, notification_id, candidates FROM (
  SELECT changed_at, user_key, notification_id, COUNT(*) OVER () AS candidates
  FROM (SELECT changed_at, user_key, notification_id FROM user_notification_states
        WHERE project_id = :projectId AND changed_at >= :afterAt
          AND (changed_at > :afterAt OR user_key > :afterUser
               OR (user_key = :afterUser AND notification_id > :afterNotification))
          AND changed_at < :before
        ORDER BY changed_at, user_key, notification_id LIMIT :limit) AS candidate) AS counted
ORDER BY changed_at DESC, user_key DESC, notification_id DESC LIMIT 1
-- name: select-export-user-states-page
SELECT user_key, notification_id, project_id, seen_at, read_at, dismissed_at, archived_at, changed_at FROM
  user_notification_states WHERE project_id = :projectId AND changed_at >= :afterAt
  AND (changed_at > :afterAt OR user_key > :afterUser
       OR (user_key = :afterUser AND notification_id > :afterNotification))
  AND changed_at <= :lastAt
  AND (changed_at < :lastAt OR user_key < :lastUser
       OR (user_key = :lastUser AND notification_id <= :lastNotification))
ORDER BY changed_at, user_key, notification_id LIMIT :rows
-- name: add-to-daily-totals-mariadb
INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, writer, locale, total) VALUES
-- name: add-to-daily-totals-row-mariadb
(?, ?, ?, ?, ?, ?, ?)
-- name: add-to-daily-totals-end-mariadb
ON DUPLICATE KEY UPDATE total = total + VALUES(total)
-- name: add-to-daily-totals-h2
MERGE INTO interaction_daily_totals AS c USING (VALUES
-- name: add-to-daily-totals-row-h2
(CAST(? AS VARCHAR(64)), CAST(? AS BIGINT), CAST(? AS VARCHAR(64)), CAST(? AS VARCHAR(16)), CAST(? AS INT),
 CAST(? AS VARCHAR(35)), CAST(? AS BIGINT))
-- name: add-to-daily-totals-end-h2
) AS v (project_id, day_number, notification_id, type, writer, locale, total) ON c.project_id = v.project_id AND
  c.day_number = v.day_number AND c.notification_id = v.notification_id
   AND c.type = v.type AND c.writer = v.writer AND c.locale = v.locale
WHEN MATCHED THEN UPDATE SET total = c.total + v.total WHEN NOT MATCHED THEN INSERT (project_id, day_number,
  notification_id, type, writer, locale, total)
                      VALUES (v.project_id, v.day_number, v.notification_id, v.type, v.writer, v.locale, v.total)

-- Per-user state (userstate.StateRows): a row inserted, or each state set only where it is still NULL, so the
-- first instant is kept, whichever instance or Galera node writes it and in whatever order. changed_at (the
-- writer's time, migration 27) moves only when a state is set: a write that changes nothing leaves the row where
-- the export's order has it. MariaDB runs the assignments left to right, each seeing those before: changed_at is
-- computed first, from the states as they were.
-- name: upsert-user-states-mariadb
INSERT INTO user_notification_states
  (project_id, user_key, notification_id, seen_at, read_at, dismissed_at, archived_at, changed_at) VALUES
-- name: upsert-user-states-row-mariadb
(?, ?, ?, ?, ?, ?, ?, ?)
-- name: upsert-user-states-end-mariadb
ON DUPLICATE KEY UPDATE changed_at = CASE
    WHEN (seen_at IS NULL AND VALUES(seen_at) IS NOT NULL) OR (read_at IS NULL AND VALUES(read_at) IS NOT NULL)
      OR (dismissed_at IS NULL AND VALUES(dismissed_at) IS NOT NULL)
      OR (archived_at IS NULL AND VALUES(archived_at) IS NOT NULL) THEN VALUES(changed_at)
    ELSE changed_at END,
  seen_at = COALESCE(seen_at, VALUES(seen_at)), read_at = COALESCE(read_at, VALUES(read_at)),
  dismissed_at = COALESCE(dismissed_at, VALUES(dismissed_at)),
  archived_at = COALESCE(archived_at, VALUES(archived_at))
-- name: upsert-user-states-h2
MERGE INTO user_notification_states AS s USING (VALUES
-- name: upsert-user-states-row-h2
(CAST(? AS VARCHAR(64)), CAST(? AS VARCHAR(64)), CAST(? AS VARCHAR(64)), CAST(? AS BIGINT), CAST(? AS BIGINT),
 CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT))
-- name: upsert-user-states-end-h2
) AS v (project_id, user_key, notification_id, seen_at, read_at, dismissed_at, archived_at, changed_at) ON
  s.project_id = v.project_id AND s.user_key = v.user_key AND s.notification_id = v.notification_id WHEN MATCHED THEN
  UPDATE SET changed_at = CASE
    WHEN (s.seen_at IS NULL AND v.seen_at IS NOT NULL) OR (s.read_at IS NULL AND v.read_at IS NOT NULL)
      OR (s.dismissed_at IS NULL AND v.dismissed_at IS NOT NULL)
      OR (s.archived_at IS NULL AND v.archived_at IS NOT NULL) THEN v.changed_at
    ELSE s.changed_at END,
  seen_at = COALESCE(s.seen_at, v.seen_at), read_at = COALESCE(s.read_at, v.read_at),
  dismissed_at = COALESCE(s.dismissed_at, v.dismissed_at), archived_at = COALESCE(s.archived_at, v.archived_at)
WHEN NOT MATCHED THEN INSERT
  (project_id, user_key, notification_id, seen_at, read_at, dismissed_at, archived_at, changed_at)
  VALUES (v.project_id, v.user_key, v.notification_id, v.seen_at, v.read_at, v.dismissed_at, v.archived_at,
          v.changed_at)
-- A user's rows among the ids of a feed answer: the primary key's prefix, then its ids (userstate.UserStateStore
-- adds "(?, ?, …)", one placeholder per id, at most 1000).
-- name: select-user-states
SELECT notification_id, seen_at, read_at, dismissed_at, archived_at FROM user_notification_states WHERE project_id =
  ? AND user_key = ? AND notification_id IN
-- What a batch of state writes finds, read under lock before its upsert when an endpoint wants user.state events
-- (userstate.UserStateEvents): a state is an event only the first time it is reached. "(?, ?, ?)" a key.
-- name: select-user-states-for-events
SELECT project_id, user_key, notification_id, seen_at, read_at, dismissed_at, archived_at FROM
  user_notification_states WHERE (project_id, user_key, notification_id) IN (
-- name: select-user-states-for-events-row
(?, ?, ?)
-- name: select-user-states-for-events-end
) FOR UPDATE
-- A privacy request: every row of the user in the project (the primary key's prefix).
-- name: delete-user-states
DELETE FROM user_notification_states WHERE project_id = ? AND user_key = ?

-- Console sessions (account.SessionStore), by the SHA-256 of their cookie; credential: the digest of the token
-- that opened them.
-- name: insert-admin-session
INSERT INTO admin_sessions (id_sha256, account, credential, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
-- name: select-admin-session
SELECT id_sha256, account, credential, created_at, last_seen_at FROM admin_sessions WHERE id_sha256 = ?
-- name: touch-admin-session
UPDATE admin_sessions SET last_seen_at = ? WHERE id_sha256 = ? AND last_seen_at < ?
-- name: delete-admin-session
DELETE FROM admin_sessions WHERE id_sha256 = ?
-- The clean-up at a sign-in, one index each (an OR of the two read the whole table).
-- name: delete-idle-admin-sessions
DELETE FROM admin_sessions WHERE last_seen_at < ?
-- name: delete-old-admin-sessions
DELETE FROM admin_sessions WHERE created_at < ?
-- An account's sessions, most recently used first; at a sign-in, those past the account's bound end.
-- name: select-account-admin-sessions-past
SELECT id_sha256 FROM admin_sessions WHERE account = ? ORDER BY last_seen_at DESC, created_at DESC LIMIT 1000 OFFSET ?
-- name: delete-account-admin-sessions-of-other-credentials
DELETE FROM admin_sessions WHERE account = ? AND credential <> ?
-- name: delete-account-admin-sessions-but
DELETE FROM admin_sessions WHERE account = ? AND id_sha256 <> ?
-- name: select-live-admin-sessions
SELECT id_sha256, account, credential, created_at, last_seen_at FROM admin_sessions WHERE last_seen_at >= ? AND
  created_at >= ? ORDER BY account, last_seen_at DESC
-- name: select-live-account-admin-sessions
SELECT id_sha256, account, credential, created_at, last_seen_at FROM admin_sessions WHERE account = ? AND
  last_seen_at >= ? AND created_at >= ? ORDER BY last_seen_at DESC
-- At start: each account and credential that has sessions, so that those no longer configured end.
-- name: select-admin-session-credentials
SELECT DISTINCT account, credential FROM admin_sessions
-- name: delete-credential-admin-sessions
DELETE FROM admin_sessions WHERE account = ? AND credential = ?
-- name: delete-credential-admin-sessions-opened-by
DELETE FROM admin_sessions WHERE account = ? AND credential = ? AND created_at <= ?
-- name: delete-account-admin-sessions
DELETE FROM admin_sessions WHERE account = ?
-- Accounts made in the console (account.TeamStore) and their one-time invitations, by the SHA-256 of their secret.
-- An account has at most one invitation (a reset replaces it), so the list's join adds no row; at most
-- TeamStore.MOST_ACCOUNTS rows, so the list is bounded.
-- name: select-admin-accounts
SELECT a.name, a.role, a.token_sha256, a.disabled_at, a.created_by, a.created_at, i.expires_at FROM admin_accounts a
  LEFT JOIN admin_invites i ON i.account = a.name ORDER BY a.name
-- name: select-admin-account-for-update
SELECT a.name, a.role, a.token_sha256, a.disabled_at, a.created_by, a.created_at, NULL AS expires_at FROM
  admin_accounts a WHERE a.name = ? FOR UPDATE
-- name: select-active-admin-account
SELECT name, role, token_sha256 FROM admin_accounts WHERE name = ? AND token_sha256 IS NOT NULL AND disabled_at IS
  NULL
-- name: select-active-admin-account-by-token
SELECT name, role, token_sha256 FROM admin_accounts WHERE token_sha256 = ? AND disabled_at IS NULL
-- The console's accounts whose name differs from this one in case only: names are unique whatever their case.
-- name: select-admin-account-names-like
SELECT name FROM admin_accounts WHERE LOWER(name) = LOWER(?)
-- name: count-admin-accounts
SELECT COUNT(*) AS accounts FROM admin_accounts
-- name: count-active-admin-owners
SELECT COUNT(*) AS owners FROM admin_accounts WHERE role = 'owner' AND token_sha256 IS NOT NULL AND disabled_at IS
  NULL
-- name: insert-admin-account
INSERT INTO admin_accounts (name, role, token_sha256, disabled_at, created_by, created_at, updated_at) VALUES (?, ?,
  NULL, NULL, ?, ?, ?)
-- name: update-admin-account-role
UPDATE admin_accounts SET role = ?, updated_at = ? WHERE name = ?
-- name: disable-admin-account
UPDATE admin_accounts SET disabled_at = ?, updated_at = ? WHERE name = ?
-- name: enable-admin-account
UPDATE admin_accounts SET disabled_at = NULL, updated_at = ? WHERE name = ?
-- name: reset-admin-account
UPDATE admin_accounts SET token_sha256 = NULL, updated_at = ? WHERE name = ?
-- An invitation accepted: the account's first token, unless it was disabled or given one meanwhile.
-- name: set-admin-account-token
UPDATE admin_accounts SET token_sha256 = ?, updated_at = ? WHERE name = ? AND token_sha256 IS NULL AND disabled_at IS
  NULL
-- name: insert-admin-invite
INSERT INTO admin_invites (secret_sha256, account, expires_at, created_at) VALUES (?, ?, ?, ?)
-- name: select-admin-invite
SELECT account, expires_at FROM admin_invites WHERE secret_sha256 = ?
-- Taking an invitation: of two at once, on one instance or two, one deletes the row and the other finds none.
-- name: use-admin-invite
DELETE FROM admin_invites WHERE secret_sha256 = ? AND expires_at > ?
-- name: delete-account-admin-invites
DELETE FROM admin_invites WHERE account = ?
-- The session cookies' MAC key (account.SessionKey), made by the first instance that starts without one.
-- name: select-server-key
SELECT secret FROM server_keys WHERE name = ?
-- name: insert-server-key
INSERT INTO server_keys (name, secret, created_at) VALUES (?, ?, ?)
-- The team's writes one at a time (account.TeamStore): each changes this row first, so that a second waits for the
-- first's commit on one database, and on Galera the second certified fails (and runs again) rather than both
-- committing. Its created_at counts the writes: a row an UPDATE leaves unchanged is in no write set.
-- name: lock-team-writes
UPDATE server_keys SET created_at = created_at + 1 WHERE name = 'team-writes'

-- The audit log (audit.AuditLog): newest first, a page after the cursor (occurred_at, seq) of the last one; with
-- the name of the line's project and the beginning of its notification's message (1,024 characters: enough for
-- 60 of words after a document's JSON, little to read for every line), while they exist, to name them.
-- An online backup of embedded H2 (backup.OnlineBackup): a zip of the database as of one moment, while it serves.
-- name: backup-to
BACKUP TO ?
-- name: insert-audit-entry
INSERT INTO audit_log (occurred_at, actor, action, project_id, target_type, target_id, details) VALUES (:occurredAt,
  :actor, :action, :projectId, :targetType, :targetId, :details)
-- name: select-audit-page
SELECT a.seq, a.occurred_at, a.actor, a.action, a.project_id, a.target_type, a.target_id, a.details,
  p.name AS project_name, SUBSTRING(n.message, 1, 1024) AS target_message
FROM audit_log a LEFT JOIN projects p ON p.id = a.project_id
  LEFT JOIN notifications n ON a.target_type = 'notification' AND n.id = a.target_id
WHERE a.occurred_at < :occurredAt OR (a.occurred_at = :sameOccurredAt AND a.seq < :before) ORDER BY a.occurred_at
  DESC, a.seq DESC LIMIT :limit
-- name: select-audit-page-by-project
SELECT a.seq, a.occurred_at, a.actor, a.action, a.project_id, a.target_type, a.target_id, a.details,
  p.name AS project_name, SUBSTRING(n.message, 1, 1024) AS target_message
FROM audit_log a LEFT JOIN projects p ON p.id = a.project_id
  LEFT JOIN notifications n ON a.target_type = 'notification' AND n.id = a.target_id
WHERE a.project_id = :scopeId
  AND (a.occurred_at < :occurredAt OR (a.occurred_at = :sameOccurredAt AND a.seq < :before))
ORDER BY a.occurred_at DESC, a.seq DESC LIMIT :limit
-- name: select-audit-page-by-target
SELECT a.seq, a.occurred_at, a.actor, a.action, a.project_id, a.target_type, a.target_id, a.details,
  p.name AS project_name, SUBSTRING(n.message, 1, 1024) AS target_message
FROM audit_log a LEFT JOIN projects p ON p.id = a.project_id
  LEFT JOIN notifications n ON a.target_type = 'notification' AND n.id = a.target_id
WHERE a.target_id = :scopeId
  AND (a.occurred_at < :occurredAt OR (a.occurred_at = :sameOccurredAt AND a.seq < :before))
ORDER BY a.occurred_at DESC, a.seq DESC LIMIT :limit

-- What a management write changed (changes.ChangeLog): the counter orders the writes, the log says what each
-- changed, for the other instances on this database to read.
-- name: next-change-version
UPDATE change_counter SET version = version + 1 WHERE id = 1
-- A turn's writes (changes.GroupedWrites) take :count versions at once.
-- name: advance-change-version
UPDATE change_counter SET version = version + :count WHERE id = 1
-- name: select-change-version
SELECT version FROM change_counter WHERE id = 1
-- name: insert-change
INSERT INTO change_log (version, project_id, notification_id, changed_at) VALUES (:version, :projectId,
  :notificationId, :changedAt)
-- name: select-changes-after
SELECT version, project_id, notification_id FROM change_log WHERE version > ? ORDER BY version LIMIT 1000
-- The newest row stays, however old: an instance far behind then sees a gap, not an empty page.
-- name: delete-changes-before
DELETE FROM change_log WHERE changed_at < ? AND version < (SELECT version FROM change_counter WHERE id = 1)

-- Each connection of the stats' pool (storage.Reports) first bounds its statements in the database: one that runs
-- longer ends with an error the stats answer 503 STATS_TIMEOUT, and its connection lives on. {seconds}, {millis}:
-- the bound. On MariaDB a temporary table of up to 32 MB stays in memory: grouping a project of 90,000 notifications
-- went to disk past the default 16 MB (a page 9.4 s against 5.6 s, docs/performance.md); a pool of
-- limits.admin-reads-in-flight connections.
-- name: reports-session-mariadb
SET SESSION max_statement_time = {seconds}, tmp_memory_table_size = 33554432, max_heap_table_size = 33554432
-- name: reports-session-h2
SET QUERY_TIMEOUT {millis}
-- Stats (docs/api.md#stats): counted by occurred_at, in UTC days (epoch millis / 86,400,000), [:fromDay, :toDay).
-- They read the daily totals: a few rows per notification and day (one per type and instance that wrote that
-- day), however many interactions there were.
-- name: select-notification-daily-counts
SELECT day_number, type, SUM(total) AS total FROM interaction_daily_totals WHERE notification_id = :id AND day_number
  >= :fromDay AND day_number < :toDay GROUP BY day_number, type ORDER BY day_number
-- name: select-project-daily-counts
SELECT day_number, type, SUM(total) AS total FROM interaction_daily_totals WHERE project_id = :id AND day_number >=
  :fromDay AND day_number < :toDay GROUP BY day_number, type ORDER BY day_number
-- A page of a project's notifications with activity in the range (interactions, or users' first sight of them),
-- most impressions first, then by id, after the previous page's last (:afterImpression, :afterId): added up in the
-- database, so a page's memory is the page, however many notifications the project holds. The users are counted
-- from idx_user_states_seen, in its order: MariaDB chose the primary key's project prefix and grouped 900,000 states
-- in a temporary table instead (5.5 s against 0.6 s, docs/performance.md).
-- name: select-project-notification-page
SELECT notification_id, SUM(impressions) AS impression, SUM(clicks) AS click, SUM(conversions) AS conversion,
  SUM(users) AS users FROM (
    SELECT notification_id, SUM(CASE WHEN type = 'impression' THEN total ELSE 0 END) AS impressions,
      SUM(CASE WHEN type = 'click' THEN total ELSE 0 END) AS clicks,
      SUM(CASE WHEN type = 'conversion' THEN total ELSE 0 END) AS conversions, 0 AS users
    FROM interaction_daily_totals WHERE project_id = :projectId AND day_number >= :fromDay AND day_number < :toDay
    GROUP BY notification_id
  UNION ALL
    SELECT notification_id, 0, 0, 0, COUNT(*) FROM user_notification_states USE INDEX (idx_user_states_seen) WHERE
      project_id = :projectId AND seen_at >= :from AND seen_at < :to GROUP BY notification_id
  ) activity GROUP BY notification_id
HAVING SUM(impressions) < :afterImpression OR SUM(impressions) = :afterImpression AND notification_id > :afterId
ORDER BY impression DESC, notification_id LIMIT :limit
-- By language (migration 22). Totals written before it have locale '': the notification's language, its own or
-- its project's default (the project's default for a deleted one), read through a join made for those rows only.
-- A notification's own language is read once by its caller, so its queries need no join: :legacy is '' when
-- :locale is that language (its '' rows are in it), and :locale again otherwise.
-- name: select-notification-stats-language
SELECT n.project_id, COALESCE(n.locale, p.default_locale) AS locale FROM notifications n JOIN projects p ON p.id =
  n.project_id WHERE n.id = ?
-- name: select-notification-locale-counts
SELECT locale, type, SUM(total) AS total FROM interaction_daily_totals WHERE notification_id = :id AND day_number >=
  :fromDay AND day_number < :toDay GROUP BY locale, type
-- name: select-notification-daily-counts-in-locale
SELECT day_number, type, SUM(total) AS total FROM interaction_daily_totals WHERE notification_id = :id AND day_number
  >= :fromDay AND day_number < :toDay AND locale IN (:locale, :legacy) GROUP BY day_number, type ORDER BY day_number
-- own: the language of the '' rows (the other rows join no notification).
-- name: select-project-locale-counts
SELECT t.locale, COALESCE(n.locale, p.default_locale) AS own, t.type, SUM(t.total) AS total FROM
  interaction_daily_totals t JOIN projects p ON p.id = t.project_id LEFT JOIN notifications n ON t.locale = '' AND
  n.id = t.notification_id WHERE t.project_id = :projectId AND t.day_number >= :fromDay AND t.day_number < :toDay
  GROUP BY t.locale, n.locale, p.default_locale, t.type
-- name: select-project-daily-counts-in-locale
SELECT t.day_number, t.type, SUM(t.total) AS total FROM interaction_daily_totals t JOIN projects p ON p.id =
  t.project_id LEFT JOIN notifications n ON t.locale = '' AND n.id = t.notification_id WHERE t.project_id = :id AND
  t.day_number >= :fromDay AND t.day_number < :toDay
  AND (t.locale = :locale OR t.locale = '' AND COALESCE(n.locale, p.default_locale) = :locale)
GROUP BY t.day_number, t.type ORDER BY t.day_number
-- The same restricted to one language: only notifications tracked in it, their users counted in every language (a
-- user's state records none).
-- name: select-project-notification-page-in-locale
SELECT notification_id, SUM(impressions) AS impression, SUM(clicks) AS click, SUM(conversions) AS conversion,
  SUM(users) AS users FROM (
    SELECT t.notification_id, SUM(CASE WHEN t.type = 'impression' THEN t.total ELSE 0 END) AS impressions,
      SUM(CASE WHEN t.type = 'click' THEN t.total ELSE 0 END) AS clicks,
      SUM(CASE WHEN t.type = 'conversion' THEN t.total ELSE 0 END) AS conversions, 0 AS users, 1 AS tracked
    FROM interaction_daily_totals t JOIN projects p ON p.id = t.project_id LEFT JOIN notifications n ON t.locale = ''
      AND n.id = t.notification_id WHERE t.project_id = :projectId AND t.day_number >= :fromDay AND t.day_number <
      :toDay AND (t.locale = :locale OR t.locale = '' AND COALESCE(n.locale, p.default_locale) = :locale)
    GROUP BY t.notification_id
  UNION ALL
    SELECT notification_id, 0, 0, 0, COUNT(*), 0 FROM user_notification_states USE INDEX (idx_user_states_seen) WHERE
      project_id = :projectId AND seen_at >= :from AND seen_at < :to GROUP BY notification_id
  ) activity GROUP BY notification_id
HAVING MAX(tracked) = 1 AND (SUM(impressions) < :afterImpression OR SUM(impressions) = :afterImpression AND
  notification_id > :afterId)
ORDER BY impression DESC, notification_id LIMIT :limit
-- Unique users reached: users whose first sight (seen_at) lies in [:from, :to), from idx_user_states_seen alone.
-- name: count-notification-unique-users
SELECT COUNT(*) AS users FROM user_notification_states WHERE project_id = :projectId AND notification_id = :id AND
  seen_at >= :from AND seen_at < :to
-- The outbox (package outbox, migration 25): every statement positional, run through the DB Client in a
-- management write's transaction and through plain JDBC in an interaction writer's. An event's deliveries first,
-- one per enabled endpoint of its project that wants its type: none, and the event is not written at all.
-- name: outbox-insert-deliveries
INSERT INTO webhook_deliveries (endpoint_id, event_id, project_id, status, attempts, next_attempt_at, created_at)
  SELECT e.id, ?, e.project_id, 'PENDING', 0, ?, ? FROM webhook_endpoint_events t JOIN webhook_endpoints e ON e.id =
  t.endpoint_id WHERE t.project_id = ? AND t.event_type = ? AND e.enabled = TRUE
-- name: outbox-advance-sequence
UPDATE outbox_sequences SET last_sequence = last_sequence + 1 WHERE source = ?
-- name: outbox-insert-sequence
INSERT INTO outbox_sequences (source, last_sequence) VALUES (?, 1)
-- name: outbox-select-sequence
SELECT last_sequence FROM outbox_sequences WHERE source = ?
-- items_kept (migration 29): an event of items (interactions, user states) is sent from them, never copied into
-- its payload; FALSE for an event with its payload, and for those the version before opens.
-- from_interactions (migration 30): an event that names its lane's interaction rows (outbox_event_ranges).
-- name: outbox-insert-event
INSERT INTO outbox_events (id, project_id, event_type, source, sequence, payload, item_count, created_at, items_kept,
  from_interactions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
-- An open event of copied items (user states; interactions without batching): its lane adds to it only while it
-- is open and holds as many as the lane thinks; otherwise the lane opens another (after a rolled-back batch, or
-- once the worker sealed it).
-- name: outbox-append-items
UPDATE outbox_events SET item_count = item_count + ? WHERE id = ? AND payload IS NULL AND sealed_at IS NULL AND
  item_count = ?
-- One row a batch: its items' JSON objects joined by commas, at the position of its first.
-- name: outbox-insert-items
INSERT INTO outbox_event_items (event_id, position, item) VALUES (?, ?, ?)
-- An event of interactions (migration 30): a row a batch naming its rows, from the first seq its insert was given
-- (in MariaDB's script, LAST_INSERT_ID() of the insert just before; outbox_event_ranges has no auto-increment, so
-- it stays that of the interactions for every range of the script), past the rows of the batch's earlier part.
-- name: outbox-insert-range
INSERT INTO outbox_event_ranges (event_id, position, first_seq, batch, skipped, item_count) VALUES (?, ?, ?, ?, ?, ?)
-- name: outbox-insert-range-at-last-insert-mariadb
INSERT INTO outbox_event_ranges (event_id, position, first_seq, batch, skipped, item_count) VALUES (?, ?,
  LAST_INSERT_ID(), ?, ?, ?)
-- Sealing an event of ranges: its ranges locked, an empty one written at the next position (the key a late batch
-- of its lane would take) with the highest seq then, its count and the time.
-- name: outbox-select-event-ranges-for-update
SELECT first_seq, batch, skipped, item_count FROM outbox_event_ranges WHERE event_id = ? ORDER BY position FOR UPDATE
-- name: outbox-mark-sealed-counted
UPDATE outbox_events SET sealed_at = ?, item_count = ? WHERE id = ? AND sealed_at IS NULL
-- The highest seq when an event is sealed, which its empty range keeps as the end of its rows' span.
-- name: outbox-select-last-interaction-seq
SELECT MAX(seq) AS last_seq FROM interactions
-- An event's rows in one statement: its batches' rows (marked by one of its batches' marks, one ? each in place
-- of ${marks}) of the event's project and type, by the primary key from its first range's seq to the seq its seal
-- saw last, in order, as many as its ranges skip and count (the rows a range skips, of its batch's part in the
-- event before, are passed over as they come).
-- name: outbox-select-event-interactions
SELECT event_batch, seq, notification_id, type, occurred_at, received_at, locale, metadata FROM interactions WHERE
  seq >= ? AND seq <= ? AND project_id = ? AND type = ? AND event_batch IN (${marks}) ORDER BY seq LIMIT ?
-- name: outbox-delete-event-ranges
DELETE FROM outbox_event_ranges WHERE event_id = ?
-- Sealing (outbox.Outbox#seal): the event locked, its items read in order; an event that keeps them marked sealed,
-- one of the version before given its payload and its items deleted, as that version seals.
-- name: outbox-select-open-event-for-update
SELECT project_id, event_type, source, sequence, payload, item_count, created_at, items_kept, sealed_at,
       from_interactions
FROM outbox_events WHERE id = ? FOR UPDATE
-- name: outbox-select-event-items
SELECT item FROM outbox_event_items WHERE event_id = ? ORDER BY position
-- name: outbox-mark-sealed
UPDATE outbox_events SET sealed_at = ? WHERE id = ? AND sealed_at IS NULL
-- name: outbox-seal-event
UPDATE outbox_events SET payload = ? WHERE id = ? AND payload IS NULL
-- name: outbox-delete-event-items
DELETE FROM outbox_event_items WHERE event_id = ?
-- Once per event, whatever instance or node writes it: the id is made from what the event is (went live, ended).
-- name: outbox-select-event-exists
SELECT id FROM outbox_events WHERE id = ?
-- name: outbox-select-subscribed-types
SELECT DISTINCT t.event_type FROM webhook_endpoint_events t JOIN webhook_endpoints e ON e.id = t.endpoint_id WHERE
  t.project_id = ? AND e.enabled = TRUE
-- Notifications whose start or end passed in a window (outbox.TimePassed): the projects with an endpoint that wants
-- to hear of it, then each one's through idx_notifications_feed_start and _end.
-- name: outbox-select-projects-wanting
SELECT DISTINCT project_id FROM webhook_endpoint_events WHERE event_type = ?
-- name: outbox-select-started
SELECT id, start_at AS passed_at FROM notifications WHERE project_id = ? AND status = 'PUBLISHED' AND start_at > ?
  AND start_at <= ? ORDER BY start_at LIMIT 1000
-- name: outbox-select-ended
SELECT id, end_at AS passed_at FROM notifications WHERE project_id = ? AND status = 'PUBLISHED' AND end_at > ? AND
  end_at <= ? ORDER BY end_at LIMIT 1000
-- name: outbox-lock-project
SELECT id FROM projects WHERE id = ? FOR UPDATE
-- Webhook endpoints (webhook.EndpointStore).
-- name: insert-webhook-endpoint
INSERT INTO webhook_endpoints (id, project_id, url, description, event_types, secret, enabled, created_at,
  updated_at)
VALUES (:id, :projectId, :url, :description, :eventTypes, :secret, :enabled, :createdAt, :updatedAt)
-- name: insert-webhook-endpoint-event
INSERT INTO webhook_endpoint_events (project_id, event_type, endpoint_id) VALUES (?, ?, ?)
-- name: delete-webhook-endpoint-events
DELETE FROM webhook_endpoint_events WHERE endpoint_id = ?
-- name: select-webhook-endpoint
SELECT id, project_id, url, description, event_types, secret, previous_secret, previous_secret_until, enabled,
  disabled_reason,
       failing_since, created_at, updated_at
FROM webhook_endpoints WHERE id = ?
-- name: select-webhook-endpoint-for-update
SELECT id, project_id, url, description, event_types, secret, previous_secret, previous_secret_until, enabled,
  disabled_reason,
       failing_since, created_at, updated_at
FROM webhook_endpoints WHERE id = ? FOR UPDATE
-- name: select-project-webhook-endpoints-page
SELECT id, project_id, url, description, event_types, secret, previous_secret, previous_secret_until, enabled,
  disabled_reason,
       failing_since, created_at, updated_at
FROM webhook_endpoints WHERE project_id = :projectId
  AND (created_at > :createdAt OR created_at = :sameCreatedAt AND id > :after)
ORDER BY created_at, id LIMIT :limit
-- name: update-webhook-endpoint
UPDATE webhook_endpoints SET url = :url, description = :description, event_types = :eventTypes,
  enabled = :enabled,
  disabled_reason = :disabledReason, failing_since = :failingSince, updated_at = :updatedAt
WHERE id = :id
-- Enabled again: what it still has pending is due at once, as a catch-up (its attempts so far kept), however
-- far off the schedule had put its next attempt.
-- name: webhook-endpoint-deliveries-due
UPDATE webhook_deliveries SET next_attempt_at = ? WHERE endpoint_id = ? AND status = 'PENDING' AND next_attempt_at > ?
-- name: rotate-webhook-endpoint-secret
UPDATE webhook_endpoints SET secret = :secret, previous_secret = :previousSecret,
  previous_secret_until = :previousSecretUntil, updated_at = :updatedAt
WHERE id = :id
-- name: delete-webhook-endpoint
DELETE FROM webhook_endpoints WHERE id = ?
-- name: delete-webhook-endpoint-deliveries
DELETE FROM webhook_deliveries WHERE endpoint_id = ?
-- The delivery worker (webhook.DeliveryStore). Endpoints with due deliveries, then each one's due rows: a busy
-- endpoint's backlog never hides another project's.
-- name: select-webhook-due-endpoints
SELECT DISTINCT d.endpoint_id, d.project_id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id =
  d.endpoint_id WHERE d.status = 'PENDING' AND d.next_attempt_at <= :now AND (d.lease_until IS NULL OR d.lease_until
  < :leaseNow)
  AND w.enabled = TRUE
LIMIT 1000
-- name: select-webhook-due-deliveries
SELECT event_id FROM webhook_deliveries WHERE endpoint_id = :endpointId AND status = 'PENDING' AND next_attempt_at <=
  :now
  AND (lease_until IS NULL OR lease_until < :leaseNow)
ORDER BY next_attempt_at LIMIT :limit
-- name: claim-webhook-delivery
UPDATE webhook_deliveries SET claimed_by = :worker, lease_until = :leaseUntil WHERE endpoint_id = :endpointId AND
  event_id = :eventId AND status = 'PENDING' AND next_attempt_at <= :now
  AND (lease_until IS NULL OR lease_until < :leaseNow)
-- name: select-webhook-claimed-delivery
SELECT d.attempts, e.payload, e.item_count, w.url, w.secret, w.previous_secret, w.previous_secret_until, w.enabled
  FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id =
  d.endpoint_id WHERE d.endpoint_id = ? AND d.event_id = ? AND d.claimed_by = ?
-- name: record-webhook-attempt
UPDATE webhook_deliveries SET status = :status, attempts = attempts + 1, next_attempt_at = :nextAttemptAt,
  claimed_by = NULL, lease_until = NULL, last_attempt_at = :attemptAt, last_status = :lastStatus,
  last_latency_ms = :latency, last_detail = :detail
WHERE endpoint_id = :endpointId AND event_id = :eventId AND claimed_by = :worker
-- name: release-webhook-claims
UPDATE webhook_deliveries SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ? AND status = 'PENDING'
-- name: release-webhook-claim
UPDATE webhook_deliveries SET claimed_by = NULL, lease_until = NULL WHERE endpoint_id = ? AND event_id = ? AND
  claimed_by = ?
-- name: webhook-endpoint-succeeded
UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL
-- name: webhook-endpoint-failed
UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL
-- name: disable-webhook-endpoint
UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = TRUE
-- name: select-webhook-endpoint-failing-since
SELECT failing_since FROM webhook_endpoints WHERE id = ?
-- An endpoint's recent deliveries, newest first, and replay: delivered, given up, or waiting for a next attempt
-- (after an outage, the receiver is back: what waits for its 30-minute retry goes now); not one being attempted.
-- name: select-webhook-deliveries-page
SELECT d.event_id, e.event_type, d.status, d.attempts, d.next_attempt_at, d.last_attempt_at, d.last_status,
       d.last_latency_ms, d.last_detail, d.created_at
FROM webhook_deliveries d LEFT JOIN outbox_events e ON e.id = d.event_id WHERE d.endpoint_id = :endpointId
  AND (d.created_at < :createdAt OR d.created_at = :sameCreatedAt AND d.event_id < :id)
ORDER BY d.created_at DESC, d.event_id DESC LIMIT :limit
-- name: replay-webhook-delivery
UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = ?, claimed_by = NULL,
  lease_until = NULL
WHERE endpoint_id = ? AND event_id = ? AND (status <> 'PENDING' OR claimed_by IS NULL)
-- name: replay-webhook-deliveries-since
UPDATE webhook_deliveries SET status = 'PENDING', attempts = 0, next_attempt_at = ?, claimed_by = NULL,
  lease_until = NULL
WHERE endpoint_id = ? AND created_at >= ? AND (status <> 'PENDING' OR claimed_by IS NULL)
-- Metrics: what waits to be sent, and since when: a disabled endpoint's pending deliveries are sent by no worker
-- (until it is enabled again), so they are no backlog.
-- name: count-webhook-pending
SELECT COUNT(*) AS pending, MIN(d.created_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id =
  d.endpoint_id WHERE d.status = 'PENDING' AND w.enabled = TRUE
-- Retention: deliveries and events older than webhooks.retention-days, a bounded number a statement. A pending
-- delivery stays while its endpoint is enabled; a disabled endpoint's goes like a finished one.
-- name: delete-webhook-deliveries-before-mariadb
DELETE FROM webhook_deliveries WHERE created_at < ?
  AND (status <> 'PENDING' OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = FALSE))
ORDER BY created_at LIMIT ?
-- name: delete-webhook-deliveries-before-h2
DELETE FROM webhook_deliveries WHERE created_at < ?
  AND (status <> 'PENDING' OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = FALSE))
FETCH FIRST ? ROWS ONLY
-- Events past the retention that no delivery waits for, oldest first, by idx_outbox_events_created: each one's
-- items (what it sends, migration 29) are deleted by the items' primary key (outbox-delete-event-items), then the
-- event, if still no delivery waits for it. A delete of the items table joined to old events would read the whole
-- table, which now holds every event's items for the retention.
-- name: select-outbox-events-before-mariadb
SELECT id FROM outbox_events WHERE created_at < ?
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.id AND d.status = 'PENDING')
ORDER BY created_at LIMIT ?
-- name: select-outbox-events-before-h2
SELECT id FROM outbox_events WHERE created_at < ?
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.id AND d.status = 'PENDING')
ORDER BY created_at FETCH FIRST ? ROWS ONLY
-- name: delete-outbox-event
DELETE FROM outbox_events WHERE id = ?
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.id AND d.status = 'PENDING')
