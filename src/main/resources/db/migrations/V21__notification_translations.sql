-- Languages (issue 32, docs/api.md#languages).
--
-- A project's default language: the language of its notifications that name none, and what a reader who asks for
-- none, or for none there is, is served. 'en' for every project before this version; a team whose notifications are
-- in another language sets its own (PATCH /api/v1/admin/projects/{id}), and every notification without a language of
-- its own follows. required_locales: the tags every notification must have a text in before it is published,
-- comma-separated, canonical; NULL: none required.
ALTER TABLE projects ADD COLUMN IF NOT EXISTS default_locale VARCHAR(35) NOT NULL DEFAULT 'en';
ALTER TABLE projects ADD COLUMN IF NOT EXISTS required_locales VARCHAR(1000);

-- A notification's own language (a canonical BCP 47 tag), the language of its message, title, image and action;
-- NULL: the project's default, as for every row before this version and for what an older instance inserts during a
-- rolling upgrade.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS locale VARCHAR(35);

-- Its translations, as a JSON object by canonical tag, in tag order:
--   {"fr":{"title":…,"message":…,"image":…,"action":{…}}, "pt-BR":{…}}
-- each member as the management API answers it (message in the content allow-list's form, action as in the feed),
-- title, image and action null where the translation keeps the notification's own, message null while it is being
-- written (a published notification has none such). NULL or absent: none, as for every row before this version.
-- Versions and drafts keep it as a member of the JSON they already store, as they keep the audience: no column there.
-- An older instance does not read it: during a rolling upgrade it serves every reader the notification's own
-- language, as before.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS translations ${longText};

-- Each answer may now carry a locale member per entry (docs/api.md#languages): every size is measured again, at the
-- start (feed.FeedBound), with the longest of its languages.
UPDATE notifications SET feed_bytes = NULL;
