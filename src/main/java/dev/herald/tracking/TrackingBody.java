package dev.herald.tracking;

import java.util.List;
import java.util.OptionalLong;

import dev.herald.api.MediaTypes;
import dev.herald.wire.RequestBodies;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * Reads a tracking request's body within its limits: size first, then media type
 * (docs/api.md, POST /api/v1/public/track/{notificationId}, checks 2 and 3).
 */
final class TrackingBody {

    /** 64 KiB of received bytes, announced or chunked (docs/api.md, POST /api/v1/public/track/{notificationId}). */
    static final int MAX_BYTES = RequestBodies.MAX_PUBLIC_BYTES;
    /** Check 3 of docs/api.md, POST /api/v1/public/track/{notificationId}; a 415 lists them. */
    static final List<String> MEDIA_TYPES = List.of("application/json", "text/plain");

    private TrackingBody() {
    }

    /**
     * The raw body, at most {@link #MAX_BYTES}; empty when the request has none. The rest of an oversized body is
     * never read: {@code ConnectionCloseFilter} closes the connection after the answer.
     */
    static byte[] read(ServerRequest request) {
        OptionalLong announced = request.headers().contentLength();
        if (announced.isPresent() && announced.getAsLong() > MAX_BYTES) {
            throw TrackingErrors.bodyTooLarge();
        }
        if (!request.content().hasEntity()) {
            return new byte[0];
        }
        byte[] body = RequestBodies.read(request, MAX_BYTES, TrackingErrors::invalidBody);
        if (body.length > MAX_BYTES) {
            throw TrackingErrors.bodyTooLarge();
        }
        return body;
    }

    /**
     * {@code application/json} or {@code text/plain} (what {@code navigator.sendBeacon} sends), each optionally
     * with {@code charset=utf-8}; any other charset is unsupported.
     */
    static void requireSupportedMediaType(ServerRequest request) {
        String contentType = request.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!MediaTypes.isOneOf(contentType, MEDIA_TYPES)) {
            throw TrackingErrors.unsupportedMediaType();
        }
    }
}
