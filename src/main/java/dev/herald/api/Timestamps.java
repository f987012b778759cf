package dev.herald.api;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The wire form of instants: UTC with milliseconds, {@code 2026-11-22T10:15:00.000Z} (docs/api.md#conventions).
 */
public final class Timestamps {

    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(long epochMillis) {
        return WIRE.format(Instant.ofEpochMilli(epochMillis));
    }
}
