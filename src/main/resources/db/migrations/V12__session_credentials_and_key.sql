-- Console sessions bound to the credential that opened them (account.SessionStore): credential is a digest of the
-- account's token-sha256 at its sign-in; a session is taken only while its account's token is still that one, and an
-- instance deletes at start the sessions of credentials no longer configured. Sessions opened before this version
-- name no credential, and their cookies carry no MAC: they end here (their users sign in again). The default lets an
-- instance of the previous version, still running during a rolling upgrade, insert a row that this version refuses.
DELETE FROM admin_sessions;
ALTER TABLE admin_sessions ADD COLUMN IF NOT EXISTS credential CHAR(64) NOT NULL DEFAULT '';

-- An account's sessions by last use: its bound (admin.sessions.max-per-account ends the least recently used at a
-- sign-in), the list of its sessions, and ending them all. Sessions past max-age are deleted by created_at; those
-- idle, by idx_admin_sessions_last_seen: the clean-up at each sign-in reads the ended rows only, not the table.
CREATE INDEX IF NOT EXISTS idx_admin_sessions_account ON admin_sessions (account, last_seen_at);
CREATE INDEX IF NOT EXISTS idx_admin_sessions_created ON admin_sessions (created_at);

-- Secrets every instance on this database shares (account.SessionKey): one row, session-mac, the key of the MAC in
-- each session cookie, made by the first instance that starts without it. Deleting the row rotates it: the next
-- instance to start makes another, and every session ends.
CREATE TABLE IF NOT EXISTS server_keys (
    name       VARCHAR(40) NOT NULL PRIMARY KEY,
    secret     CHAR(64)    NOT NULL,
    created_at BIGINT      NOT NULL
)${tableOptions};
