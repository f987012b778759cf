package dev.herald.tracking;

import java.util.Locale;
import java.util.OptionalLong;

import dev.herald.web.RequestBodies;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * Reads a tracking request's body within its limits: size first, then media type
 * (docs/api.md, POST /api/v1/public/track/{notificationId}, checks 2 and 3).
 */
final class TrackingBody {

    /** 64 KiB of received bytes, announced or chunked (docs/api.md, POST /api/v1/public/track/{notificationId}). */
    static final int MAX_BYTES = RequestBodies.MAX_PUBLIC_BYTES;

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
     * with {@code charset=utf-8}. Other parameters are ignored; any other charset is unsupported.
     */
    static void requireSupportedMediaType(ServerRequest request) {
        String contentType = request.headers().first(HeaderNames.CONTENT_TYPE).orElse("");
        if (!isSupported(contentType)) {
            throw TrackingErrors.unsupportedMediaType();
        }
    }

    static boolean isSupported(String contentType) {
        String[] parts = contentType.split(";");
        String mediaType = parts[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.equals("application/json") && !mediaType.equals("text/plain")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].strip();
            if (parameter.isEmpty()) {
                continue;
            }
            int equals = parameter.indexOf('=');
            if (equals < 1) {
                return false;
            }
            String name = parameter.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            String value = unquote(parameter.substring(equals + 1).strip()).toLowerCase(Locale.ROOT);
            if (name.equals("charset") && !value.equals("utf-8")) {
                return false;
            }
        }
        return true;
    }

    private static String unquote(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1)
                : value;
    }
}
