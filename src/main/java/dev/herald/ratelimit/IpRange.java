package dev.herald.ratelimit;

import java.net.InetAddress;

import dev.herald.config.ConfigValues;

/**
 * An address or a CIDR range ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, {@code 127.0.0.1}). Also the form of
 * {@code webhooks.allowed-addresses} (the webhook package's AddressPolicy).
 */
public record IpRange(byte[] network, int prefixLength) {

    /**
     * @throws IllegalArgumentException naming the text when it is not an address or a range, unless it could be a
     *                                  token pasted into the wrong setting: the message reaches the log
     */
    public static IpRange parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String addressPart = slash < 0 ? trimmed : trimmed.substring(0, slash);
        InetAddress address = IpAddresses.parse(addressPart)
                .orElseThrow(() -> new IllegalArgumentException("Not an IP address or CIDR range: "
                        + ConfigValues.shown(text)));
        byte[] bytes = address.getAddress();
        int maxPrefix = bytes.length * 8;
        int prefix = slash < 0 ? maxPrefix : parsePrefix(trimmed.substring(slash + 1), maxPrefix, text);
        return new IpRange(bytes, prefix);
    }

    /**
     * Wider than any one network of proxies: more than an IPv4 /8 or an IPv6 /7 (the unique local addresses, the
     * widest private IPv6 range). Trusted, such a range lets most of the Internet name its own address.
     */
    public boolean isWiderThanANetwork() {
        return prefixLength < (network.length == 4 ? 8 : 7);
    }

    /** As an operator writes it: {@code 10.0.0.0/8}, {@code ::/0}, {@code 2001:db8::/32} (RFC 5952's short form). */
    @Override
    public String toString() {
        if (network.length == 4) {
            return (network[0] & 0xFF) + "." + (network[1] & 0xFF) + "." + (network[2] & 0xFF) + "." + (network[3] & 0xFF)
                    + "/" + prefixLength;
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (network[2 * i] & 0xFF) << 8 | network[2 * i + 1] & 0xFF;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int start = 0; start < 8; start++) {
            int end = start;
            while (end < 8 && groups[end] == 0) {
                end++;
            }
            if (end - start > bestLength) {
                bestStart = start;
                bestLength = end - start;
            }
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (!text.isEmpty() && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text + "/" + prefixLength;
    }

    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int fullBytes = prefixLength / 8;
        for (int i = 0; i < fullBytes; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int remainingBits = prefixLength % 8;
        if (remainingBits == 0) {
            return true;
        }
        int mask = (0xFF << (8 - remainingBits)) & 0xFF;
        return (candidate[fullBytes] & mask) == (network[fullBytes] & mask);
    }

    private static int parsePrefix(String text, int maxPrefix, String whole) {
        try {
            int prefix = Integer.parseInt(text);
            if (prefix >= 0 && prefix <= maxPrefix) {
                return prefix;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Bad prefix length in CIDR range: " + ConfigValues.shown(whole));
    }
}
