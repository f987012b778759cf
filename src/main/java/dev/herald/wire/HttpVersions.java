package dev.herald.wire;

import java.util.List;

import dev.herald.startup.Ahead;

import io.helidon.common.uri.UriValidator;
import io.helidon.http.DirectHandler;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.DirectTransportRequest;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;

/**
 * Serves {@code HTTP/1.0} requests as RFC 9112 asks of an HTTP/1.1 server, where Helidon (4.1.7 to 4.5.0) answers
 * them 505: nginx's {@code proxy_pass} (without {@code proxy_http_version 1.1}), HAProxy's default health check and
 * ApacheBench all send 1.0. {@link RequestVersion} hands Helidon such a request as 1.1; once its headers are read,
 * this listener holds it to 1.0's rules before any route runs:
 * <ul>
 * <li>without {@code Connection: keep-alive} the connection closes after the answer (RFC 9112 §9.3: 1.0 is not
 *     persistent unless asked), by the {@code Connection: close} given to the request, which
 *     {@link ConnectionCloseFilter} and Helidon act on as for a 1.1 client; with it, Helidon keeps the connection
 *     and says {@code Connection: keep-alive} on each answer, all of which carry a {@code Content-Length};</li>
 * <li>a {@code Transfer-Encoding} is refused with 400 and the connection closed (RFC 9112 §6.1: a 1.0 message with
 *     one has faulty framing);</li>
 * <li>no {@code Host} is needed (RFC 9112 §3.2 asks it of 1.1 requests);</li>
 * <li>{@code Expect: 100-continue} is ignored (RFC 9110 §10.1.1: a 1.0 client may not understand a 100).</li>
 * </ul>
 * The answer's status line says {@code HTTP/1.1}, as RFC 9110 §6.2 asks of a 1.1 server.
 *
 * <p>The {@code Host} check is this listener's for every request: Helidon makes its own before any listener runs,
 * and would refuse a 1.0 request without one, so it is turned off ({@link #http1Config()}) and made here the same
 * way (present once, not empty, a host and port of valid form). Its switch is deprecated for removal since Helidon
 * 4.1.3: when it goes, {@code http1Config()} no longer compiles, and {@code HttpVersionsTest} says what it guards.
 * An HTTP/1.1 request costs a flag test on its request line and the same {@code Host} check Helidon made itself.
 */
public final class HttpVersions implements Http1ConnectionListener {

    /**
     * One for every listener, begun ahead ({@link #building()}): the builder parses its size defaults through BigInteger,
     * which on a cold JVM was 4.5 % of the main thread's start (a JFR profile, issue 33).
     */
    private static final Ahead<Http1Config> HTTP1 = new Ahead<>(HttpVersions::build);
    /** A request header of Herald's own, set on a 1.0 request and taken off any other (a client may send it). */
    private static final HeaderName HTTP_1_0 = HeaderNames.create("Herald-Request-Http-1-0");
    /** What Helidon (4.5.0) makes of a line {@code ": value"}, which it takes. */
    private static final HeaderName NAMELESS = HeaderNames.create("");
    private static final Header HTTP_1_0_MARK = HeaderValues.createCached(HTTP_1_0, "1");

    private HttpVersions() {
    }

    /** The building of {@link #http1Config()}, to begin while the main thread reads the configuration. */
    public static Ahead<Http1Config> building() {
        return HTTP1;
    }

    /** Helidon's HTTP/1.1 settings for Herald's listeners: its own, but the {@code Host} check made here. */
    public static Http1Config http1Config() {
        return HTTP1.get();
    }

