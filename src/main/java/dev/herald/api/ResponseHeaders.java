package dev.herald.api;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;

/**
 * The one way Herald makes a header of its answers, each checked once where it is made: a header that could not be
 * written as it is (a control character, a line break in a value that came from a stored row) fails here, before it
 * is set, and the request is answered 500 by {@link ErrorResponses}: a header is never split into two.
 * <p>
 * Helidon checks every header of every answer again as it writes it ({@code validate-response-headers}, on by
 * default): 10 to 16 % of a small feed answer's CPU samples, whose dozen headers are the same bytes for every client
 * (docs/performance.md). Herald turns that check off ({@code HttpVersions}) and answers for its headers here
 * instead; {@code ResponseHeadersTest} fails when a class sets a header made another way. The headers Helidon adds
 * itself ({@code Date}, {@code Content-Length} of a sent array, {@code Connection}) are its own and need no check.
 */
public final class ResponseHeaders {

    private ResponseHeaders() {
    }

    /** A header sent as it is on many answers: its bytes are made once (Helidon's cached header). */
    public static Header fixed(HeaderName name, String value) {
        return checked(HeaderValues.createCached(name, value));
    }

    /** A whole number's header kept for many answers: digits need no check. */
    public static Header fixed(HeaderName name, long value) {
        return HeaderValues.createCached(name, value);
    }

    /** A header made for one answer. */
    public static Header of(HeaderName name, String value) {
        return checked(HeaderValues.create(name, value));
    }

    /** A whole number's header made for one answer: digits need no check. */
    public static Header of(HeaderName name, long value) {
        return HeaderValues.create(name, value);
    }

    private static Header checked(Header header) {
        header.validate();
        return header;
    }
}
