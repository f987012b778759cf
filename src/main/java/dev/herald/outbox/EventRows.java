package dev.herald.outbox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An event of ranges' rows as its one read takes them (Outbox#interactionsPayload): its batches' marks, the span of
 * seq from its first range to the end its seal kept, how many rows at most, and which rows of each batch are the
 * event's as they come in seq order (past what its range skips, of its part in the event before, which carries the
 * same mark; then as many as it counts).
 */
final class EventRows {
    private final Map<Long, long[]> marks = new LinkedHashMap<>();
    private long firstSeq = Long.MAX_VALUE;
    private long lastSeq = Long.MAX_VALUE;
    private long rows;

    EventRows(List<StoredRange> ranges) {
        for (StoredRange range : ranges) {
            if (range.count() == 0) {
                lastSeq = range.firstSeq() > 0 ? range.firstSeq() : Long.MAX_VALUE;
                continue;
            }
            firstSeq = Math.min(firstSeq, range.firstSeq());
            // A batch is one range of an event; were it two, they follow each other: the first's skip, both counts.
            marks.merge(range.batch(), new long[] {range.skipped(), range.count()},
                        (had, more) -> new long[] {Math.min(had[0], more[0]), had[1] + more[1]});
            rows += range.skipped() + range.count();
        }
    }

    /** Each batch's mark, once. */
    Set<Long> marks() {
        return marks.keySet();
    }

    long firstSeq() {
        return firstSeq;
    }

    long lastSeq() {
        return lastSeq;
    }

    long rows() {
        return rows;
    }

    /** Whether the next row of that batch is the event's: past what its range skips, within what it counts. */
    boolean takes(long mark) {
        long[] left = marks.get(mark);
        if (left == null) {
            return false;
        }
        if (left[0] > 0) {
            left[0]--;
            return false;
        }
        if (left[1] > 0) {
            left[1]--;
            return true;
        }
        return false;
    }
}
