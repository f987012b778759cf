-- An event of interactions or user states keeps its items and is sent from them (issue 35, point 7): sealing it
-- marks it (sealed_at) where it wrote its payload (about 200 bytes an interaction, received, logged and written again
-- by the database) and deleted its items (logged again). Each attempt joins the items' text around the event's
-- head, the same bytes every time (outbox.Outbox#seal). Expand: items_kept is FALSE for the events the previous
-- version opens, whose insert names no such column, and those it sealed the way it seals them (payload written,
-- items deleted) wherever they are sent; its lanes' guard checks the payload only, so an event of its own that a new
-- instance seals gets its payload written as before. Both columns are added at the end: instant on MariaDB.
ALTER TABLE outbox_events ADD COLUMN IF NOT EXISTS items_kept BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE outbox_events ADD COLUMN IF NOT EXISTS sealed_at BIGINT;
