-- Each instance's interaction writer adds to daily total rows of its own (writer, chosen at random as the instance
-- starts), so that writers never change the same row: on a Galera cluster two writers on two nodes that did met
-- at certification, and one of the two batches failed after its retries (9 of 1,500 answered 500, three instances
-- each on its own node, cluster/run.sh). A total is the sum of its writers' rows. The rows written before are
-- writer 0. One statement, so that instances of the previous version, still writing during a rolling upgrade,
-- never find the table without a key (their rows are writer 0), and so that it can run again after a start
-- interrupted here.
ALTER TABLE interaction_daily_totals
    ADD COLUMN IF NOT EXISTS writer INT NOT NULL DEFAULT 0,
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (project_id, day_number, notification_id, type, writer);
