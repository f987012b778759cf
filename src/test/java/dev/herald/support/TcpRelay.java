package dev.herald.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP relay on loopback in front of a real server, to take the server away and give it back. When down, the
 * relay cuts every open connection and swallows new ones without a word: the worst kind of outage, where
 * nothing is refused and only time-outs can tell.
 *
 * <p>In front of MariaDB it also cuts one connection at its commit, as a database node that dies or is cut off would
 * ({@link #cutAtCommit}): it watches what the clients send for {@code COMMIT} (the text protocol, as the MariaDB
 * driver sends a statement it prepares on the client).
 */
public final class TcpRelay implements AutoCloseable {

    private static final byte[] COMMIT = "COMMIT".getBytes(StandardCharsets.US_ASCII);

    /** Where the connection that commits is cut. */
    public enum Cut {
        /** Before the commit reaches the server: not committed. */
        BEFORE_COMMIT,
        /** After the server committed, before its answer reaches the client: committed, and the client cannot know. */
        AFTER_COMMIT
    }

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicReference<Arm> armed = new AtomicReference<>();
    private final AtomicInteger cuts = new AtomicInteger();
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

    /** The next connection that sends COMMIT is cut, at {@code cut}; the others go on. Null: none is. */
    public void cutAtCommit(Cut cut) {
        armed.set(cut == null ? null : new Arm(COMMIT, cut));
    }

    /**
     * The next connection that sends a statement containing {@code text} is cut before the server gets it, as a
     * node that dies between two statements of a connection would.
     */
    public void cutBefore(String text) {
        armed.set(new Arm(text.getBytes(StandardCharsets.UTF_8), Cut.BEFORE_COMMIT));
    }

    /** Connections cut at their commit (or statement) so far. */
    public int cuts() {
        return cuts.get();
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
                    Pair pair = new Pair(client, server);
                    threads.submit(pair::clientToServer);
                    threads.submit(pair::serverToClient);
                }
            } catch (IOException e) {
                // the listener closed, or the target refused: the client sees its connection dropped
            }
        }
    }

    /** A client's connection and the relay's to the server for it. */
    private final class Pair {
        private final Socket client;
        private final Socket server;
        /** The server's next answer is the commit's: swallowed, and both connections closed. */
        private volatile boolean cutAtAnswer;

        private Pair(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        private void clientToServer() {
            try {
                InputStream in = client.getInputStream();
                OutputStream out = server.getOutputStream();
                byte[] buffer = new byte[65536];
                for (int read; (read = in.read(buffer)) >= 0; ) {
                    Arm arm = armed.get();
                    if (arm != null && contains(buffer, read, arm.marker()) && armed.compareAndSet(arm, null)) {
                        cuts.incrementAndGet();
                        if (arm.cut() == Cut.BEFORE_COMMIT) {
                            break;
                        }
                        cutAtAnswer = true;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException ignored) {
                // a side closed
            } finally {
                closeBoth();
            }
        }

        private void serverToClient() {
            try {
                InputStream in = server.getInputStream();
                OutputStream out = client.getOutputStream();
                byte[] buffer = new byte[65536];
                for (int read; (read = in.read(buffer)) >= 0 && !cutAtAnswer; ) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException ignored) {
                // a side closed
            } finally {
                closeBoth();
            }
        }

        private void closeBoth() {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** What the next connection to send {@code marker} gets. */
    private record Arm(byte[] marker, Cut cut) {
    }

    private static boolean contains(byte[] buffer, int length, byte[] text) {
        outer:
        for (int i = 0; i + text.length <= length; i++) {
            for (int j = 0; j < text.length; j++) {
                if (buffer[i + j] != text[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
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
