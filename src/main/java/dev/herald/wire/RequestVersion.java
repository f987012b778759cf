package dev.herald.wire;

import io.helidon.http.HttpPrologue;

/**
 * The HTTP version of the request a connection is reading, told from its request line before Helidon parses it.
 * Helidon (4.1.7 to 4.5.0) refuses an {@code HTTP/1.0} request line with 505, and offers no setting to take it; an
 * HTTP/1.1 server must answer one (RFC 9112 §2.3, RFC 9110 §6.2). Here its version is read as 1.1, for Helidon,
 * and remembered, for {@link HttpVersions} to hold the request to 1.0's rules once its headers are read.
 *
 * <p>Helidon reads a request line with {@code findNewLine} then {@code readBytes}; while it reads the header section
 * that follows, {@code readBytes} gives it only a {@code Connection} header's value. The section ends in
 * {@link HttpVersions#headers}, so the next {@code readBytes} is the next request line. One connection is read by
 * one thread at a time: plain fields are enough.
 */
final class RequestVersion {

    private static final int VERSION_LENGTH = " HTTP/1.0".length();

    private boolean http10;
    private boolean readingHeaders;
    private HttpPrologue prologue;

    /** The bytes Helidon asked for, a request line ending in {@code HTTP/1.0} changed in place to end in 1.1. */
    byte[] read(byte[] bytes) {
        if (readingHeaders) {
            return bytes;
        }
        readingHeaders = true;
        http10 = endsInHttp10(bytes);
        if (http10) {
            bytes[bytes.length - 1] = '1';
        }
        return bytes;
    }

    void prologue(HttpPrologue prologue) {
        this.prologue = prologue;
    }

    /** The request line as Helidon parsed it, its version 1.1 however it was sent. */
    HttpPrologue prologue() {
        return prologue;
    }

    /** The header section is read: the next request line may follow. Whether the request was sent as 1.0. */
    boolean headersRead() {
        readingHeaders = false;
        return http10;
    }

    private static boolean endsInHttp10(byte[] line) {
        int at = line.length - VERSION_LENGTH;
        return at > 0
               && line[at] == ' ' && line[at + 1] == 'H' && line[at + 2] == 'T' && line[at + 3] == 'T'
               && line[at + 4] == 'P' && line[at + 5] == '/' && line[at + 6] == '1' && line[at + 7] == '.'
               && line[at + 8] == '0';
    }
}
