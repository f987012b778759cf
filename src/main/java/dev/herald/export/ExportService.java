package dev.herald.export;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;

import dev.herald.admin.Actor;
import dev.herald.api.ByteCount;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;
import dev.herald.wire.HttpVersions;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /projects/{projectId}/export/interactions} and {@code …/export/user-states} (docs/api.md#export): a
 * project's raw interactions in the order the server received them, or its per-user state in the order it last
 * changed, NDJSON for a warehouse's incremental pull, CSV for a person. Each kind ({@link ExportKind}) has its order
 * and its reads; the rest is here, alike for both.
 *
 * <p>Never a row skipped or repeated across pulls: an answer holds only rows whose time is before now minus the
 * settle window ({@link ExportSettings}), when every row of that time has committed, whichever instance or Galera
 * node wrote it. Ids and times are not committed in order (group commits on several instances), so a cursor on the
 * id alone, or on the time of rows still being written, would pass a row that commits later below it. The answer's
 * end is found first (the limit-th row, or the last within the answer's bytes), so the next cursor goes out in a
 * header before the rows; the rows are then read a page at a time up to it and written as they come: an answer's
 * memory is a page, whatever its size, and its bytes are bounded so that it is sent well within limits.read-timeout,
 * which cuts every answer that takes longer.
 */
public final class ExportService implements HttpService {

    static final HeaderName CURSOR = HeaderNames.create("Herald-Export-Cursor");
    static final HeaderName MORE = HeaderNames.create("Herald-Export-More");
    /** Rows are written to the socket in chunks of about this, not one each (the listener has no write buffer). */
    private static final int CHUNK_BYTES = 64 * 1024;

    private final ProjectStore projects;
    private final InteractionExport interactions;
    private final UserStateExport userStates;
    private final ExportSettings settings;
    private final ExportFigures figures;
    private final Clock clock;

    public ExportService(DbClient db, ExportSettings settings, ExportFigures figures, Clock clock) {
        this.projects = new ProjectStore(db);
        this.interactions = new InteractionExport(db);
        this.userStates = new UserStateExport(db);
        this.settings = settings;
        this.figures = figures;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/projects/{projectId}/export/interactions", this::interactions)
                .any("/projects/{projectId}/export/interactions", RouteFallbacks.methodNotAllowed("GET"))
                .get("/projects/{projectId}/export/user-states", this::userStates)
                .any("/projects/{projectId}/export/user-states", RouteFallbacks.methodNotAllowed("GET"));
    }

    private void interactions(ServerRequest request, ServerResponse response) {
        export(interactions, request, response);
    }

    private void userStates(ServerRequest request, ServerResponse response) {
        export(userStates, request, response);
    }

    private <P extends Comparable<P>> void export(ExportKind<P> kind, ServerRequest request,
                                                  ServerResponse response) {
        Actor.editor(request, "exports " + kind.name().replace('-', ' '));
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        ExportRequest<P> query = ExportRequest.of(request, kind, project.id());
        long settled = clock.millis() - settings.settleWindow().toMillis();
        long before = Math.min(settled, query.until());
        int candidates = Math.min(query.limit(), kind.candidates(settings.answerBytes()));
        ExportKind.AnswerEnd<P> end = kind.end(project.id(), query.from(), before, candidates, settings.answerBytes());
        P last = ExportRequest.later(query.from(), end.last());
        response.header(ResponseHeaders.of(HeaderNames.CONTENT_TYPE, query.format().contentType()));
        response.header(ResponseHeaders.of(CURSOR, ExportCursor.encode(kind, project.id(), last)));
        response.header(ResponseHeaders.of(MORE, String.valueOf(end.more())));
        if (query.format() == ExportFormat.CSV) {
            response.header(ResponseHeaders.of(HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\""
                    + kind.name() + "-" + project.id() + "." + query.format().extension() + "\""));
        }
        stream(request, response, query.format(), kind, project.id(), query.from(), last);
    }

    /**
     * Writes the rows page by page. On a failure the stream is left unclosed and Helidon, finding the handler failed
     * after the answer began, closes the connection: the answer ends without its last chunk, and a client sees a
     * broken transfer, never a short answer that looks complete (ExportOutageMariaDbTest).
     */
    private <P extends Comparable<P>> void stream(ServerRequest request, ServerResponse response, ExportFormat format,
                                                  ExportKind<P> kind, String projectId, P from, P last) {
        try {
            OutputStream socket;
            if (HttpVersions.isHttp10(request)) {
                // HTTP/1.0 has no chunks (RFC 9112 §6.1): the rows are read twice, once to count their bytes. Rows
                // may change between the reads (a user's state, a retention's delete): then the answer ends short of
                // its length, and the connection closes after it, so that a client sees a broken transfer and never
                // reads the next answer as the rest of this one (an outside test did, over keep-alive).
                ByteCount counted = new ByteCount();
                write(counted, format, kind, projectId, from, last, false);
                response.header(ResponseHeaders.of(HeaderNames.CONTENT_LENGTH, counted.bytes()));
                response.header(HeaderValues.CONNECTION_CLOSE);
                socket = new ExactLength(response.outputStream(), counted.bytes());
            } else {
                socket = response.outputStream();
            }
            OutputStream out = new BufferedOutputStream(socket, CHUNK_BYTES);
            write(out, format, kind, projectId, from, last, true);
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <P extends Comparable<P>> void write(OutputStream out, ExportFormat format, ExportKind<P> kind,
                                                 String projectId, P from, P last, boolean counts) throws IOException {
        format.header(out, kind.columns());
        P after = from;
        List<? extends ExportedRow<P>> page;
        do {
            page = kind.page(projectId, after, last, settings.pageRows());
            if (counts) {
                figures.page(page.size());
            }
            for (ExportedRow<P> row : page) {
                format.row(out, row);
            }
            if (!page.isEmpty()) {
                after = page.getLast().position();
            }
        } while (page.size() == settings.pageRows());
    }
}
