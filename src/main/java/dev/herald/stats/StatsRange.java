package dev.herald.stats;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import dev.herald.api.ApiException;

import io.helidon.webserver.http.ServerRequest;

/**
 * The days a stats request covers: {@code from} and {@code to} as {@code YYYY-MM-DD} in UTC, both included; either
 * may be left out (all time on that side). As UTC day numbers (days since 1970-01-01): {@code [fromDay, toDay)}.
 */
record StatsRange(long fromDay, long toDay) {

    private static final long DAY_MILLIS = 86_400_000L;

    static StatsRange of(ServerRequest request) {
        Optional<LocalDate> from = day(request, "from");
        Optional<LocalDate> to = day(request, "to");
        if (from.isPresent() && to.isPresent() && to.get().isBefore(from.get())) {
            throw ApiException.validation("to", "to must not be before from");
        }
        return new StatsRange(from.map(LocalDate::toEpochDay).orElse(Long.MIN_VALUE),
                              to.map(day -> day.toEpochDay() + 1).orElse(Long.MAX_VALUE));
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

    /** The first instant of the range in epoch millis, or {@link Long#MIN_VALUE} for all time before. */
    long fromMillis() {
        return fromDay == Long.MIN_VALUE ? Long.MIN_VALUE : fromDay * DAY_MILLIS;
    }

    /** The first instant after the range in epoch millis, or {@link Long#MAX_VALUE} for all time after. */
    long toMillis() {
        return toDay == Long.MAX_VALUE ? Long.MAX_VALUE : toDay * DAY_MILLIS;
    }
}
