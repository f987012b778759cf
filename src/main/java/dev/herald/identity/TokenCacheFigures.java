package dev.herald.identity;

/**
 * The verified-token cache's figures, for {@code /observe/metrics}.
 *
 * @param entries       tokens held
 * @param bytes         their estimated weight (docs/behaviour.md, User tokens)
 * @param hits          requests whose token was found verified
 * @param verifications tokens verified (signature and claims): misses, refused ones included
 */
public record TokenCacheFigures(int entries, long bytes, long hits, long verifications) {
}
