package dev.herald.observe;

/**
 * An instance that is stopping but still serves, for {@code observe.drain-period} after SIGTERM: readiness says DOWN,
 * so that a balancer with active checks takes the instance out, and every answer closes its connection, so that a
 * proxy keeping connections to it opens its next ones elsewhere. Stopped without it, an instance closed the
 * connections a proxy held to it while requests were on their way: nginx answered those 502 (5 of 6,000 clicks in a
 * rolling upgrade, docs/scale-out.md).
 */
public final class Draining {

    private volatile boolean draining;

    public void begin() {
        draining = true;
    }

    public boolean isDraining() {
        return draining;
    }
}
