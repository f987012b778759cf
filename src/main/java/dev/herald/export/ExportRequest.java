package dev.herald.export;

import java.util.List;
import java.util.Optional;

import dev.herald.admin.AdminRequests;
import dev.herald.api.ApiException;

import io.helidon.webserver.http.ServerRequest;

/**
 * What an export asks for (docs/api.md#export): {@code format} (ndjson, the default, or csv), {@code limit} rows at
 * most, and where to start and stop: after the {@code cursor} of the previous answer and at or after {@code since},
 * before {@code until}, all by each row's time in its kind's order (received, or changed).
 *
 * @param <P>   a place in the order of the export's kind
 * @param from  where the answer starts: after this position
 * @param until the first instant it leaves out, {@link Long#MAX_VALUE} for none
 */
record ExportRequest<P extends Comparable<P>>(ExportFormat format, int limit, P from, long until) {

    static final int DEFAULT_LIMIT = 10_000;
    static final int MAX_LIMIT = 100_000;

    static <P extends Comparable<P>> ExportRequest<P> of(ServerRequest request, ExportKind<P> kind,
                                                         String projectId) {
        ExportFormat format = AdminRequests.queryParameter(request, "format")
                .map(ExportRequest::format).orElse(ExportFormat.NDJSON);
        int limit = AdminRequests.limit(request, DEFAULT_LIMIT, MAX_LIMIT);
        // An empty cursor is the first pull's: a script can always send the one it saved.
        P cursor = AdminRequests.queryParameter(request, "cursor").filter(text -> !text.isEmpty())
                .map(text -> ExportCursor.decode(text, kind, projectId)).orElseGet(kind::start);
        Optional<Long> since = instant(request, "since");
        Optional<Long> until = instant(request, "until");
        if (since.isPresent() && until.isPresent() && until.get() < since.get()) {
            throw ApiException.validation("until", "until must not be before since");
        }
        P from = since.map(kind::before).map(start -> later(start, cursor)).orElse(cursor);
        return new ExportRequest<>(format, limit, from, until.orElse(Long.MAX_VALUE));
    }

    static <P extends Comparable<P>> P later(P one, P other) {
        return one.compareTo(other) >= 0 ? one : other;
    }

    private static ExportFormat format(String text) {
        return switch (text) {
            case "ndjson" -> ExportFormat.NDJSON;
            case "csv" -> ExportFormat.CSV;
            default -> throw AdminRequests.notOneOf("format", List.of("ndjson", "csv"));
        };
    }

    private static Optional<Long> instant(ServerRequest request, String name) {
        return AdminRequests.queryParameter(request, name).map(text -> AdminRequests.instant(text, name));
    }
}
