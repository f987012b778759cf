package dev.herald.ratelimit;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.helidon.common.socket.PeerInfo;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * Who a request comes from (docs/api.md#rate-limit): the TCP peer, unless the peer is a trusted proxy; then the
 * right-most {@code X-Forwarded-For} address that is not itself a trusted proxy. A header from anyone else is
 * ignored, so it cannot be forged to dodge the limit. IPv6 clients are known by their network
 * ({@code rate-limit.ipv6-prefix}). The rate limit and the admin sign-in throttle count the same clients.
 *
 * <p>One instance serves the whole server (the connection selectors, the rate limits, the admin throttle, the
 * tracking writer), so that a reload of the configuration ({@link #reconfigure}) changes who is trusted everywhere
 * at once.
 */
public final class ClientAddresses {

    private static final System.Logger LOGGER = System.getLogger(ClientAddresses.class.getName());
    private static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");

    /** What a reload may change, in one object: read once per request, so no request sees half of a change. */
    private record Trust(List<IpRange> trustedProxies, Ipv6Prefix ipv6Prefix) {
    }

    private volatile Trust trust;

    public ClientAddresses(RateLimitSettings settings) {
        this.trust = trustOf(settings);
    }

    /** The trusted proxies and IPv6 prefix of a configuration reloaded while Herald runs, for requests from now on. */
    public void reconfigure(RateLimitSettings settings) {
        trust = trustOf(settings);
    }

    /** Warns of a trusted range that holds most of the Internet (0.0.0.0/0 pasted from an example): allowed, as said. */
    private static Trust trustOf(RateLimitSettings settings) {
        for (IpRange range : settings.trustedProxies()) {
            if (range.isWiderThanANetwork()) {
                LOGGER.log(Level.WARNING, "rate-limit.trusted-proxies holds " + range + ", wider than any network of "
                        + "proxies: a client in it may name any address in X-Forwarded-For, and so escape the rate "
                        + "limit and the per-client connection limit; list your proxies' own addresses instead");
            }
        }
        return new Trust(settings.trustedProxies(), settings.ipv6Prefix());
    }

    /**
     * The client's key: its IPv4 {@link InetAddress}, its IPv6 network, or, for a peer without an IP address, the
     * peer's own name. Equal keys are one client. An IPv4 peer's key is the socket's own object, so nothing is
     * formatted, parsed or copied for a request that does not come through a trusted proxy.
     */
    public Object clientOf(ServerRequest request) {
        PeerInfo peer = request.remotePeer();
        InetAddress address = peerAddress(peer);
        if (address == null) {
            return peer.host();
        }
        Trust trust = this.trust;
        return trust.ipv6Prefix().clientOf(forwardedOrPeer(trust, address, request));
    }

    /** The client's address as {@link #clientOf} finds it, before an IPv6 one is taken as its network: for a log. */
    public String addressOf(ServerRequest request) {
        PeerInfo peer = request.remotePeer();
        InetAddress address = peerAddress(peer);
        if (address == null) {
            return peer.host();
        }
        return forwardedOrPeer(this.trust, address, request).getHostAddress();
    }

    /** The client a trusted proxy forwards, else the peer itself. */
    private static InetAddress forwardedOrPeer(Trust trust, InetAddress peer, ServerRequest request) {
        if (!isTrusted(trust, peer) || !request.headers().contains(X_FORWARDED_FOR)) {
            return peer;
        }
        return forwardedClient(trust, request).orElse(peer);
    }

    /**
     * The key a TCP connection from {@code peer} counts under, or empty for a trusted proxy: its connections carry
     * many clients, whom only their requests' X-Forwarded-For tells apart.
     */
    public Optional<Object> connectionClientOf(InetAddress peer) {
        Trust trust = this.trust;
        return isTrusted(trust, peer) ? Optional.empty() : Optional.of(trust.ipv6Prefix().clientOf(peer));
    }

    /** The peer as a client, trusted proxy or not: its address, or its IPv6 network as the rate limit groups them. */
    public Object peerOf(InetAddress peer) {
        return trust.ipv6Prefix().clientOf(peer);
    }

    /** A key of {@link #clientOf} as a log line shows it: {@code 192.0.2.1}, {@code 2001:db8:1:2:0:0:0:0/64}. */
    public static String describe(Object client) {
        return client instanceof InetAddress address ? address.getHostAddress() : String.valueOf(client);
    }

    /**
     * Walks the chain from the right. Every hop was appended by the hop after it, so the first untrusted one is
     * the client as our own proxies saw it; what stands left of it is the client's word and is not believed.
     * When every hop is trusted, the left-most is the origin. Garbage where an address should be ends the walk:
     * the proxy is then counted as the client.
     */
    private static Optional<InetAddress> forwardedClient(Trust trust, ServerRequest request) {
        List<String> hops = new ArrayList<>();
        for (String value : request.headers().get(X_FORWARDED_FOR).allValues()) {
            hops.addAll(List.of(value.split(",")));
        }
        InetAddress leftMostTrusted = null;
        for (int i = hops.size() - 1; i >= 0; i--) {
            Optional<InetAddress> hop = IpAddresses.parse(hops.get(i));
            if (hop.isEmpty()) {
                return Optional.empty();
            }
            if (!isTrusted(trust, hop.get())) {
                return hop;
            }
            leftMostTrusted = hop.get();
        }
        return Optional.ofNullable(leftMostTrusted);
    }

    private static boolean isTrusted(Trust trust, InetAddress address) {
        for (IpRange range : trust.trustedProxies()) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** The TCP peer, or null; an unresolved socket address (as in-process test clients give) is read as a literal. */
    private static InetAddress peerAddress(PeerInfo peer) {
        if (peer.address() instanceof InetSocketAddress socket && socket.getAddress() != null) {
            return socket.getAddress();
        }
        return IpAddresses.parse(peer.host()).orElse(null);
    }
}
