-- The event ids tracking requests carry (their clients' idempotency keys, tracking.EventIds): one row per project
-- and id, inserted in the transaction that stores the interaction, so that a request sent again after a lost answer
-- finds it and is not stored twice. The primary key is what makes it once: of two transactions with one id (two
-- lanes, instances or Galera nodes), the second to commit fails, on one server by its lock, on Galera by
-- certification, and its batch is written again without it. Rows are deleted once older than the timestamp window's
-- length, past and future. The previous version neither writes nor reads the table: during a rolling upgrade, a request sent
-- again to an instance of it is stored again, as it was before.
CREATE TABLE IF NOT EXISTS interaction_event_ids (
    project_id  VARCHAR(64) NOT NULL,
    event_id    VARCHAR(64) NOT NULL,
    received_at BIGINT      NOT NULL,
    PRIMARY KEY (project_id, event_id)
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_interaction_event_ids_received ON interaction_event_ids (received_at);
