package dev.herald.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay on loopback in front of a real server, to take the server away and give it back. When down, the
 * relay cuts every open connection and swallows new ones without a word: the worst kind of outage, where
 * nothing is refused and only time-outs can tell.
 */
public final class TcpRelay implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private volatile boolean up = true;

    public TcpRelay(String targetHost, int targetPort) {
        this.target = new InetSocketAddress(targetHost, targetPort);
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        threads.submit(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public void down() {
        up = false;
        closeAll();
    }

    public void up() {
        closeAll();
        up = true;
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        closeAll();
        threads.shutdownNow();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (up) {
                    Socket server = new Socket();
                    server.connect(target, 2000);
                    sockets.add(server);
                    pipe(client, server);
                    pipe(server, client);
                }
            } catch (IOException e) {
                // the listener closed, or the target refused: the client sees its connection dropped
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        threads.submit(() -> {
            try {
                from.getInputStream().transferTo(to.getOutputStream());
            } catch (IOException ignored) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private void closeAll() {
        sockets.forEach(TcpRelay::closeQuietly);
        sockets.clear();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
