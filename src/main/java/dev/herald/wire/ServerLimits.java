package dev.herald.wire;

import java.time.Duration;

import dev.herald.api.Bodies;
import dev.herald.config.ConfigValues;

import io.helidon.common.socket.SocketOptions;
import io.helidon.config.Config;
import io.helidon.webserver.ListenerConfig;

/**
 * The {@code limits} on what clients may hold of the server, whatever they do: connections in all and per client,
 * how long a connection may stay silent, and request bodies in memory. Each is derived from the launcher's heap
 * in docs/security.md, where their figures are measured.
 *
 * @param connections        open connections on the public listener; past it new ones wait in the kernel's queue
 * @param perClient          open connections from one client (an address, an IPv6 network; not a trusted proxy)
 * @param readTimeout        a connection is closed once one request has taken this long (from its request line to
 *                           its answer: a sender too slow, or silent) or once it has been idle this long between two
 * @param proxyIdleTimeout   how long a trusted proxy's connection may stay idle between two requests: longer than a
 *                           proxy keeps its idle upstream connections, so that the proxy closes them, never Herald
 * @param bodyBytesInFlight  request bodies held in memory at once, all requests together
 * @param adminReadsInFlight management API reads served at once, all callers together (each answer is bounded in
 *                           bytes; their number is bounded here)
 * @param sendBufferBytes    each connection's socket send buffer (SO_SNDBUF; Linux doubles it for its bookkeeping):
 *                           what a client that does not read can make the kernel hold for it
 */
public record ServerLimits(int connections, int perClient, Duration readTimeout, Duration proxyIdleTimeout,
                           long bodyBytesInFlight, int adminReadsInFlight, int sendBufferBytes) {

    /**
     * Above what common proxies keep an idle upstream connection by default (nginx's {@code keepalive_timeout} and
     * ingress-nginx's 60 s, Traefik's 90 s, Caddy's 2 min, an AWS load balancer's 60 s). Were Herald to close one
     * first, a request the proxy sends on it at that moment is lost: nginx answers a POST 502 without retrying it
     * (1 of 480 tracking requests through nginx, measured with a 2 s idle limit; docs/operations.md).
     */
    public static final Duration DEFAULT_PROXY_IDLE_TIMEOUT = Duration.ofMinutes(5);

    /**
     * 32 KiB, so 64 KiB of kernel memory a connection at most: 64 MiB for the default 1,000 connections, against
     * 1.35 MB each when Linux sizes the buffer itself (300 connections that never read a 1 MB feed held 405 MB,
     * docs/security.md). Answers up to 64 KiB, most feeds, go out in one write whatever the client's distance.
     */
    public static final int DEFAULT_SEND_BUFFER_BYTES = 32 * 1024;
    /** Below this Linux takes its own minimum anyway, and small writes would pay a wake-up each. */
    static final int MIN_SEND_BUFFER_BYTES = 4 * 1024;

    public ServerLimits {
        if (connections < 1 || perClient < 1 || perClient > connections) {
            throw new IllegalArgumentException("limits.connections (" + connections + ") and "
                    + "limits.connections-per-client (" + perClient + ") must be at least 1, the second at most the first");
        }
        if (readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("limits.read-timeout must be positive, not " + readTimeout);
        }
        if (proxyIdleTimeout.compareTo(readTimeout) < 0) {
            throw new IllegalArgumentException("limits.proxy-idle-timeout (" + proxyIdleTimeout
                                                       + ") must be at least limits.read-timeout (" + readTimeout + ")");
        }
        if (adminReadsInFlight < 1) {
            throw new IllegalArgumentException("limits.admin-reads-in-flight must be at least 1, not "
                                                       + adminReadsInFlight);
        }
        if (sendBufferBytes < MIN_SEND_BUFFER_BYTES) {
            throw new IllegalArgumentException("limits.send-buffer-bytes must be at least " + MIN_SEND_BUFFER_BYTES
                                                       + ", not " + sendBufferBytes);
        }
        if (bodyBytesInFlight < RequestBodies.MAX_ADMIN_BYTES) {
            throw new IllegalArgumentException("limits.body-bytes-in-flight must be at least "
                                                       + RequestBodies.MAX_ADMIN_BYTES
                                                       + " (one management API body), not " + bodyBytesInFlight);
        }
    }

    public static ServerLimits from(Config config) {
        return new ServerLimits(ConfigValues.integer(config.get("connections"), 1000),
                                ConfigValues.integer(config.get("connections-per-client"), 100),
                                ConfigValues.duration(config.get("read-timeout"), Duration.ofSeconds(20)),
                                ConfigValues.duration(config.get("proxy-idle-timeout"), DEFAULT_PROXY_IDLE_TIMEOUT),
                                ConfigValues.longInteger(config.get("body-bytes-in-flight"), 8L * 1024 * 1024),
                                ConfigValues.integer(config.get("admin-reads-in-flight"), 4),
                                ConfigValues.integer(config.get("send-buffer-bytes"), DEFAULT_SEND_BUFFER_BYTES));
    }

    /**
     * Sets the public listener's limits and sockets, keeping whatever else its socket options say. (Helidon applies no
     * read time-out to accepted sockets: {@code ConnectionsPerClient} closes silent connections.)
     */
    public void applyTo(ListenerConfig.BuilderBase<?, ?> listener) {
        listener.maxTcpConnections(connections);
        sockets(listener, sendBufferBytes);
    }

    /**
     * The sockets of either listener: a send buffer of a fixed size (see {@link #DEFAULT_SEND_BUFFER_BYTES}). TCP_NODELAY: the cached feed goes out as two writes (headers, then the shared
     * array, see {@link Bodies#sendShared}), and with Nagle's algorithm the second waits for the client's delayed ACK
     * of the first: 40 ms per answer, measured.
     *
     * <p>And the blocking socket, not the NIO channel Helidon 4.5.0 uses by default ({@code use-nio}): its channel
     * copies every answer through an 8 KiB buffer, one system call per 8 KiB, so a 39 KB feed answer took five
     * writes where the socket takes one, and the shared array was copied after all (docs/performance.md, run R).
     */
    public static void sockets(ListenerConfig.BuilderBase<?, ?> listener, int sendBufferBytes) {
        SocketOptions current = listener.connectionOptions().orElseGet(() -> SocketOptions.builder().build());
        listener.useNio(false)
                .connectionOptions(SocketOptions.builder().from(current).tcpNoDelay(true)
                                           .socketSendBufferSize(sendBufferBytes).build());
    }
}
