-- The id of each group commit, written in the batch's own transaction (storage.ExactlyOnceCommit, issue 34): when
-- the connection is lost during a commit, a fresh connection (another Galera node, after a failover) finds the id if
-- the batch was committed, and the batch is written again, under the same id, if it was not. The primary key is
-- what makes it exactly once: of two transactions with one id (the lost one and its retry), the second to commit
-- fails, on one server by its lock, on Galera by certification. Rows are kept an hour, then deleted by the writer;
-- the previous version neither writes nor reads the table.
CREATE TABLE IF NOT EXISTS committed_batches (
    id           BINARY(16) NOT NULL PRIMARY KEY,
    committed_at BIGINT     NOT NULL
)${tableOptions};

CREATE INDEX IF NOT EXISTS idx_committed_batches_at ON committed_batches (committed_at);
