package dev.herald.webhook;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one attempt at a delivery came to.
 *
 * @param outcome    what the worker does next
 * @param status     the receiver's HTTP status, 0 when none was read (refused, unreachable, timed out)
 * @param latency    from the start of the attempt to its end
 * @param retryAfter the receiver's {@code Retry-After} (a 429 or 503), when it gave a usable one
 * @param detail     one short line for the console and the log: never a secret, never the receiver's whole body
 */
public record Attempt(Outcome outcome, int status, Duration latency, Optional<Duration> retryAfter, String detail) {

    public Attempt {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(retryAfter, "retryAfter");
        Objects.requireNonNull(detail, "detail");
    }

    public enum Outcome {
        /** A 2xx: the message is delivered. */
        DELIVERED,
        /** Anything else that may pass: another status, a time-out, a connection refused or cut. Tried again. */
        FAILED,
        /** 410 Gone: the receiver asks never to be called again; the endpoint is disabled. */
        GONE,
        /** The address is one Herald does not call (loopback, private, link-local, metadata...): nothing was sent. */
        REFUSED
    }
}
