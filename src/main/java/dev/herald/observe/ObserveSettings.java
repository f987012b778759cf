package dev.herald.observe;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;
import io.helidon.webserver.ListenerConfig;

/**
 * The {@code observe} configuration: where health, metrics and the OpenAPI document are served, and what clients may
 * hold of that listener. They have a listener of their own, on the loopback interface by default, so that no
 * spelling of a path on the public port ({@code /;x/observe}, {@code /%6fbserve}, {@code //observe}) can reach them,
 * whatever a proxy in front filters. Its callers are probes and scrapers, a few short requests at a time: its limits
 * are the public listener's, scaled to them, so that no client of this port can exhaust the heap (3,000 connections
 * holding partial headers did, with no limit, docs/security.md).
 *
 * @param connections open connections on this listener; past it new ones wait in the kernel's queue
 * @param perClient   open connections from one client; one more is answered 429 and closed
 * @param readTimeout a connection is closed once one request has taken this long, or once idle this long
 * @param drainPeriod how long a stopping instance still serves, readiness DOWN ({@link Draining}); 0: it stops at once
 */
public record ObserveSettings(String host, int port, int connections, int perClient, Duration readTimeout,
                              Duration drainPeriod) {

    /** The name of the listener, for Helidon and for tests that address it. */
    public static final String SOCKET = "observe";
    /** GET and HEAD only are served here: a request body of more is refused (413) before it is read. */
    static final long MAX_BODY_BYTES = 1024;
    /** Longer than any balancer's checks need, short of what a service manager waits before it kills. */
    private static final Duration MAX_DRAIN_PERIOD = Duration.ofMinutes(5);

    public ObserveSettings {
        if (host.isBlank()) {
            throw new IllegalArgumentException("observe.host must not be empty");
        }
        if (connections < 1 || perClient < 1 || perClient > connections) {
            throw new IllegalArgumentException("observe.connections (" + connections + ") and "
                    + "observe.connections-per-client (" + perClient + ") must be at least 1, the second at most the first");
        }
        if (readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("observe.read-timeout must be positive, not " + readTimeout);
        }
        if (drainPeriod.isNegative() || drainPeriod.compareTo(MAX_DRAIN_PERIOD) > 0) {
            throw new IllegalArgumentException("observe.drain-period must be from PT0S to " + MAX_DRAIN_PERIOD + ", not "
                                               + drainPeriod);
        }
    }

    public static ObserveSettings from(Config config) {
        return new ObserveSettings(ConfigValues.string(config.get("host")).orElse("127.0.0.1"),
                                   ConfigValues.port(config.get("port"), 8081),
                                   ConfigValues.integer(config.get("connections"), 64),
                                   ConfigValues.integer(config.get("connections-per-client"), 16),
                                   ConfigValues.duration(config.get("read-timeout"), Duration.ofSeconds(5)),
                                   ConfigValues.duration(config.get("drain-period"), Duration.ZERO));
    }

    /** The listener's address and limits; its connection selector is set where the public one's is (Main). */
    public void applyTo(ListenerConfig.BuilderBase<?, ?> listener) {
        listener.host(host)
                .port(port)
                .maxTcpConnections(connections)
                .maxPayloadSize(MAX_BODY_BYTES);
    }
}
