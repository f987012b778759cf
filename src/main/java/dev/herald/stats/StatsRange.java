package dev.herald.stats;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import dev.herald.web.ApiException;

import io.helidon.webserver.http.ServerRequest;

/**
 * The days a stats request covers: {@code from} and {@code to} as {@code YYYY-MM-DD} in UTC, both included; either
 * may be left out (all time on that side). As epoch millis: {@code [fromMillis, toMillis)}.
 */
record StatsRange(long fromMillis, long toMillis) {

    static final long DAY_MILLIS = 86_400_000L;

    static StatsRange of(ServerRequest request) {
        Optional<LocalDate> from = day(request, "from");
        Optional<LocalDate> to = day(request, "to");
        if (from.isPresent() && to.isPresent() && to.get().isBefore(from.get())) {
            throw ApiException.validation("to", "to must not be before from");
        }
        return new StatsRange(from.map(StatsRange::startOf).orElse(0L),
                              to.map(day -> startOf(day.plusDays(1))).orElse(Long.MAX_VALUE));
    }

    private static Optional<LocalDate> day(ServerRequest request, String name) {
        return request.query().first(name).asOptional().map(text -> {
            try {
                // ISO_LOCAL_DATE: exactly YYYY-MM-DD, a real day of the calendar.
                return LocalDate.parse(text);
            } catch (DateTimeParseException e) {
                throw ApiException.validation(name, name + " must be a date as YYYY-MM-DD");
            }
        });
    }

    private static long startOf(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }
}
