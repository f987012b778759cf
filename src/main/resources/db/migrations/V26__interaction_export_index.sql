-- Exports read one project's interactions in the order the server received them (export.ExportStore, docs/api.md#export),
-- a page at a time by keyset on (received_at, seq): without this index each page would read the project's rows
-- whole. Expand: the previous version neither reads nor needs it; MariaDB builds it without blocking writes
-- (InnoDB's online index creation), in time proportional to the table.
CREATE INDEX IF NOT EXISTS idx_interactions_export ON interactions (project_id, received_at, seq);
