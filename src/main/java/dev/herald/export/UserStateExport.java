package dev.herald.export;

import java.util.List;
import java.util.stream.Stream;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * The export of per-user state, one row per user and notification in the order they last changed: by keyset on
 * (changed_at, user_key, notification_id) within a project (idx_user_states_changes, migration 27). A row moves to
 * a later place each time it gains a state (userstate.StateRows), so a pull from a cursor has every state reached
 * since; an erased user's rows are gone from it.
 */
final class UserStateExport implements ExportKind<StatePosition> {

    private final DbClient db;

    UserStateExport(DbClient db) {
        this.db = db;
    }

    @Override
    public String name() {
        return "user-states";
    }

    @Override
    public List<String> columns() {
        return ExportedUserState.COLUMNS;
    }

    @Override
    public StatePosition before(long instant) {
        return StatePosition.before(instant);
    }

    @Override
    public long at(StatePosition position) {
        return position.at();
    }

    @Override
    public String tiebreak(StatePosition position) {
        return position.tiebreak();
    }

    @Override
    public StatePosition position(long at, String tiebreak) {
        return StatePosition.of(at, tiebreak);
    }

    /** Every row fits in {@link ExportedUserState#ROW_BYTES}: the candidates are the answer. */
    @Override
    public int candidates(long budget) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, budget / ExportedUserState.ROW_BYTES));
    }

    @Override
    public AnswerEnd<StatePosition> end(String projectId, StatePosition from, long before, int limit, long budget) {
        return db.execute().createNamedGet("select-export-user-states-last")
                .addParam("projectId", projectId)
                .addParam("afterAt", from.at())
                .addParam("afterUser", from.userKey())
                .addParam("afterNotification", from.notificationId())
                .addParam("before", before)
                .addParam("limit", limit)
                .execute()
                .map(row -> Rows.longValue(row, "candidates") < limit
                        ? AnswerEnd.everythingUpTo(StatePosition.before(before))
                        : new AnswerEnd<>(new StatePosition(Rows.longValue(row, "changed_at"),
                                                            Rows.string(row, "user_key"),
                                                            Rows.string(row, "notification_id")), true))
                .orElse(AnswerEnd.everythingUpTo(StatePosition.before(before)));
    }

    @Override
    public List<ExportedUserState> page(String projectId, StatePosition from, StatePosition last, int rows) {
        try (Stream<DbRow> page = db.execute().createNamedQuery("select-export-user-states-page")
                .addParam("projectId", projectId)
                .addParam("afterAt", from.at())
                .addParam("afterUser", from.userKey())
                .addParam("afterNotification", from.notificationId())
                .addParam("lastAt", last.at())
                .addParam("lastUser", last.userKey())
                .addParam("lastNotification", last.notificationId())
                .addParam("rows", rows)
                .execute()) {
            return page.map(UserStateExport::state).toList();
        }
    }

    private static ExportedUserState state(DbRow row) {
        return new ExportedUserState(Rows.string(row, "user_key"), Rows.string(row, "notification_id"),
                                     Rows.string(row, "project_id"), Rows.nullableLong(row, "seen_at"),
                                     Rows.nullableLong(row, "read_at"), Rows.nullableLong(row, "dismissed_at"),
                                     Rows.nullableLong(row, "archived_at"), Rows.longValue(row, "changed_at"));
    }
}
