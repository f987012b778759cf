-- Who a notification is for (docs/api.md#audience): its audience tree as JSON text, checked by the management API;
-- NULL, as for every row before this version, is everyone, anonymous clients included, as before. Versions and drafts
-- keep it as a member of the JSON they already store: no column there. Nullable without a default, so an instance of
-- the version before still inserts rows during a rolling upgrade; but such an instance does not read the column and
-- would serve a targeted notification to everyone: target notifications once every instance runs this version.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS audience ${longText};
