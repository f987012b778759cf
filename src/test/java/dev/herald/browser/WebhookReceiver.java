package dev.herald.browser;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook receiver on a real loopback socket, as a customer's would be: it answers every delivery with the status
 * the test sets, and keeps each request it read, to check what Herald sent and that it was signed with the secret the
 * console showed.
 */
final class WebhookReceiver implements AutoCloseable {

    /** A delivery as it arrived: headers by lower-case name, the body. */
    record Request(Map<String, String> headers, String body) {

        /** Whether {@code webhook-signature} holds a {@code v1} signature of this request made with the secret. */
        boolean signedWith(String secret) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())),
                                           "HmacSHA256"));
                byte[] signed = mac.doFinal((headers.get("webhook-id") + "." + headers.get("webhook-timestamp") + "."
                        + body).getBytes(StandardCharsets.UTF_8));
                String expected = "v1," + Base64.getEncoder().encodeToString(signed);
                return List.of(headers.getOrDefault("webhook-signature", "").split(" ")).contains(expected);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final ServerSocket server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile int status;

    private WebhookReceiver(ServerSocket server, int status) {
        this.server = server;
        this.status = status;
        Thread.ofPlatform().daemon().name("webhook-receiver-" + server.getLocalPort()).start(this::accept);
    }

    /** On 127.0.0.1, a port of its own, answering {@code status}. */
    static WebhookReceiver answering(int status) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            return new WebhookReceiver(server, status);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    void answer(int status) {
        this.status = status;
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(5_000);
                requests.add(read(socket.getInputStream()));
                socket.getOutputStream().write(("HTTP/1.1 " + status + " Answered\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                // Closed, or a request cut short: the next one is read afresh.
            }
        }
    }

    private static Request read(InputStream in) throws IOException {
        Map<String, String> headers = new HashMap<>();
        String line = line(in);
        while (!(line = line(in)).isEmpty()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Request(headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the request ended early");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
