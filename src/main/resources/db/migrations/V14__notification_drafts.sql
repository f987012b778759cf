-- A pending change of a notification (docs/api.md, PUT /api/v1/admin/notifications/{id}/draft): an update body, in
-- the form the content allow-list gives its message, kept apart from the notification until a PATCH applies it. No
-- feed reads this table. At most one per notification; a PATCH or a DELETE of the notification deletes it.
CREATE TABLE IF NOT EXISTS notification_drafts (
    notification_id VARCHAR(64)  NOT NULL PRIMARY KEY,
    body            ${longText}  NOT NULL,
    updated_at      BIGINT       NOT NULL,
    updated_by      VARCHAR(100) NOT NULL
)${tableOptions};
