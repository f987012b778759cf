package dev.herald.storage;

/**
 * The serving pool's connections at one moment, for {@code /observe/metrics}.
 *
 * @param active  in use by a request
 * @param idle    open and free
 * @param total   open
 * @param waiting requests waiting for one
 */
public record PoolFigures(int active, int idle, int total, int waiting) {
}
