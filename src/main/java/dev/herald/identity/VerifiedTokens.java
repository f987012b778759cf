package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokens that verified, so that a client polling with the same token is not verified again each time (an ES256
 * verification is some 100 µs). Keyed by the token's SHA-256, never the token. An entry serves until its exp (with
 * the skew) and only while its kid is active: the caller checks the key on every hit, so a revocation applies at
 * once. Bounded by entries and by bytes (a token of 8 KiB of attributes weighs far more than one of 300 bytes):
 * past either, expired entries go first, then any.
 */
final class VerifiedTokens {

    /**
     * An estimate, not a measurement: the digest, the map's node, the records and the strings (400 bytes), the
     * claims' text kept as strings (twice the token at most: the token is base64 of it), and some 100 bytes per
     * attribute value and array item (a String or a box, and its place in a map or a list).
     */
    private static final int OVERHEAD = 400;
    private static final int PER_VALUE = 100;

    private final int maxEntries;
    private final long maxBytes;
    private final long skewMillis;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();

    VerifiedTokens(UserTokenSettings settings) {
        this.maxEntries = settings.cacheEntries();
        this.maxBytes = settings.cacheBytes();
        this.skewMillis = settings.clockSkew().toMillis();
    }

    /** The key a token is kept under. */
    static String digest(String token) {
        try {
            byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(sha256);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** A token verified before and not expired at {@code now}. */
    Optional<TokenVerifier.Verified> find(String digest, long now) {
        Entry entry = entries.get(digest);
        if (entry == null) {
            return Optional.empty();
        }
        if (now > entry.verified().identity().expiresAt() + skewMillis) {
            remove(digest, entry);
            return Optional.empty();
        }
        return Optional.of(entry.verified());
    }

    void put(String digest, int tokenLength, TokenVerifier.Verified verified, long now) {
        long weight = weight(tokenLength, verified.identity());
        if (maxEntries == 0 || weight > maxBytes) {
            return;
        }
        Entry entry = new Entry(verified, weight);
        Entry before = entries.put(digest, entry);
        bytes.addAndGet(weight - (before == null ? 0 : before.weight()));
        if (entries.size() > maxEntries || bytes.get() > maxBytes) {
            evict(now);
        }
    }

    static long weight(int tokenLength, UserIdentity identity) {
        long values = identity.attributes().values().stream()
                .mapToLong(value -> value instanceof java.util.List<?> list ? list.size() + 1 : 1).sum();
        return 2L * tokenLength + OVERHEAD + PER_VALUE * values;
    }

    /** Entries kept; for tests and figures. */
    int size() {
        return entries.size();
    }

    /**
     * Down to nine tenths of both bounds, so that a full cache with new users arriving scans once per tenth of its
     * size, not once per token (a scan of 100,000 entries per request would be the request's whole cost).
     * Synchronized: one eviction at a time is enough.
     */
    private synchronized void evict(long now) {
        if (entries.size() <= maxEntries && bytes.get() <= maxBytes) {
            return;
        }
        long entriesTarget = maxEntries - Math.max(1, maxEntries / 10);
        long bytesTarget = maxBytes - maxBytes / 10;
        entries.forEach((digest, entry) -> {
            if (now > entry.verified().identity().expiresAt() + skewMillis) {
                remove(digest, entry);
            }
        });
        Iterator<Map.Entry<String, Entry>> any = entries.entrySet().iterator();
        while ((entries.size() > entriesTarget || bytes.get() > bytesTarget) && any.hasNext()) {
            Map.Entry<String, Entry> next = any.next();
            remove(next.getKey(), next.getValue());
        }
    }

    private void remove(String digest, Entry entry) {
        if (entries.remove(digest, entry)) {
            bytes.addAndGet(-entry.weight());
        }
    }

    private record Entry(TokenVerifier.Verified verified, long weight) {
    }
}
