package dev.herald.feed;

/**
 * The feed cache now, for {@code /observe/metrics}.
 *
 * @param hits   answers served from memory since start
 * @param misses answers built from the database since start (the cache off: none counted)
 */
public record FeedCacheFigures(int keys, long bytes, long hits, long misses) {
}
