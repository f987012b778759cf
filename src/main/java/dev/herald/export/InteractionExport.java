package dev.herald.export;

import java.util.List;
import java.util.stream.Stream;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * The export of raw interactions, in the order the server received them: by keyset on (received_at, seq) within a
 * project (idx_interactions_export, migration 26), no offset into the table; an answer's end from its candidates'
 * places and metadata lengths, its rows a page at a time.
 */
final class InteractionExport implements ExportKind<ExportPosition> {

    private final DbClient db;

    InteractionExport(DbClient db) {
        this.db = db;
    }

    @Override
    public String name() {
        return "interactions";
    }

    @Override
    public List<String> columns() {
        return ExportedInteraction.COLUMNS;
    }

    @Override
    public ExportPosition before(long instant) {
        return ExportPosition.before(instant);
    }

    @Override
    public ExportPosition start() {
        return ExportPosition.START;
    }

    @Override
    public long at(ExportPosition position) {
        return position.at();
    }

    @Override
    public String tiebreak(ExportPosition position) {
        return Long.toString(position.id());
    }

    @Override
    public ExportPosition position(long at, String tiebreak) {
        return new ExportPosition(at, Long.parseLong(tiebreak));
    }

    /** No more candidates than the bytes could hold: the end's query reads each one's metadata length. */
    @Override
    public int candidates(long budget) {
        return (int) Math.min(Integer.MAX_VALUE, budget / ExportedInteraction.BYTES_BESIDE_METADATA + 1);
    }

    @Override
    public AnswerEnd<ExportPosition> end(String projectId, ExportPosition from, long before, int limit, long budget) {
        return db.execute().createNamedGet("select-export-interactions-last")
                .addParam("projectId", projectId)
                .addParam("afterAt", from.at())
                .addParam("afterId", from.id())
                .addParam("before", before)
                .addParam("limit", limit)
                .addParam("rowBytes", ExportedInteraction.BYTES_BESIDE_METADATA)
                .addParam("budget", budget)
                .execute()
                .map(row -> {
                    ExportPosition last = new ExportPosition(Rows.longValue(row, "received_at"),
                                                             Rows.longValue(row, "seq"));
                    long rows = Rows.longValue(row, "rows_up_to");
                    long candidates = Rows.longValue(row, "candidates");
                    return rows == candidates && candidates < limit
                            ? AnswerEnd.everythingUpTo(ExportPosition.before(before)) : new AnswerEnd<>(last, true);
                })
                .orElse(AnswerEnd.everythingUpTo(ExportPosition.before(before)));
    }

    @Override
    public List<ExportedInteraction> page(String projectId, ExportPosition from, ExportPosition last, int rows) {
        try (Stream<DbRow> page = db.execute().createNamedQuery("select-export-interactions-page")
                .addParam("projectId", projectId)
                .addParam("afterAt", from.at())
                .addParam("afterId", from.id())
                .addParam("lastAt", last.at())
                .addParam("lastId", last.id())
                .addParam("rows", rows)
                .execute()) {
            return page.map(InteractionExport::interaction).toList();
        }
    }

    private static ExportedInteraction interaction(DbRow row) {
        return new ExportedInteraction(Rows.longValue(row, "seq"), Rows.string(row, "notification_id"),
                                       Rows.string(row, "project_id"), Rows.string(row, "type"),
                                       Rows.longValue(row, "occurred_at"), Rows.longValue(row, "received_at"),
                                       Rows.string(row, "endpoint"), Rows.string(row, "locale"),
                                       Rows.string(row, "metadata"));
    }
}
