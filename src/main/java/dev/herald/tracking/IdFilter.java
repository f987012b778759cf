package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every notification id, as a Bloom filter: "no" is certain, "maybe" means the database must say. About 2.5 bytes an
 * id (10 bits at capacity, filled to half at first), whatever a project holds: 100,000 notifications take 250 KB.
 *
 * <p>Keyed: the bit positions come from SHA-256 of a secret of this process and the id, so that nobody can make up
 * ids that look like a known one's to the filter and reach the database with each (the ids in public feeds are
 * known; an unkeyed hash such as {@link String#hashCode()} collides at will). Thread-safe without locks: bits are
 * only ever set.
 */
final class IdFilter {

    private static final int HASHES = 7;
    private static final int BITS_PER_ID = 10;
    private static final byte[] SECRET = secret();

    private final AtomicLongArray bits;
    private final long bitCount;
    private final int capacity;
    private final AtomicInteger added = new AtomicInteger();
    private final AtomicBoolean replacing = new AtomicBoolean();

    /** @param capacity the ids it holds before its answers of "maybe" grow past about 1 % of unknown ids */
    IdFilter(int capacity) {
        this.capacity = capacity;
        this.bitCount = Math.max(64L, (long) capacity * BITS_PER_ID);
        this.bits = new AtomicLongArray((int) ((bitCount + 63) / 64));
    }

    void add(String id) {
        long[] hashes = hashes(id);
        for (int i = 0; i < HASHES; i++) {
            long bit = position(hashes, i);
            int word = (int) (bit >>> 6);
            long mask = 1L << (bit & 63);
            long seen = bits.get(word);
            while ((seen & mask) == 0) {
                long witnessed = bits.compareAndExchange(word, seen, seen | mask);
                if (witnessed == seen) {
                    break;
                }
                seen = witnessed;
            }
        }
        added.incrementAndGet();
    }

    /** False only for an id never added. */
    boolean mightContain(String id) {
        long[] hashes = hashes(id);
        for (int i = 0; i < HASHES; i++) {
            long bit = position(hashes, i);
            if ((bits.get((int) (bit >>> 6)) & (1L << (bit & 63))) == 0) {
                return false;
            }
        }
        return true;
    }

    /** More ids added than it was sized for: its "maybe" grows more frequent, time for a larger one. */
    boolean isFull() {
        return added.get() > capacity;
    }

    /** True once, for the caller that is to load its replacement when it is full. */
    boolean claimReplacement() {
        return isFull() && replacing.compareAndSet(false, true);
    }

    /** Positions by double hashing (Kirsch and Mitzenmacher): two independent halves of one digest. */
    private long position(long[] hashes, int i) {
        return Math.floorMod(hashes[0] + i * hashes[1], bitCount);
    }

    private static long[] hashes(String id) {
        MessageDigest digest = sha256();
        digest.update(SECRET);
        byte[] hash = digest.digest(id.getBytes(StandardCharsets.UTF_8));
        return new long[] {longAt(hash, 0), longAt(hash, 8) | 1};
    }

    private static long longAt(byte[] bytes, int offset) {
        long value = 0;
        for (int i = offset; i < offset + 8; i++) {
            value = value << 8 | (bytes[i] & 0xFF);
        }
        return value;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static byte[] secret() {
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        return secret;
    }
}
