package dev.herald.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One persistent HTTP/1.1 connection that reads each answer byte by byte to its exact end, and fails on anything
 * that is not a well-formed answer. Concurrency tests use one per thread: they check the server's framing on a
 * reused connection, where a shared client's connection pool would be a second system under test (Helidon 4.1.7's
 * client, shared by 32 threads, once read an answer that began "TTP").
 */
public final class KeepAliveConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    public KeepAliveConnection(URI server) throws IOException {
        this(server, null);
    }

    /** @param from the local address to connect from (a loopback one stands for a client, or a proxy), or null */
    public KeepAliveConnection(URI server, InetAddress from) throws IOException {
        socket = new Socket(InetAddress.getByName(server.getHost()), server.getPort(), from, 0);
        socket.setSoTimeout(10_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    /** Sends a POST with a JSON body and reads its whole answer. */
    public RawHttp.Response postJson(String path, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: herald\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return readAnswer();
    }

    private RawHttp.Response readAnswer() throws IOException {
        String statusLine = readLine();
        if (!statusLine.startsWith("HTTP/1.1 ")) {
            throw new IOException("not an HTTP/1.1 status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        if (headers.containsKey("transfer-encoding")) {
            throw new IOException("chunked answers are not read here: " + headers);
        }
        int length = status == 204 || status == 304 ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            throw new IOException("connection closed inside a body of " + length + " bytes");
        }
        return new RawHttp.Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("connection closed after: " + line.toString(StandardCharsets.ISO_8859_1));
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(next);
            previous = next;
        }
    }

    /** Whether the server closes the connection within {@code wait}, sending nothing more. */
    public boolean closedByServer(Duration wait) throws IOException {
        socket.setSoTimeout((int) wait.toMillis());
        try {
            int next = in.read();
            if (next >= 0) {
                throw new IOException("the server sent more after the answer: " + (char) next);
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
