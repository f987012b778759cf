package dev.herald.tracking;

/**
 * How the unknown-notification check of tracking was answered since start: from memory (a known notification, or an
 * id no notification has) or by the database (the id filter's "maybe", a stale change log, batching turned off).
 */
public record LookupFigures(long fromMemory, long fromDatabase) {
}
