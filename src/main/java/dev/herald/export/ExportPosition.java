package dev.herald.export;

/**
 * A place in the interactions export's order, (received at, id): a row is after it when its time is later, or equal
 * with a larger id. Rows only enter that order behind the settle window (ExportSettings), so a place never has a row
 * added before it once it has been handed out.
 */
record ExportPosition(long at, long id) implements Comparable<ExportPosition> {

    /** Before every row. */
    static final ExportPosition START = new ExportPosition(-1, Long.MAX_VALUE);

    /** After every row whose time is before {@code instant}, and before any other. */
    static ExportPosition before(long instant) {
        return new ExportPosition(instant - 1, Long.MAX_VALUE);
    }

    @Override
    public int compareTo(ExportPosition other) {
        int byTime = Long.compare(at, other.at);
        return byTime != 0 ? byTime : Long.compare(id, other.id);
    }
}
