package dev.herald.ratelimit;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Parses IP address literals and nothing else, into bytes by our own hand: {@link InetAddress#getByName} would
 * resolve anything it does not take for a literal through the system resolver ({@code .a:b} is a host name to it),
 * and a header value must never cause a lookup. {@link InetAddress#getByAddress} only wraps the bytes.
 */
final class IpAddresses {

    private static final int IPV6_GROUPS = 8;

    private IpAddresses() {
    }

    /** An IPv4 or IPv6 literal, optionally bracketed and with a port ({@code 1.2.3.4:80}, {@code [::1]:80}). */
    static Optional<InetAddress> parse(String text) {
        String literal = withoutPort(text.strip());
        byte[] bytes = literal.indexOf(':') >= 0 ? ipv6(literal) : ipv4(literal);
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            // An IPv4-mapped IPv6 address (::ffff:192.0.2.1) comes back as the IPv4 address it carries.
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
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

    /** Four decimal parts of at most three digits, each at most 255; null for anything else. */
    private static byte[] ipv4(String literal) {
        String[] parts = literal.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int value = number(parts[i], 3, 10);
            if (value < 0 || value > 255) {
                return null;
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    /**
     * Eight groups of one to four hex digits, or fewer around one {@code ::}; the last two may be written as an
     * IPv4 address. Null for anything else, zone ids ({@code %eth0}) included: no client is known by one.
     */
    private static byte[] ipv6(String literal) {
        int gap = literal.indexOf("::");
        if (gap >= 0 && literal.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        // An IPv4 address can only end the literal: before a :: it would be followed by more groups.
        byte[] head = groups(gap < 0 ? literal : literal.substring(0, gap), gap < 0);
        byte[] tail = gap < 0 ? new byte[0] : groups(literal.substring(gap + 2), true);
        if (head == null || tail == null) {
            return null;
        }
        int written = head.length + tail.length;
        if (gap < 0 ? written != 2 * IPV6_GROUPS : written > 2 * (IPV6_GROUPS - 1)) {
            return null;
        }
        byte[] bytes = new byte[2 * IPV6_GROUPS];
        System.arraycopy(head, 0, bytes, 0, head.length);
        System.arraycopy(tail, 0, bytes, bytes.length - tail.length, tail.length);
        return bytes;
    }

    /** Colon-separated hex groups, the last of which may be an IPv4 address; empty text is no group. */
    private static byte[] groups(String text, boolean ipv4Last) {
        if (text.isEmpty()) {
            return new byte[0];
        }
        String[] parts = text.split(":", -1);
        byte[] bytes = new byte[2 * parts.length + 2];
        int length = 0;
        for (int i = 0; i < parts.length; i++) {
            if (ipv4Last && i == parts.length - 1 && parts[i].indexOf('.') >= 0) {
                byte[] ipv4 = ipv4(parts[i]);
                if (ipv4 == null) {
                    return null;
                }
                System.arraycopy(ipv4, 0, bytes, length, 4);
                length += 4;
                continue;
            }
            int value = number(parts[i], 4, 16);
            if (value < 0) {
                return null;
            }
            bytes[length++] = (byte) (value >>> 8);
            bytes[length++] = (byte) value;
        }
        return Arrays.copyOf(bytes, length);
    }

    /** One to {@code maxDigits} digits of the radix, nothing else (no sign, no space); -1 otherwise. */
    private static int number(String digits, int maxDigits, int radix) {
        if (digits.isEmpty() || digits.length() > maxDigits) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            // Character.digit also takes other scripts' digits (Arabic-Indic, full-width): ASCII only.
            int digit = c < 0x80 ? Character.digit(c, radix) : -1;
            if (digit < 0) {
                return -1;
            }
            value = value * radix + digit;
        }
        return value;
    }
}
