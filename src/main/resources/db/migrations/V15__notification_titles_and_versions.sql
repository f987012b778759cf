-- A notification's title (docs/api.md#objects): optional plain text, the widget's heading for it when set. NULL for
-- every row before this version, and for what an older instance still inserts during a rolling upgrade (it names no
-- title column): the feed leaves the member out when it is NULL, so their answers and feed_bytes do not change.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS title ${characters:200};

-- What a notification's content was after each saved change (notification.NotificationVersions): its create, every
-- PATCH that changed its content (publishing a draft of changes included), a restore. content: a JSON object of the
-- content members of the admin view (title, message, image, action, preset, startDate, endDate) and its status.
-- Numbered 1, 2, ... per notification under the notification's row lock; the newest 100 are kept; deleted with it.
CREATE TABLE IF NOT EXISTS notification_versions (
    notification_id VARCHAR(64)  NOT NULL,
    version         INT          NOT NULL,
    content         ${longText}  NOT NULL,
    saved_at        BIGINT       NOT NULL,
    saved_by        VARCHAR(100) NOT NULL,
    PRIMARY KEY (notification_id, version)
)${tableOptions};
