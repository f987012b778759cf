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
}
