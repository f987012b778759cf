package dev.herald.support;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends bytes exactly as written, for requests a well-behaved client refuses to make (no Content-Type, an empty
 * path segment, a body larger than announced), and reads the whole answer.
 */
public final class RawHttp {

    /** The longest silence an exchange waits for the next byte of an answer. */
    private static final Duration QUIET = Duration.ofSeconds(5);

    private RawHttp() {
    }

    /** Sends {@code head} (request line and headers, without the blank line) and {@code body}, then reads all. */
    public static Response exchange(URI server, String head, byte[] body) throws IOException {
        return exchange(server, InetAddress.getLoopbackAddress(), head, body);
    }

    /**
     * The same from a chosen local address: every 127.x.y.z is this machine on Linux, so a test can be any number
     * of distinct TCP peers.
     */
    public static Response exchange(URI server, InetAddress from, String head, byte[] body) throws IOException {
        return exchange(server, from, head, body, false, QUIET);
    }

    /**
     * The same, waiting up to {@code quiet} for each byte: for a test about bytes, not speed, whose many requests
     * at once may each wait their turn on a loaded machine.
     */
    public static Response exchange(URI server, InetAddress from, String head, byte[] body, Duration quiet)
            throws IOException {
        return exchange(server, from, head, body, false, quiet);
    }

    /**
     * The same, then half-closes: a server still waiting for the rest of a body sees it will never come. A server
     * that closes without answering throws {@link EOFException}.
     */
    public static Response exchangeAndHalfClose(URI server, String head, byte[] body) throws IOException {
        return exchange(server, InetAddress.getLoopbackAddress(), head, body, true, QUIET);
    }

    private static Response exchange(URI server, InetAddress from, String head, byte[] body, boolean halfClose,
                                     Duration quiet) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress(InetAddress.getByName(server.getHost()), server.getPort()), 10_000);
            socket.setSoTimeout((int) quiet.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            try {
                out.write(body);
                out.flush();
                if (halfClose) {
                    socket.shutdownOutput();
                }
            } catch (IOException e) {
                // The server may answer and close before reading an oversized body: its answer is what counts.
            }
            byte[] answer = readAll(socket.getInputStream());
            if (answer.length == 0) {
                throw new EOFException("The server closed the connection without an answer");
            }
            return parse(answer);
        }
    }

    public static Response exchange(URI server, String head) throws IOException {
        return exchange(server, head, new byte[0]);
    }

    /**
     * Sends {@code bytes} exactly as given (several pipelined requests, say) and reads until the server closes or
     * {@code quiet} passes without a byte.
     */
    public static Conversation converse(URI server, byte[] bytes, Duration quiet) throws IOException {
        try (Socket socket = new Socket(InetAddress.getByName(server.getHost()), server.getPort())) {
            socket.setSoTimeout((int) quiet.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                // The server may answer and close before reading all: its answers are what counts.
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            InputStream in = socket.getInputStream();
            try {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    all.write(buffer, 0, read);
                }
                return new Conversation(all.toString(StandardCharsets.ISO_8859_1), true);
            } catch (SocketTimeoutException e) {
                return new Conversation(all.toString(StandardCharsets.ISO_8859_1), false);
            } catch (IOException e) {
                // A reset after the answers: the server closed on unread bytes.
                return new Conversation(all.toString(StandardCharsets.ISO_8859_1), true);
            }
        }
    }

    /** Reads to the end: every request here says Connection: close, so the server must close (RFC 9112 §9.6). */
    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                all.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("The server kept the connection open after answering Connection: close", e);
        } catch (IOException e) {
            // A reset after the answer (the server closing on an unread body) still leaves the answer read.
            if (all.size() == 0) {
                throw e;
            }
        }
        return all.toByteArray();
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        int headEnd = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        return new Response(status, headers, text.substring(headEnd + 4));
    }

    /**
     * What came back on one connection.
     *
     * @param text            every byte the server sent, as ISO-8859-1
     * @param closedByServer  whether the server closed the connection (rather than the reader giving up)
     */
    public record Conversation(String text, boolean closedByServer) {

        /** How many answers the server sent: status lines at the start of the text or after an answer. */
        public int answers() {
            int count = 0;
            for (int at = text.indexOf("HTTP/1.1 "); at >= 0; at = text.indexOf("\r\nHTTP/1.1 ", at + 1)) {
                count++;
            }
            return count;
        }

        /** The first answer, its body cut at its Content-Length. */
        public Response first() {
            Response whole = parse(text.getBytes(StandardCharsets.ISO_8859_1));
            String length = whole.headers().get("content-length");
            String body = length == null ? whole.body() : whole.body().substring(0, Integer.parseInt(length));
            return new Response(whole.status(), whole.headers(), body);
        }
    }

    /**
     * @param headers names in lower case
     */
    public record Response(int status, Map<String, String> headers, String body) {
    }
}
