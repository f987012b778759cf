package dev.herald.storage;

import io.helidon.dbclient.DbRow;

/**
 * Reads columns the same way on H2 and MariaDB, whose drivers hand back different Java types for some of them.
 */
public final class Rows {

    private Rows() {
    }

    /** The raw value, null for SQL NULL ({@code DbColumn.get()} and {@code asOptional()} reject null). */
    private static Object value(DbRow row, String column) {
        return row.column(column).get(Object.class);
    }

    public static String string(DbRow row, String column) {
        Object value = value(row, column);
        return value == null ? null : value.toString();
    }

    public static long longValue(DbRow row, String column) {
        return ((Number) value(row, column)).longValue();
    }

    public static Long nullableLong(DbRow row, String column) {
        Object value = value(row, column);
        return value == null ? null : ((Number) value).longValue();
    }

    /** MariaDB's BOOLEAN is TINYINT(1): a Boolean or a number depending on driver settings. */
    public static boolean bool(DbRow row, String column) {
        Object value = value(row, column);
        return value instanceof Boolean b ? b : ((Number) value).intValue() != 0;
    }
}
