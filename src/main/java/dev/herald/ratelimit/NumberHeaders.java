package dev.herald.ratelimit;

import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.herald.api.ResponseHeaders;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;

/**
 * One header's values for whole numbers from 0 to a bound, each built once when first needed and kept: the rate
 * limit sends two such headers on every answer, and a header built once is written as the bytes it holds. Larger
 * numbers are built for each use.
 */
final class NumberHeaders {

    private final HeaderName name;
    private final AtomicReferenceArray<Header> built;

    /**
     * @param largestKept the largest number whose header is kept
     */
    NumberHeaders(HeaderName name, int largestKept) {
        this.name = name;
        this.built = new AtomicReferenceArray<>(largestKept + 1);
    }

    Header of(long value) {
        if (value < 0 || value >= built.length()) {
            // Sent once: a cached header would make its bytes for nothing (1.3 % of tracking's samples at a large limit).
            return ResponseHeaders.of(name, value);
        }
        int at = (int) value;
        Header header = built.get(at);
        if (header == null) {
            // Two requests may both build it; either header is right.
            header = ResponseHeaders.fixed(name, value);
            built.set(at, header);
        }
        return header;
    }
}
