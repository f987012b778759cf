package dev.herald.webhook;

import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closes the socket at the attempt's deadline: a receiver that reads nothing would hold a write for ever (a
 * socket time-out bounds reads only), and one that trickles its answer would restart every read's time-out.
 */
final class SocketDeadline {

    private final AtomicBoolean fired = new AtomicBoolean();
    private Thread thread;

    /** Closes {@code socket} in {@code nanos}, on a virtual thread of its own, unless cancelled first. */
    static SocketDeadline at(Socket socket, long nanos) {
        SocketDeadline deadline = new SocketDeadline();
        deadline.thread = Thread.ofVirtual().name("herald-webhook-deadline").start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
                deadline.fired.set(true);
                HttpWebhookTransport.closeQuietly(socket);
            } catch (InterruptedException cancelled) {
                // the attempt ended in time
            }
        });
        return deadline;
    }

    /** The attempt ended: the socket is left as it is. */
    void cancel() {
        thread.interrupt();
    }

    /** Whether the deadline closed the socket: what failed then is the time-out, whatever the exception says. */
    boolean fired() {
        return fired.get();
    }
}
