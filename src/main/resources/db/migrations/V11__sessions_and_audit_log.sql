-- Console sign-ins (admin.SessionStore). A session is found by the SHA-256 of its cookie, so a copy of this table
-- opens no session. It names its account; the role is read from admin.accounts on every request, so a changed or
-- removed account takes effect at once. Rows idle past admin.sessions.idle-timeout are deleted at sign-ins.
CREATE TABLE IF NOT EXISTS admin_sessions (
    id_sha256    CHAR(64)     NOT NULL PRIMARY KEY,
    account      VARCHAR(100) NOT NULL,
    created_at   BIGINT       NOT NULL,
    last_seen_at BIGINT       NOT NULL
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_admin_sessions_last_seen ON admin_sessions (last_seen_at);

-- Who changed what and when (audit.AuditLog): one row per management write and per sign-in and sign-out, written in
-- the transaction of the write it tells of, newest first by (occurred_at, seq): seq, the order of writing, breaks ties within a millisecond. Kept for ever: years of writes are small
-- beside their interactions. details: a JSON object, the fields written (from and to, for an update).
CREATE TABLE IF NOT EXISTS audit_log (
    seq         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    occurred_at BIGINT       NOT NULL,
    actor       VARCHAR(100) NOT NULL,
    action      VARCHAR(40)  NOT NULL,
    project_id  VARCHAR(64),
    target_type VARCHAR(20)  NOT NULL,
    target_id   VARCHAR(64),
    details     ${longText}  NOT NULL
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_audit_log_at ON audit_log (occurred_at, seq);
CREATE INDEX IF NOT EXISTS idx_audit_log_project ON audit_log (project_id, occurred_at, seq);
CREATE INDEX IF NOT EXISTS idx_audit_log_target ON audit_log (target_id, occurred_at, seq);
