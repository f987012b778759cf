package dev.herald.export;

import java.util.List;

/**
 * One kind of export (docs/api.md#export): its name, its columns, its order and its reads. {@link ExportService} does
 * the rest alike for every kind: the request and its cursor, the answer's end found before its rows, the rows a page
 * at a time, the formats.
 *
 * @param <P> a place in its order: a row's, or one between rows
 */
interface ExportKind<P extends Comparable<P>> {

    /** Its path under {@code /projects/{projectId}/export/}, its cursors' kind and its CSV file's name. */
    String name();

    /** Its CSV header. */
    List<String> columns();

    /** After every row whose time is before {@code instant}, and before any other: a pull from the start is at 0. */
    P before(long instant);

    /** Where a first pull starts: before every row. */
    default P start() {
        return before(0);
    }

    /** The time of a place, the first part of its cursor. */
    long at(P position);

    /** The rest of a place, in the cursor after its time: base64url characters only, as {@link ExportCursor} reads. */
    String tiebreak(P position);

    /** The place a cursor holds. @throws IllegalArgumentException for a tiebreak this kind never writes */
    P position(long at, String tiebreak);

    /**
     * Where an answer that starts after {@code from} ends: after at most {@code limit} rows whose time is before
     * {@code before}, and no more than {@code budget} bytes of them as estimated (at least one row).
     */
    AnswerEnd<P> end(String projectId, P from, long before, int limit, long budget);

    /** The most rows an answer of {@code budget} bytes asks {@link #end} to weigh: at least one. */
    int candidates(long budget);

    /** At most {@code rows} rows after {@code from} up to {@code last}, both by place, in order. */
    List<? extends ExportedRow<P>> page(String projectId, P from, P last, int rows);

    /**
     * @param last where the answer ends, its last row's place or past every row it could hold
     * @param more whether it stopped at its limit or its bytes, before rows that are ready
     */
    record AnswerEnd<P>(P last, boolean more) {

        /** Every row before a place fits: the answer takes them all, and the next starts there. */
        static <P> AnswerEnd<P> everythingUpTo(P place) {
            return new AnswerEnd<>(place, false);
        }
    }
}
