package dev.herald.webhook;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A receiver's {@code Retry-After} (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Anything else, or a date
 * already past, is no usable answer: the schedule's own wait stands.
 */
final class RetryAfter {

    /** More digits than this is no delay a schedule of hours could honour anyway (and would overflow a long). */
    private static final int MAX_DIGITS = 9;

    private RetryAfter() {
    }

    static Optional<Duration> parse(String value, Instant now) {
        String text = value.strip();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return text.length() > MAX_DIGITS ? Optional.of(Duration.ofSeconds(999_999_999L))
                    : Optional.of(Duration.ofSeconds(Long.parseLong(text)));
        }
        try {
            // IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") is what RFC 1123's format reads.
            Instant then = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration wait = Duration.between(now, then);
            return wait.isNegative() ? Optional.empty() : Optional.of(wait);
        } catch (DateTimeParseException notADate) {
            return Optional.empty();
        }
    }
}
