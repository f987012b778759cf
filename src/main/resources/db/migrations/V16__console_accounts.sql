-- Accounts an owner makes in the console (account.TeamStore), beside those of admin.accounts, which stay in the
-- configuration. token_sha256 is the SHA-256 of the account's token, empty until its invitation is accepted and
-- again after a reset; disabled_at is set while the account is disabled. A session of such an account is taken only
-- while its row is active with the digest that opened it, read at every request: a disabled or reset account's
-- sessions end on every instance at their next request. No instance of an older version reads these tables.
CREATE TABLE IF NOT EXISTS admin_accounts (
    name         VARCHAR(64)  NOT NULL PRIMARY KEY,
    role         VARCHAR(20)  NOT NULL,
    token_sha256 CHAR(64),
    disabled_at  BIGINT,
    created_by   VARCHAR(100) NOT NULL,
    created_at   BIGINT       NOT NULL,
    updated_at   BIGINT       NOT NULL
)${tableOptions};

-- A bearer token of a console account is found by its digest.
CREATE UNIQUE INDEX IF NOT EXISTS idx_admin_accounts_token ON admin_accounts (token_sha256);

-- One-time invitations: the SHA-256 of the secret in the link (the secret itself is nowhere on the server), whose
-- account it sets a token for, until when. Accepting one deletes it (a conditional DELETE: of two acceptances at
-- once, on one instance or two, one wins); a reset replaces the account's invitation.
CREATE TABLE IF NOT EXISTS admin_invites (
    secret_sha256 CHAR(64)    NOT NULL PRIMARY KEY,
    account       VARCHAR(64) NOT NULL,
    expires_at    BIGINT      NOT NULL,
    created_at    BIGINT      NOT NULL
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_admin_invites_account ON admin_invites (account);
CREATE INDEX IF NOT EXISTS idx_admin_invites_expiry ON admin_invites (expires_at);
