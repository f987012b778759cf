package dev.herald.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;


import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * One file Herald serves from its module (the browser SDK, the console), read once: its bytes, and the headers
 * every answer for it carries. The ETag is a hash of the bytes, so every instance of the same version gives the same
 * one.
 *
 * @param name    the file's name in its directory
 * @param bytes   the content, sent as it is
 * @param tag     the ETag's value, for {@code If-None-Match}
 * @param headers Content-Type, ETag, Cache-Control and whatever else the file needs, built once
 */
public record StaticFile(String name, byte[] bytes, String tag, Header[] headers) {

    /** @param directory the resource directory, {@code /sdk/v1/} */
    public static StaticFile of(String directory, String name, String contentType, String cacheControl,
                                Header... more) {
        byte[] bytes = read(directory + name);
        String tag = EntityTag.of(bytes);
        Header[] headers = new Header[3 + more.length];
        headers[0] = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, contentType);
        headers[1] = HeaderValues.createCached(HeaderNames.ETAG, tag);
        headers[2] = HeaderValues.createCached(HeaderNames.CACHE_CONTROL, cacheControl);
        System.arraycopy(more, 0, headers, 3, more.length);
        return new StaticFile(name, bytes, tag, headers);
    }

    /** GET and HEAD: the file, or 304 when the browser holds it already. */
    public void send(ServerRequest request, ServerResponse response) {
        for (Header header : headers) {
            response.header(header);
        }
        if (EntityTag.matchesIfNoneMatch(request.headers(), tag)) {
            response.status(Status.NOT_MODIFIED_304).send();
            return;
        }
        Bodies.sendShared(request, response, bytes);
    }

    private static byte[] read(String resource) {
        try (InputStream in = StaticFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
