package dev.herald.ratelimit;

import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import dev.herald.logging.LogThrottle;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * A listener's connections, as Helidon (4.1.7 to 4.5.0) does not bound them (the limits named here are the public
 * listener's; the operations listener has its own, {@code observe.*}):
 * <ul>
 * <li>At most {@code limits.connections-per-client} open at once from one client (an IPv4 address, an IPv6 network
 *     as the rate limit groups them; a trusted proxy is not limited): one address could otherwise take every
 *     connection the listener allows ({@code limits.connections}). One over the limit is answered 429 and closed
 *     at once, before it sends anything.</li>
 * <li>A connection is closed once one request has taken {@code limits.read-timeout} (from its request line, or
 *     from the connection's start, to its answer) or once it has been idle that long between two requests. Helidon
 *     applies no read time-out to the sockets it accepts, and its own idle check neither sees a connection before
 *     its first bytes nor interrupts one inside its headers: a client could hold a connection for ever with a byte
 *     a minute. The clock is Helidon's idle time, which restarts at each request line and each answer, not at each
 *     byte: a request slower than the limit in total is cut however steadily it sends (or, for an answer as large
 *     as a feed may be, 1 MiB, however steadily it reads).</li>
 * <li>A trusted proxy's connection may stay idle between two requests for {@code limits.proxy-idle-timeout}
 *     instead: a proxy keeps idle connections to reuse them, and whichever side closes one while the other sends on
 *     it loses that request (nginx answers a POST 502 and does not retry it). The proxy must be the one to close,
 *     so Herald waits longer than proxies do. Inside a request the read time-out holds for it as for anyone.</li>
 * </ul>
 * It is the listener's only connection selector (Helidon's discovered ones are turned off), so it sees each
 * connection as it is accepted, without waiting for bytes to tell the protocol: every connection is HTTP/1.1.
 */
public final class ConnectionsPerClient implements ServerConnectionSelector {

    private static final System.Logger LOGGER = System.getLogger(ConnectionsPerClient.class.getName());
    private static final Duration LOG_INTERVAL = Duration.ofMinutes(1);
    private static final byte[] REFUSAL = refusal();

    /** One thread for every instance a JVM makes (the tests make many servers): none is ever stopped. */
    private static final ScheduledExecutorService SWEEPER = Executors.newSingleThreadScheduledExecutor(
            task -> Thread.ofPlatform().daemon().name("herald-connection-sweeper").unstarted(task));

    private final ServerConnectionSelector http1;
    private final UnaryOperator<ConnectionContext> contexts;
    private final ClientAddresses clients;
    private final int limit;
    private final String setting;
    private final Duration readTimeout;
    private final Duration proxyIdleTimeout;
    private final boolean proxiesExempt;
    private final Set<Timed> timed = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<Object, Integer> open = new ConcurrentHashMap<>();
    private final LogThrottle refusals;
    private volatile Object lastRefused;

    /**
     * The public listener's: a trusted proxy carries many clients, so it is not limited, and may keep idle
     * connections for {@code proxyIdleTimeout}.
     *
     * @param contexts the context each admitted connection reads and writes through, made from Helidon's
     * @param http1    Helidon's HTTP/1.1 settings for the connections
     * @param setting  the setting of the limit, for the log ({@code limits.connections-per-client})
     * @param proxyIdleTimeout how long a trusted proxy's connection may wait for its next request
     */
    public static ConnectionsPerClient proxiesExempt(UnaryOperator<ConnectionContext> contexts, Http1Config http1,
                                                     ClientAddresses clients, int limit, String setting,
                                                     Duration readTimeout, Duration proxyIdleTimeout) {
        return new ConnectionsPerClient(contexts, http1, clients, limit, setting, readTimeout, proxyIdleTimeout, true,
                                        LOG_INTERVAL);
    }

    /**
     * The operations listener's: probes and scrapers, each its own client, a trusted proxy's address too (an
     * operator's trial found 40 connections from a trusted address all served where 16 were the bound).
     */
    public static ConnectionsPerClient everyPeerLimited(UnaryOperator<ConnectionContext> contexts, Http1Config http1,
                                                        ClientAddresses clients, int limit, String setting,
                                                        Duration readTimeout) {
        return new ConnectionsPerClient(contexts, http1, clients, limit, setting, readTimeout, readTimeout, false,
                                        LOG_INTERVAL);
    }

    /** @param logInterval the least time between two lines about refused connections (a minute but in tests) */
    ConnectionsPerClient(UnaryOperator<ConnectionContext> contexts, Http1Config http1, ClientAddresses clients,
                         int limit, String setting, Duration readTimeout, Duration proxyIdleTimeout,
                         boolean proxiesExempt, Duration logInterval) {
        if (limit < 1) {
            throw new IllegalArgumentException(setting + " must be at least 1, not " + limit);
        }
        this.http1 = Http1ConnectionSelector.builder().config(http1).build();
        this.contexts = contexts;
        this.clients = clients;
        this.limit = limit;
        this.setting = setting;
        this.readTimeout = readTimeout;
        this.proxyIdleTimeout = proxyIdleTimeout.compareTo(readTimeout) > 0 ? proxyIdleTimeout : readTimeout;
        this.proxiesExempt = proxiesExempt;
        this.refusals = new LogThrottle(logInterval);
        Sweep.schedule(this);
    }