    @SuppressWarnings("removal")
    private static Http1Config build() {
        return Http1Config.builder()
                .validateRequestHostHeader(false)
                // Herald checks each header once where it makes it (ResponseHeaders): Helidon's check of each on every
                // answer was 10 to 16 % of a small feed answer's CPU samples.
                .validateResponseHeaders(false)
                .addReceiveListener(new HttpVersions())
                .build();
    }

    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        if (ctx instanceof StrictChunkContext strict) {
            strict.version().prologue(prologue);
        }
    }

    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        if (!(headers instanceof WritableHeaders<?> writable)) {
            return;
        }
        HttpPrologue prologue = null;
        boolean http10 = false;
        CheckedHost checked;
        if (ctx instanceof StrictChunkContext strict) {
            http10 = strict.version().headersRead();
            prologue = strict.version().prologue();
            checked = strict.host();
        } else {
            checked = new CheckedHost();
        }
        if (prologue != null && prologue.uriPath().path() == null) {
            // A target in authority form (GET host:80), meant for CONNECT: Helidon gives it no path, and every
            // filter that read it failed, a 500 with a stack trace for anyone (an outside test). Herald has none.
            throw RequestException.builder()
                    .type(DirectHandler.EventType.BAD_REQUEST)
                    .status(Status.BAD_REQUEST_400)
                    .request(DirectTransportRequest.create(http10 ? JsonDirectHandler.HTTP_1_0 : "HTTP/1.1",
                                                          prologue.method().text(), ""))
                    .setKeepAlive(false)
                    .message("A request target in authority form")
                    .build();
        }
        requireValidHost(prologue, writable, http10, checked);
        if (hasNamelessHeader(writable)) {
            // A field name is a token of at least one character (RFC 9110, 5.1): a proxy in front may read such a
            // line as part of another, or drop it, where Herald would read the rest; no client means it.
            throw badRequest(prologue, writable, "A header line has no name before its colon");
        }
        if (http10) {
            asHttp10(prologue, writable);
        } else {
            writable.remove(HTTP_1_0);
        }
    }

    /** Whether the request has a line {@code ": value"}: {@link JsonDirectHandler} says so when it refuses it. */
    static boolean hasNamelessHeader(Headers headers) {
        return headers.contains(NAMELESS);
    }

    /**
     * Whether the request came as HTTP/1.0: its answer must carry a {@code Content-Length} (RFC 9112 §6.1 forbids
     * chunking it), which an answer written as it streams does not know beforehand ({@code ExportService}).
     */
    public static boolean isHttp10(ServerRequest request) {
        return request.headers().contains(HTTP_1_0);
    }

    private static void asHttp10(HttpPrologue prologue, WritableHeaders<?> headers) {
        if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
            // The version tells JsonDirectHandler that the framing is at fault (INVALID_BODY).
            throw RequestException.builder()
                    .type(DirectHandler.EventType.BAD_REQUEST)
                    .status(Status.BAD_REQUEST_400)
                    .request(DirectTransportRequest.create(JsonDirectHandler.HTTP_1_0, prologue.method().text(),
                                                          prologue.uriPath().rawPath()))
                    .setKeepAlive(false)
                    .message("Transfer-Encoding in an HTTP/1.0 request")
                    .build();
        }
        if (!asksToKeepAlive(headers)) {
            headers.set(HeaderValues.CONNECTION_CLOSE);
        }
        headers.remove(HeaderNames.EXPECT);
        // Helidon sees every request as 1.1 (RequestVersion): the request says so to the handlers that must know.
        headers.set(HTTP_1_0_MARK);
    }

    /** ApacheBench's {@code -k} sends {@code Keep-Alive}: tokens are case-insensitive (RFC 9110 §7.6.1). */
    private static boolean asksToKeepAlive(Headers headers) {
        if (!headers.contains(HeaderNames.CONNECTION)) {
            return false;
        }
        for (String value : headers.get(HeaderNames.CONNECTION).allValues()) {
            for (String token : value.split(",")) {
                if (token.strip().equalsIgnoreCase("keep-alive")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Helidon's own check (4.5.0, {@code Http1Connection.validateHostHeader}), but a 1.0 request may go without. */
    private static void requireValidHost(HttpPrologue prologue, WritableHeaders<?> headers, boolean http10,
                                         CheckedHost checked) {
        List<String> hosts = headers.all(HeaderNames.HOST, List::of);
        if (hosts.isEmpty()) {
            if (http10) {
                return;
            }
            throw badRequest(prologue, headers, "Host header must be present in the request");
        }
        if (hosts.size() > 1) {
            throw badRequest(prologue, headers, "Only a single Host header is allowed in request");
        }
        String host = hosts.getFirst();
        if (checked.passed(host)) {
            return;
        }
        if (host.isEmpty()) {
            throw badRequest(prologue, headers, "Host header must not be empty");
        }
        try {
            validateHostForm(host);
        } catch (IllegalArgumentException e) {
            throw badRequest(prologue, headers, "Invalid Host header: " + e.getMessage());
        }
        checked.pass(host);
    }

    private static void validateHostForm(String host) {
        int startLiteral = host.indexOf('[');
        int endLiteral = host.lastIndexOf(']');
        if (startLiteral == 0 && (endLiteral == host.length() - 1 || endLiteral == -1)) {
            UriValidator.validateIpLiteral(host);
            return;
        }
        int colon = host.lastIndexOf(':');
        if (colon == -1) {
            UriValidator.validateNonIpLiteral(host);
            return;
        }
        requirePort(host.substring(colon + 1));
        String name = host.substring(0, colon);
        if (startLiteral == 0 && endLiteral == name.length() - 1) {
            UriValidator.validateIpLiteral(name);
            return;
        }
        UriValidator.validateNonIpLiteral(name);
    }

    /**
     * RFC 3986 §3.2.3: digits only. Helidon's {@code Integer.parseInt} let a sign, a number past 65535 and any run of
     * leading zeros through (found by the outside review of issue 33).
     */
    private static void requirePort(String port) {
        if (port.isEmpty() || port.length() > 5) {
            throw new IllegalArgumentException("its port is not a number from 0 to 65535");
        }
        int value = 0;
        for (int i = 0; i < port.length(); i++) {
            char c = port.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("its port is not a number from 0 to 65535");
            }
            value = value * 10 + (c - '0');
        }
        if (value > 65535) {
            throw new IllegalArgumentException("its port is not a number from 0 to 65535");
        }
    }

    private static RequestException badRequest(HttpPrologue prologue, WritableHeaders<?> headers, String message) {
        RequestException.Builder refusal = RequestException.builder()
                .type(DirectHandler.EventType.BAD_REQUEST)
                .status(Status.BAD_REQUEST_400)
                .setKeepAlive(false)
                .message(message);
        if (prologue != null) {
            refusal.request(DirectTransportRequest.create(prologue, headers));
        }
        return refusal.build();
    }
}
