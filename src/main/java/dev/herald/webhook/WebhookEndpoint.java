package dev.herald.webhook;

import java.util.ArrayList;
import java.util.List;

/**
 * A project's webhook endpoint (docs/webhooks.md#endpoints-deliveries-and-replay).
 *
 * @param eventTypes          what it wants, in the API's spelling ({@code dev.herald.outbox.EventType})
 * @param secret              the current {@code whsec_} secret: never in an answer but the create's and a rotation's
 * @param previousSecret      the secret before a rotation, which signs too until {@code previousSecretUntil}
 * @param disabledReason      why it is disabled, when it is (410, failing too long, a person)
 * @param failingSince        the first failure of the current run of failures, null once a delivery succeeds
 */
public record WebhookEndpoint(String id, String projectId, String url, String description, List<String> eventTypes,
                              String secret, String previousSecret, Long previousSecretUntil, boolean enabled,
                              String disabledReason, Long failingSince, long createdAt, long updatedAt) {

    public WebhookEndpoint {
        eventTypes = List.copyOf(eventTypes);
    }

    /** The secrets that sign a delivery at {@code now}, newest first (Standard Webhooks: each one signs). */
    public List<String> secrets(long now) {
        List<String> secrets = new ArrayList<>(2);
        secrets.add(secret);
        if (previousSecret != null && previousSecretUntil != null && now < previousSecretUntil) {
            secrets.add(previousSecret);
        }
        return secrets;
    }
}
