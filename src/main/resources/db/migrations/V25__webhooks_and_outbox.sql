-- Events out (issue 35, docs/webhooks.md). Expand: the previous version neither reads nor writes these tables, and
-- writes no events (its instances, during a rolling upgrade, change notifications without telling the endpoints).
--
-- A project's webhook endpoints. secret is the current whsec_ secret; previous_secret signs too until
-- previous_secret_until (a rotation's window). disabled_reason says why an endpoint stopped (410, failing for days, a
-- person); failing_since is the first failure of the current run of failures, NULL once a delivery succeeds.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id                    VARCHAR(32)   NOT NULL PRIMARY KEY,
    project_id            VARCHAR(64)   NOT NULL,
    url                   VARCHAR(2048) NOT NULL,
    description           VARCHAR(200),
    event_types           VARCHAR(1000) NOT NULL,
    secret                VARCHAR(100)  NOT NULL,
    previous_secret       VARCHAR(100),
    previous_secret_until BIGINT,
    enabled               BOOLEAN       NOT NULL,
    disabled_reason       VARCHAR(300),
    failing_since         BIGINT,
    created_at            BIGINT        NOT NULL,
    updated_at            BIGINT        NOT NULL,
    CONSTRAINT fk_webhook_endpoints_project FOREIGN KEY (project_id) REFERENCES projects (id)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_webhook_endpoints_project ON webhook_endpoints (project_id, created_at);

-- The event types each endpoint wants (event_types above, as the API shows them), one row each: the outbox finds an event's endpoints by its key's prefix
-- (project, type) in the event's own transaction.
CREATE TABLE IF NOT EXISTS webhook_endpoint_events (
    project_id  VARCHAR(64) NOT NULL,
    event_type  VARCHAR(40) NOT NULL,
    endpoint_id VARCHAR(32) NOT NULL,
    PRIMARY KEY (project_id, event_type, endpoint_id)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_webhook_endpoint_events_endpoint ON webhook_endpoint_events (endpoint_id);

-- The outbox: each event written in the transaction of the change that caused it. id is the webhook-id; payload the
-- exact body sent; sequence numbers the events of one source (a notification, an interaction writer) from 1.
-- An event of interactions stays open for a short window, its writer lane adding each batch's interactions to it
-- (outbox_event_items, item_count); payload is NULL until the delivery worker seals it, after the window.
CREATE TABLE IF NOT EXISTS outbox_events (
    id          VARCHAR(40)  NOT NULL PRIMARY KEY,
    project_id  VARCHAR(64)  NOT NULL,
    event_type  VARCHAR(40)  NOT NULL,
    source      VARCHAR(120) NOT NULL,
    sequence    BIGINT       NOT NULL,
    payload     ${longText},
    item_count  INT          NOT NULL,
    created_at  BIGINT       NOT NULL
)${tableOptions};

-- The items of an open event (interactions), in the order they were committed, a row for each batch (its items'
-- JSON objects joined by commas, position: its first item's); deleted once the event is sealed.
CREATE TABLE IF NOT EXISTS outbox_event_items (
    event_id VARCHAR(40) NOT NULL,
    position INT         NOT NULL,
    item     ${longText} NOT NULL,
    PRIMARY KEY (event_id, position)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_outbox_events_project ON outbox_events (project_id, created_at);
CREATE INDEX IF NOT EXISTS idx_outbox_events_created ON outbox_events (created_at);

-- Each source's last sequence number. A notification's row is written under the project's lock that every
-- notification write takes; an interaction writer's lane only by that lane: no two transactions contend for one.
CREATE TABLE IF NOT EXISTS outbox_sequences (
    source        VARCHAR(120) NOT NULL PRIMARY KEY,
    last_sequence BIGINT       NOT NULL
)${tableOptions};

-- One event on its way to one endpoint, and its last attempt. A worker claims a due row by setting claimed_by and
-- lease_until where the lease is free or expired (a conditional UPDATE: on Galera two nodes' claims of one row
-- conflict at certification and one loses); an instance that dies leaves a lease that expires, and another takes it.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    endpoint_id     VARCHAR(32)  NOT NULL,
    event_id        VARCHAR(40)  NOT NULL,
    project_id      VARCHAR(64)  NOT NULL,
    status          VARCHAR(12)  NOT NULL,
    attempts        INT          NOT NULL,
    next_attempt_at BIGINT,
    claimed_by      VARCHAR(64),
    lease_until     BIGINT,
    last_attempt_at BIGINT,
    last_status     INT,
    last_latency_ms BIGINT,
    last_detail     VARCHAR(300),
    created_at      BIGINT       NOT NULL,
    PRIMARY KEY (endpoint_id, event_id)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS idx_webhook_deliveries_recent ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX IF NOT EXISTS idx_webhook_deliveries_created ON webhook_deliveries (created_at);
