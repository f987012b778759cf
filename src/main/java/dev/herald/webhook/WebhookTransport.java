package dev.herald.webhook;

/**
 * Makes one attempt at handing a message to an endpoint over HTTP. The outbox's delivery worker decides what to send
 * and when (and what an outcome means for the endpoint); the transport only sends, signs and classifies, so that the
 * worker is tested against a real receiver and the transport against hostile ones, each on its own.
 * <p>
 * An implementation never throws for what the network or the receiver does: every failure is an {@link Attempt}.
 */
public interface WebhookTransport {

    Attempt deliver(Delivery delivery);
}
