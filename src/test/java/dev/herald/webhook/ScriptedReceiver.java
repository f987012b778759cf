package dev.herald.webhook;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver on a real loopback socket that answers as a test scripts it (well, badly, not at all), and
 * writes down every connection and every request it read whole.
 */
final class ScriptedReceiver implements AutoCloseable {

    /** What the receiver does with one connection once it has read the request (null when it read none). */
    @FunctionalInterface
    interface Script {
        void answer(Socket socket, Request request) throws IOException, InterruptedException;
    }

    /** A request as it arrived: the request line, the headers by lower-case name, the body. */
    record Request(String line, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final ServerSocket server;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private ScriptedReceiver(ServerSocket server, Script script) {
        this.server = server;
        this.script = script;
        Thread.ofPlatform().daemon().name("scripted-receiver-" + server.getLocalPort()).start(this::accept);
    }

    /** On 127.0.0.1, a port of its own. */
    static ScriptedReceiver start(Script script) {
        return on(InetAddress.getLoopbackAddress(), 0, script);
    }

    /** On a server socket the test made (a TLS one, say), bound already. */
    static ScriptedReceiver listening(ServerSocket server, Script script) {
        return new ScriptedReceiver(server, script);
    }

    static ScriptedReceiver on(InetAddress address, int port, Script script) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(address, port), 50);
            return new ScriptedReceiver(server, script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers every request with these bytes and closes. */
    static Script answering(String answer) {
        return (socket, request) -> {
            socket.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
        };
    }

    int port() {
        return server.getLocalPort();
    }

    URI url(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                open.add(socket);
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            Request request = read(socket.getInputStream());
            if (request != null) {
                requests.add(request);
            }
            script.answer(socket, request);
        } catch (IOException | InterruptedException gone) {
            // the client went away, or the test ended
        }
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Request(lines[0], headers, body);
    }
}
