-- The keys user tokens are verified with (docs/api.md, Token keys). kid is made by Herald and unique across projects:
-- a token names its key, and the key names its project. algorithm fixes what a token under this kid must be signed
-- with (HS256, ES256, EdDSA); secret is the HS256 key (base64url of 32 bytes, needed to verify), public_key the
-- registered public key as a JWK (ES256, EdDSA). Revoked keys are kept, listed with their revocation time.
CREATE TABLE IF NOT EXISTS user_token_keys (
    kid         VARCHAR(22)  NOT NULL PRIMARY KEY,
    project_id  VARCHAR(64)  NOT NULL,
    algorithm   VARCHAR(8)   NOT NULL,
    secret      VARCHAR(64),
    public_key  VARCHAR(512),
    created_at  BIGINT       NOT NULL,
    revoked_at  BIGINT,
    CONSTRAINT fk_user_token_keys_project FOREIGN KEY (project_id) REFERENCES projects (id)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_user_token_keys_project ON user_token_keys (project_id, created_at);

-- A key may refuse anonymous feed requests (requireUserToken). A default, so that an instance of the version before,
-- in a rolling upgrade, still inserts keys; they do not require a token, as before.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS require_user_token BOOLEAN DEFAULT FALSE NOT NULL;
