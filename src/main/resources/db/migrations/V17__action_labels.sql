-- A LINK action's button text (docs/api.md, action.data.label), set per announcement; NULL: none, the client says its
-- own (the widget's action-text). Nullable without a default, so that an instance of the version before, in a
-- rolling upgrade, still inserts rows (they have no label) and reads its own columns; its updates leave the label as
-- it was. ${characters:N} counts code points, as the API does.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS action_label ${characters:60};
