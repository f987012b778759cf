package dev.herald.changes;

/**
 * Something kept in memory from the database that a management write can make wrong. Both calls may come more than
 * once for the same change (once from this instance, once more from the log), so they must be idempotent.
 */
public interface ChangeListener {

    /** A project changed, through this instance or another one. */
    void changed(Change change);

    /** Changes may have been missed (the start, or a log pruned past what this instance read): drop everything. */
    void reset();
}
