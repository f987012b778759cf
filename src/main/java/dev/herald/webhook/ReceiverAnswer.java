package dev.herald.webhook;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The part of a receiver's HTTP/1.1 answer that Herald reads: the status, the few headers it acts on, and the first
 * line of the body for the attempt's detail. Everything is read to a bound (the head to {@link #MAX_HEAD_BYTES}, the
 * body to {@link #MAX_BODY_BYTES}), so a receiver that answers without end costs a few kilobytes and the time-out.
 *
 * @param status     the final status (interim 1xx answers are skipped)
 * @param retryAfter the {@code Retry-After} header, or null
 * @param location   the {@code Location} header, or null
 * @param bodyLine   the body's first line, at most {@link #MAX_BODY_BYTES} bytes of it; "" for a 2xx, whose body
 *                   is not read
 */
record ReceiverAnswer(int status, String retryAfter, String location, String bodyLine) {

    static final int MAX_HEAD_BYTES = 16 * 1024;
    static final int MAX_BODY_BYTES = 512;
    private static final int MAX_INTERIM_ANSWERS = 8;
    private static final int MAX_CHUNK_SIZE_DIGITS = 16;

    /** A receiver whose bytes are not an HTTP/1.1 answer Herald reads; the message is the detail. */
    static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    /** Reads the status and headers, and the body's first line unless the status is a success. */
    static ReceiverAnswer read(InputStream in) throws IOException {
        Head head = new Head(in);
        for (int interim = 0; ; interim++) {
            int status = head.statusLine();
            String retryAfter = null;
            String location = null;
            long contentLength = -1;
            boolean chunked = false;
            for (String line = head.line(); !line.isEmpty(); line = head.line()) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    throw new Malformed("the receiver's answer has a header line without a name");
                }
                String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
                String value = line.substring(colon + 1).strip();
                switch (name) {
                    case "retry-after" -> retryAfter = value;
                    case "location" -> location = value;
                    case "content-length" -> contentLength = length(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
                    default -> {
                        // not acted on
                    }
                }
            }
            if (status >= 100 && status < 200 && status != 101) {
                if (interim >= MAX_INTERIM_ANSWERS) {
                    throw new Malformed("the receiver sent more than " + MAX_INTERIM_ANSWERS + " interim answers");
                }
                continue;
            }
            String body = "";
            if (status < 200 || status >= 300) {
                try {
                    body = firstLine(head, contentLength, chunked);
                } catch (IOException cut) {
                    // The status is what counts: a chunk size cut short (the deadline, a reset) leaves no line.
                }
            }
            return new ReceiverAnswer(status, retryAfter, location, body);
        }
    }

    private static long length(String value) throws Malformed {
        if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new Malformed("the receiver's Content-Length is not a number");
        }
        return Long.parseLong(value);
    }

    /** Up to the first line break, within the body's framing and {@link #MAX_BODY_BYTES}. */
    private static String firstLine(Head head, long contentLength, boolean chunked) throws IOException {
        long available = contentLength >= 0 ? contentLength : Long.MAX_VALUE;
        if (chunked) {
            String size = head.line();
            int extension = size.indexOf(';');
            String digits = (extension < 0 ? size : size.substring(0, extension)).strip();
            if (digits.isEmpty() || digits.length() > MAX_CHUNK_SIZE_DIGITS) {
                return "";
            }
            try {
                available = Long.parseLong(digits, 16);
            } catch (NumberFormatException notHex) {
                return "";
            }
        }
        byte[] bytes = new byte[(int) Math.min(MAX_BODY_BYTES, available)];
        int length = 0;
        try {
            while (length < bytes.length) {
                int b = head.body();
                if (b < 0 || b == '\n' || b == '\r') {
                    break;
                }
                bytes[length++] = (byte) b;
            }
        } catch (IOException cut) {
            // The status is what counts: a body cut short (the deadline, a reset) leaves the line read so far.
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    /** Bytes read one at a time through a small buffer, lines to the head's bound. */
    private static final class Head {
        private final InputStream in;
        private final byte[] buffer = new byte[2048];
        private int position;
        private int limit;
        private int headBytes;

        Head(InputStream in) {
            this.in = in;
        }

        int statusLine() throws IOException {
            String line = line();
            // "HTTP/1.1 200 OK": the reason phrase may be empty, or absent with its space.
            if (line.length() < 12 || !line.startsWith("HTTP/1.") || line.charAt(8) != ' '
                || !Character.isDigit(line.charAt(9)) || !Character.isDigit(line.charAt(10))
                || !Character.isDigit(line.charAt(11)) || line.length() > 12 && line.charAt(12) != ' ') {
                throw new Malformed("the receiver did not answer in HTTP/1.1");
            }
            return Integer.parseInt(line.substring(9, 12));
        }

        String line() throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                int b = next();
                if (b < 0) {
                    throw new EOFException("the receiver closed the connection within its answer's head");
                }
                if (++headBytes > MAX_HEAD_BYTES) {
                    throw new Malformed("the receiver's answer has a head of more than " + MAX_HEAD_BYTES / 1024
                                        + " KiB");
                }
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                // Header names and the values Herald reads are ASCII; anything else is kept as a replacement.
                line.append(b < 0x80 ? (char) b : '\ufffd');
            }
        }

        int body() throws IOException {
            return next();
        }

        private int next() throws IOException {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return -1;
                }
            }
            return buffer[position++] & 0xFF;
        }
    }
}
