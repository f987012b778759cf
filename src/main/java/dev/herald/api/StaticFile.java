package dev.herald.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * One file Herald serves from its module (the browser SDK, the console), read once, when it is first asked for: its
 * bytes, and the headers every answer for it carries. The ETag is a hash of the bytes, so every instance of the same
 * version gives the same one.
 *
 * <p>Not at start: the console and the SDK are some 480 KB, and hashing them before listening cost the start the
 * digest's run through the interpreter and its compilation, for files most starts never serve
 * (docs/performance.md, start-up).
 */
public final class StaticFile {

    private final String directory;
    private final String name;
    private final String contentType;
    private final String cacheControl;
    private final Header[] more;
    private final UnaryOperator<byte[]> served;
    private volatile Content content;

    /** The bytes, sent as they are; the ETag's value, for {@code If-None-Match}; the headers, built once. */
    private record Content(byte[] bytes, String tag, Header[] headers) {
    }

    private StaticFile(String directory, String name, String contentType, String cacheControl,
                       UnaryOperator<byte[]> served, Header[] more) {
        this.directory = directory;
        this.name = name;
        this.contentType = contentType;
        this.cacheControl = cacheControl;
        this.more = more;
        this.served = served;
    }

    /**
     * @param directory the resource directory, {@code /sdk/v1/}
     * @param more      headers besides Content-Type, ETag and Cache-Control
     */
    public static StaticFile of(String directory, String name, String contentType, String cacheControl,
                                Header... more) {
        return new StaticFile(directory, name, contentType, cacheControl, UnaryOperator.identity(), more);
    }

    /** The same, sending the file as {@code served} makes it from the resource's bytes (once, when first asked for). */
    public static StaticFile of(String directory, String name, String contentType, String cacheControl,
                                UnaryOperator<byte[]> served, Header... more) {
        return new StaticFile(directory, name, contentType, cacheControl, served, more);
    }

    /** The file's name in its directory. */
    public String name() {
        return name;
    }

    /** GET and HEAD: the file, or 304 when the browser holds it already. */
    public void send(ServerRequest request, ServerResponse response) {
        Content file = content();
        for (Header header : file.headers()) {
            response.header(header);
        }
        if (EntityTag.matchesIfNoneMatch(request.headers(), file.tag())) {
            response.status(Status.NOT_MODIFIED_304).send();
            return;
        }
        Bodies.sendShared(request, response, file.bytes());
    }

    private Content content() {
        Content loaded = content;
        if (loaded == null) {
            // Two first requests at once may both read it: the same bytes, and the last one kept.
            loaded = load();
            content = loaded;
        }
        return loaded;
    }

    private Content load() {
        byte[] bytes = served.apply(read(directory + name));
        String tag = EntityTag.of(bytes);
        Header[] headers = new Header[3 + more.length];
        headers[0] = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, contentType);
        headers[1] = ResponseHeaders.fixed(HeaderNames.ETAG, tag);
        headers[2] = ResponseHeaders.fixed(HeaderNames.CACHE_CONTROL, cacheControl);
        System.arraycopy(more, 0, headers, 3, more.length);
        return new Content(bytes, tag, headers);
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
