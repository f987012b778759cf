-- The language each interaction was recorded in (issue 32, docs/api.md#stats): always one of its notification's
-- languages, so the distinct values stay as few as the translations. NULL for the rows before this version, and for
-- what an instance of the previous version inserts during a rolling upgrade (it knows no such column). Adding a
-- nullable column at the end is instant on MariaDB: the raw table is not copied.
ALTER TABLE interactions ADD COLUMN IF NOT EXISTS locale VARCHAR(35);

-- Daily totals per language too: one more column of the key. '' for the totals before this version, which stats
-- report as the notification's language (the project's default for a deleted one). One statement, as migration 9's,
-- so that instances of the previous version, still writing during a rolling upgrade, never find the table without a
-- key (their upsert names no locale: their rows are ''), and so that it can run again after a start interrupted here.
ALTER TABLE interaction_daily_totals
    ADD COLUMN IF NOT EXISTS locale VARCHAR(35) NOT NULL DEFAULT '',
    DROP PRIMARY KEY,
    ADD PRIMARY KEY (project_id, day_number, notification_id, type, writer, locale);
