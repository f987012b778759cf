package dev.herald.ratelimit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Parses IP address literals and nothing else: {@link InetAddress#getByName} would resolve a host name through
 * DNS, and a header value must never cause a lookup.
 */
final class IpAddresses {

    private IpAddresses() {
    }

    /** An IPv4 or IPv6 literal, optionally bracketed and with a port ({@code 1.2.3.4:80}, {@code [::1]:80}). */
    static Optional<InetAddress> parse(String text) {
        String literal = withoutPort(text.strip());
        if (literal.indexOf(':') >= 0) {
            return ipv6(literal);
        }
        return ipv4(literal);
    }

    private static String withoutPort(String text) {
        if (text.startsWith("[")) {
            int end = text.indexOf(']');
            return end < 0 ? text : text.substring(1, end);
        }
        int colon = text.indexOf(':');
        boolean ipv4WithPort = colon > 0 && colon == text.lastIndexOf(':') && text.indexOf('.') > 0;
        return ipv4WithPort ? text.substring(0, colon) : text;
    }

    private static Optional<InetAddress> ipv4(String literal) {
        String[] parts = literal.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                return Optional.empty();
            }
            bytes[i] = (byte) value;
        }
        return address(bytes, literal);
    }

    private static Optional<InetAddress> ipv6(String literal) {
        // Only hex digits, colons and dots (an embedded IPv4 tail): getByName then parses it as a literal.
        boolean literalOnly = literal.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.');
        if (!literalOnly) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(literal));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> address(byte[] bytes, String literal) {
        try {
            return Optional.of(InetAddress.getByAddress(literal, bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
