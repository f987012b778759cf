-- An event of interactions names its lane's interaction rows instead of copying them (issue 35, point 7): each
-- batch's items row (some 180 bytes an interaction, received, logged and written by the database a second time)
-- becomes one small row a batch: the first seq the batch's insert was given, the batch's mark, how many of its rows to
-- pass over and how many to take. The rows an event takes carry their batch's mark (interactions.event_batch, random,
-- NULL for every row no endpoint wanted), so rows of other batches interleaved with a batch's (other lanes and
-- instances, Galera's interleaved auto-increments) are never taken, and a row deleted by the raw interactions'
-- retention is missed, never replaced by another. No index on it: a range is read from its first seq by the primary
-- key, over the batch's own span. A batch adds its range and nothing else to an open event (before, a guarded update
-- of the event's row as well): sealing writes an empty range at the next position, whose key a late batch then
-- fails on and is written again in a new event. Expand: both columns added at the end (instant on MariaDB, whatever the table's
-- size), and the version before neither writes nor reads them; its senders find no items in an event of ranges,
-- refuse to seal it and leave it, after their claim's lease, to a new instance (docs/operations.md).
ALTER TABLE interactions ADD COLUMN IF NOT EXISTS event_batch BIGINT;
ALTER TABLE outbox_events ADD COLUMN IF NOT EXISTS from_interactions BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE IF NOT EXISTS outbox_event_ranges (
    event_id   VARCHAR(40) NOT NULL,
    position   INT         NOT NULL,
    first_seq  BIGINT      NOT NULL,
    batch      BIGINT      NOT NULL,
    skipped    INT         NOT NULL,
    item_count INT         NOT NULL,
    PRIMARY KEY (event_id, position)
)${tableOptions};
