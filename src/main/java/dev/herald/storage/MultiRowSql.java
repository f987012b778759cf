package dev.herald.storage;

/**
 * A multi-row statement as the batching writers send it: a named statement's start, its row placeholders repeated
 * once per row, and its end ({@code INSERT … VALUES (?, ?), (?, ?) ON DUPLICATE KEY …}). The DB Client has no
 * multi-row statement, and a batch's size varies.
 */
public final class MultiRowSql {

    private MultiRowSql() {
    }

    public static String of(String start, String row, int rows, String end) {
        StringBuilder sql = new StringBuilder(start.length() + rows * (row.length() + 2) + end.length() + 2);
        sql.append(start).append(' ');
        for (int i = 0; i < rows; i++) {
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(row);
        }
        return sql.append(' ').append(end).toString();
    }
}
