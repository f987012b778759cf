package dev.herald.webhook;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One message on its way to one endpoint (Standard Webhooks: the {@code webhook-id}, {@code webhook-timestamp} and
 * the body are what is signed).
 *
 * @param url       the endpoint's address, as its owner configured it (checked again at each attempt: a name may
 *                  resolve elsewhere tomorrow)
 * @param messageId the {@code webhook-id}: the same at every attempt and replay, the receiver's idempotency key
 * @param timestamp the {@code webhook-timestamp}: this attempt's instant
 * @param body      the JSON payload, exactly the bytes that are signed and sent
 * @param secrets   the endpoint's secrets ({@code whsec_…}), newest first: during a rotation, two, and each signs
 */
public record Delivery(URI url, String messageId, Instant timestamp, byte[] body, List<String> secrets) {

    public Delivery {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(body, "body");
        secrets = List.copyOf(secrets);
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("a delivery is signed with at least one secret");
        }
    }

    /**
     * Without the secrets, the body or the URL's path and query (a receiver's URL may carry a token of its own, as
     * Slack's do): a delivery logged or shown in an assertion's message must not show them.
     */
    @Override
    public String toString() {
        return "Delivery[" + url.getScheme() + "://" + url.getHost() + ", messageId=" + messageId + ", timestamp="
               + timestamp + ", body=" + body.length + " bytes, " + secrets.size() + " secrets not shown]";
    }
}
