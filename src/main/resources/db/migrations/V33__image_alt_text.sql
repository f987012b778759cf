-- An announcement's image described for those who cannot see it (docs/api.md, imageAlt): the widget's alt text for
-- it. NULL: none given, and for every row before this version; the feed leaves the member out then, so their
-- answers and feed_bytes do not change. Nullable without a default, so that an instance of the version before, in a
-- rolling upgrade, still inserts rows (without a description) and reads its own columns; its updates leave the
-- description as it was. A translation's own is a member of the translations column's JSON, which that version
-- reads past. ${characters:N} counts code points, as the API does.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS image_alt ${characters:250};
