package dev.herald.feed;

import java.util.Arrays;

/**
 * Which of a key's targeted notifications a user matches, one bit each in the order the key's feed loaded them: what
 * the answers for users are kept by, so that every user matching the same set shares one answer.
 */
final class MatchSet {

    private final long[] words;
    private final int hash;

    private MatchSet(long[] words) {
        this.words = words;
        this.hash = Arrays.hashCode(words);
    }

    /** @param words taken, not copied: the caller made them for this set */
    static MatchSet of(long[] words) {
        return new MatchSet(words);
    }

    static long[] words(int targeted) {
        return new long[(targeted + 63) >>> 6];
    }

    static void set(long[] words, int index) {
        words[index >>> 6] |= 1L << index;
    }

    boolean has(int index) {
        return (words[index >>> 6] & (1L << index)) != 0;
    }

    int size() {
        int size = 0;
        for (long word : words) {
            size += Long.bitCount(word);
        }
        return size;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MatchSet set && set.hash == hash && Arrays.equals(set.words, words);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
