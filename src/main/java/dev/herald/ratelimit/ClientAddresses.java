package dev.herald.ratelimit;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * Who a request comes from (decisions §1, rate limit): the TCP peer, unless the peer is a trusted proxy; then the
 * right-most {@code X-Forwarded-For} address that is not itself a trusted proxy. A header from anyone else is
 * ignored, so it cannot be forged to dodge the limit.
 */
final class ClientAddresses {

    private static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");

    private final List<IpRange> trustedProxies;

    ClientAddresses(List<IpRange> trustedProxies) {
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    String clientOf(ServerRequest request) {
        Optional<InetAddress> peer = peerAddress(request);
        if (peer.isEmpty()) {
            return request.remotePeer().host();
        }
        if (!isTrusted(peer.get()) || !request.headers().contains(X_FORWARDED_FOR)) {
            return peer.get().getHostAddress();
        }
        return forwardedClient(request).orElse(peer.get()).getHostAddress();
    }

    /**
     * Walks the chain from the right. Every hop was appended by the hop after it, so the first untrusted one is
     * the client as our own proxies saw it; what stands left of it is the client's word and is not believed.
     * When every hop is trusted, the left-most is the origin. Garbage where an address should be ends the walk:
     * the proxy is then counted as the client.
     */
    private Optional<InetAddress> forwardedClient(ServerRequest request) {
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
            if (!isTrusted(hop.get())) {
                return hop;
            }
            leftMostTrusted = hop.get();
        }
        return Optional.ofNullable(leftMostTrusted);
    }

    private boolean isTrusted(InetAddress address) {
        return trustedProxies.stream().anyMatch(range -> range.contains(address));
    }

    /** The TCP peer; an unresolved socket address (as in-process test clients give) is read as a literal. */
    private static Optional<InetAddress> peerAddress(ServerRequest request) {
        if (request.remotePeer().address() instanceof InetSocketAddress socket && socket.getAddress() != null) {
            return Optional.of(socket.getAddress());
        }
        return IpAddresses.parse(request.remotePeer().host());
    }
}
