package dev.herald.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Raw connections from chosen loopback addresses (127.x.y.z are all this host's): each address is another client to
 * the per-client limits.
 */
public final class LoopbackSockets {

    private LoopbackSockets() {
    }

    /** A connection from {@code from} to the port, reads timing out after 5 s. */
    public static Socket connect(String from, int port) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    /** Everything the server sends until it closes; the socket is closed after. */
    public static String readAll(Socket socket) throws IOException {
        try (socket) {
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** Reads until the server closes; true if it did before the socket's time-out. */
    public static boolean drain(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // whatever it answers, then the close
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
