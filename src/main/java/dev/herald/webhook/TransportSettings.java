package dev.herald.webhook;

import java.time.Duration;
import java.util.List;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;
import dev.herald.ratelimit.IpRange;

import io.helidon.config.Config;

/**
 * The {@code webhooks.*} settings of the HTTP transport (docs/webhooks.md#which-addresses-herald-calls).
 *
 * @param allowedAddresses ranges Herald delivers to although the address policy refuses them
 * @param connectTimeout   the longest wait for one address's TCP connection
 * @param timeout          the longest one attempt takes in all: name lookup, connection, TLS, request and answer
 */
public record TransportSettings(List<IpRange> allowedAddresses, Duration connectTimeout, Duration timeout) {

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);
    /** Svix gives a receiver 15 s; a minute is more than any receiver that answers at once needs. */
    static final Duration LONGEST_TIMEOUT = Duration.ofMinutes(1);

    public TransportSettings {
        allowedAddresses = List.copyOf(allowedAddresses);
        if (connectTimeout.toMillis() < 1 || timeout.toMillis() < 1 || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
            throw new BadSetting("webhooks.connect-timeout and webhooks.timeout must be positive, and webhooks.timeout"
                                 + " at most " + LONGEST_TIMEOUT + "; they are " + connectTimeout + " and " + timeout);
        }
    }

    /** Nothing opened, the default time-outs. */
    public static TransportSettings defaults() {
        return new TransportSettings(List.of(), DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT);
    }

    /** @param webhooks the {@code webhooks} node */
    public static TransportSettings from(Config webhooks) {
        return new TransportSettings(
                ConfigValues.list(webhooks.get("allowed-addresses")).stream()
                        .map(TransportSettings::allowedRange)
                        .toList(),
                ConfigValues.duration(webhooks.get("connect-timeout"), DEFAULT_CONNECT_TIMEOUT),
                ConfigValues.duration(webhooks.get("timeout"), DEFAULT_TIMEOUT));
    }

    public AddressPolicy addressPolicy() {
        return new AddressPolicy(allowedAddresses);
    }

    private static IpRange allowedRange(String entry) {
        try {
            return IpRange.parse(entry);
        } catch (IllegalArgumentException e) {
            throw new BadSetting("webhooks.allowed-addresses (" + ConfigValues.environmentName(
                    "webhooks.allowed-addresses") + "): " + e.getMessage()
                                 + "; write an address or a CIDR range, e.g. 10.0.0.0/8 or fd00::/8");
        }
    }
}
