package dev.herald.admin;

import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementQuery;

/**
 * A management list oldest first, ties by an id, read by {@link Page pages} through a named query that takes the
 * cursor as {@code :createdAt}, {@code :sameCreatedAt}, {@code :after} and {@code :limit}, besides its own
 * parameters (the project's id).
 *
 * @param createdAt  an item's creation time, the cursor's first part
 * @param id         an item's id, the cursor's tiebreak
 * @param characters what an item weighs in the page's characters ({@link Page#read})
 */
public record OldestFirst<T>(String statement,
                             Function<DbRow, T> row,
                             ToLongFunction<T> createdAt,
                             Function<T, String> id,
                             ToLongFunction<T> characters) {

    /** Before every row: the first page's cursor. */
    private static final PageRequest.Cursor START = new PageRequest.Cursor(-1, "-");

    public Page<T> read(DbClient db, PageRequest page, Map<String, Object> parameters) {
        return Page.read(page, START, (after, limit) -> {
            DbStatementQuery query = db.execute().createNamedQuery(statement);
            parameters.forEach(query::addParam);
            return query.addParam("createdAt", after.createdAt())
                    .addParam("sameCreatedAt", after.createdAt())
                    .addParam("after", after.tiebreak())
                    .addParam("limit", limit)
                    .execute()
                    .map(row)
                    .map(item -> new Page.Item<>(item, new PageRequest.Cursor(createdAt.applyAsLong(item), id.apply(item))))
                    .toList();
        }, characters);
    }
}
