package dev.herald.outbox;

/**
 * A row of {@code outbox_event_ranges}: {@code count} of a batch's rows of the event's project and type (those that
 * carry its mark) after the first {@code skipped}, from {@code firstSeq}. An empty one is the mark of a sealed event,
 * and keeps the highest seq when it was sealed (0 when the version before sealed it: no end known).
 */
record StoredRange(long firstSeq, long batch, long skipped, long count) {
}
