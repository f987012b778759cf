-- Instants are epoch milliseconds (BIGINT): exact to the millisecond on H2 and MariaDB alike,
-- free of JDBC time-zone conversions, and UTC days are plain integer division.
-- ${longText} and ${tableOptions} are filled in per database by Migrations.

CREATE TABLE IF NOT EXISTS projects (
    id         VARCHAR(64)  NOT NULL PRIMARY KEY,
    name       VARCHAR(200) NOT NULL,
    created_at BIGINT       NOT NULL
)${tableOptions};

CREATE TABLE IF NOT EXISTS api_keys (
    api_key     VARCHAR(64) NOT NULL PRIMARY KEY,
    project_id  VARCHAR(64) NOT NULL,
    show_past   BOOLEAN     NOT NULL,
    show_future BOOLEAN     NOT NULL,
    order_by    VARCHAR(32) NOT NULL,
    created_at  BIGINT      NOT NULL,
    revoked_at  BIGINT,
    CONSTRAINT fk_api_keys_project FOREIGN KEY (project_id) REFERENCES projects (id)
)${tableOptions};

-- seq is the creation order: it breaks createdAt ties (docs/api.md, GET /api/v1/public/{apiKey}/notifications, rule 3).
CREATE TABLE IF NOT EXISTS notifications (
    seq           BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    id            VARCHAR(64)   NOT NULL,
    project_id    VARCHAR(64)   NOT NULL,
    status        VARCHAR(16)   NOT NULL,
    message       ${longText}   NOT NULL,
    image         VARCHAR(2048),
    action_type   VARCHAR(16)   NOT NULL,
    action_url    VARCHAR(2048),
    action_target VARCHAR(16),
    preset        VARCHAR(100)  NOT NULL,
    start_at      BIGINT,
    end_at        BIGINT,
    created_at    BIGINT        NOT NULL,
    updated_at    BIGINT        NOT NULL,
    CONSTRAINT uq_notifications_id UNIQUE (id),
    CONSTRAINT fk_notifications_project FOREIGN KEY (project_id) REFERENCES projects (id)
)${tableOptions};

-- Get Notifications reads one project's published notifications, newest first.
CREATE INDEX IF NOT EXISTS idx_notifications_feed ON notifications (project_id, status, created_at, seq);

-- No foreign key to notifications: a deleted notification's interactions stay counted.
CREATE TABLE IF NOT EXISTS interactions (
    seq             BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    notification_id VARCHAR(64) NOT NULL,
    project_id      VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    occurred_at     BIGINT      NOT NULL,
    received_at     BIGINT      NOT NULL,
    endpoint        VARCHAR(16) NOT NULL,
    metadata        ${longText}
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_interactions_notification ON interactions (notification_id, occurred_at, type);
CREATE INDEX IF NOT EXISTS idx_interactions_project ON interactions (project_id, occurred_at, type);