    /** Nothing to wait for: every connection is taken (see {@link #supports}). */
    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    /**
     * Every connection is HTTP/1.1's, whatever its first line says. Helidon's own selector (4.1.7 to 4.5.0) refuses a
     * request line that does not end in {@code HTTP/1.1}, and Helidon then closes the connection without a word
     * whenever another selector is listed too (as the test server lists this one twice): handed to the HTTP/1.1
     * connection, an {@code HTTP/1.0} request is served (the connection's context and settings see to it, as
     * {@code dev.herald.wire.HttpVersions} says) and any other version is answered 400, with Herald's JSON body.
     */
    @Override
    public Support supports(BufferData data) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        Optional<Object> client = ctx.remotePeer().address() instanceof InetSocketAddress socket
                                  && socket.getAddress() != null
                ? proxiesExempt ? clients.connectionClientOf(socket.getAddress())
                                : Optional.of(clients.peerOf(socket.getAddress()))
                : Optional.empty();
        if (client.isEmpty()) {
            return timed(http1.connection(contexts.apply(ctx)), proxyIdleTimeout, () -> { });
        }
        Object key = client.get();
        if (open.merge(key, 1, Integer::sum) > limit) {
            release(key);
            refused(key);
            return new Refused(ctx);
        }
        try {
            return timed(http1.connection(contexts.apply(ctx)), readTimeout, () -> release(key));
        } catch (RuntimeException e) {
            release(key);
            throw e;
        }
    }

    private ServerConnection timed(ServerConnection connection, Duration idleTimeout, Runnable release) {
        Timed watched = new Timed(connection, idleTimeout, release);
        timed.add(watched);
        return watched;
    }

    /**
     * Closes connections whose idle time (Helidon's: since the last request line or answer) passed the read
     * time-out, or, waiting for a next request (Helidon may interrupt a connection only then), their idle time-out.
     * A handler's own work is bounded well below the read time-out (every wait on the database is), so what is cut
     * is a client too slow or silent.
     */
    private void sweep() {
        for (Timed connection : timed) {
            Duration limit = connection.canInterrupt() ? connection.idleTimeout : readTimeout;
            if (connection.idleTime().compareTo(limit) > 0) {
                // Interrupting its thread closes the socket the thread is blocked on.
                connection.delegate.close(true);
            }
        }
    }

    /** Sweeps an instance every second while it is in use; once it is garbage, the task ends itself. */
    private static final class Sweep implements Runnable {

        private final WeakReference<ConnectionsPerClient> owner;
        private volatile ScheduledFuture<?> future;

        private Sweep(ConnectionsPerClient owner) {
            this.owner = new WeakReference<>(owner);
        }

        static void schedule(ConnectionsPerClient owner) {
            Sweep sweep = new Sweep(owner);
            sweep.future = SWEEPER.scheduleWithFixedDelay(sweep, 1, 1, TimeUnit.SECONDS);
        }

        @Override
        public void run() {
            ConnectionsPerClient connections = owner.get();
            if (connections == null) {
                future.cancel(false);
                return;
            }
            try {
                connections.sweep();
                connections.logRefusals(connections.refusals.due());
            } catch (RuntimeException e) {
                // A failed sweep must not end the schedule: the next one tries again.
                LOGGER.log(System.Logger.Level.WARNING, "Sweeping connections failed: " + e);
            }
        }
    }

    private void release(Object key) {
        open.merge(key, -1, (count, minusOne) -> count + minusOne == 0 ? null : count + minusOne);
    }

    private void refused(Object client) {
        lastRefused = client;
        logRefusals(refusals.add(1));
    }

    /**
     * One line a minute at most (LogThrottle): the first of a flood at once, on the refusal, and the count of the
     * rest a minute later, from the sweep, even if no refusal follows.
     */
    private void logRefusals(long count) {
        if (count > 0) {
            LOGGER.log(System.Logger.Level.WARNING, count + " connection(s) refused in the last minute, over "
                    + setting + " (" + limit + "); the last from "
                    + ClientAddresses.describe(lastRefused));
        }
    }

    private static byte[] refusal() {
        String body = "{\"error\":\"Too many connections from this address\",\"code\":\"TOO_MANY_CONNECTIONS\"}";
        return ("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                + "\r\nRetry-After: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" + body)
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** Answers and ends: the request is not read, the connection closes when this returns. */
    private record Refused(ConnectionContext ctx) implements ServerConnection {

        @Override
        public void handle(Limit limit) {
            ctx.dataWriter().writeNow(BufferData.create(REFUSAL));
        }

        @Override
        public Duration idleTime() {
            return Duration.ZERO;
        }

        @Override
        public void close(boolean interrupt) {
        }
    }

    /**
     * Helidon's connection, watched for silence and counted until it ends, however it ends. An interruptable task
     * as Helidon's own is: on stop, Helidon interrupts only connections that say they may be (an idle keep-alive
     * one), and would otherwise wait its whole grace period for them.
     */
    private final class Timed implements ServerConnection, InterruptableTask<Void> {

        private final ServerConnection delegate;
        private final Duration idleTimeout;
        private final Runnable release;

        private Timed(ServerConnection delegate, Duration idleTimeout, Runnable release) {
            this.delegate = delegate;
            this.idleTimeout = idleTimeout;
            this.release = release;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            try {
                delegate.handle(limit);
            } finally {
                timed.remove(this);
                release.run();
            }
        }

        @Override
        public Duration idleTime() {
            return delegate.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            delegate.close(interrupt);
        }

        @Override
        public boolean canInterrupt() {
            return delegate instanceof InterruptableTask<?> task && task.canInterrupt();
        }

        /** Never called: Helidon runs a connection through {@link #handle(Limit)}. */
        @Override
        public Void call() {
            throw new UnsupportedOperationException("a connection is run through handle(Limit)");
        }
    }
}
