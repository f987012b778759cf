-- As V22__interaction_locales.mariadb.sql: the language of each interaction, and daily totals per language. H2
-- changes one thing per ALTER TABLE, and a dropped primary key cannot be dropped again, so the totals table is rebuilt
-- as migration 9 rebuilt it: the copy merges, the old table is dropped only once copied, and a rename finishes it.
-- H2 runs inside its one instance: no other writer meets the table half-way.
ALTER TABLE interactions ADD COLUMN IF NOT EXISTS locale VARCHAR(35);

CREATE TABLE IF NOT EXISTS interaction_daily_totals_per_locale (
    project_id      VARCHAR(64) NOT NULL,
    day_number      BIGINT      NOT NULL,
    notification_id VARCHAR(64) NOT NULL,
    type            VARCHAR(16) NOT NULL,
    writer          INT         NOT NULL DEFAULT 0,
    locale          VARCHAR(35) NOT NULL DEFAULT '',
    total           BIGINT      NOT NULL,
    PRIMARY KEY (project_id, day_number, notification_id, type, writer, locale)
);

MERGE INTO interaction_daily_totals_per_locale (project_id, day_number, notification_id, type, writer, locale, total)
KEY (project_id, day_number, notification_id, type, writer, locale)
SELECT project_id, day_number, notification_id, type, writer, '', total FROM interaction_daily_totals;

DROP TABLE IF EXISTS interaction_daily_totals;

ALTER TABLE interaction_daily_totals_per_locale RENAME TO interaction_daily_totals;

CREATE INDEX IF NOT EXISTS idx_daily_totals_notification
    ON interaction_daily_totals (notification_id, day_number, type);
