package dev.herald.storage;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The format of statements.sql, and the file itself read by it. */
class BundledStatementsTest {

    @Test
    void aNameBeginsAStatementWhoseLinesAreKeptCommentsAndBlankLinesAreNot() {
        Map<String, String> statements = BundledStatements.parse("""
                -- The file's own comment.

                -- name: one
                SELECT a,
                       b
                FROM t WHERE c = 'x -- y'
                -- A comment between two statements.
                -- name: two
                DELETE FROM t\r
                """, "test");
        assertThat(statements, is(Map.of("one", "SELECT a,\n       b\nFROM t WHERE c = 'x -- y'",
                                          "two", "DELETE FROM t")));
    }

    @Test
    void mistakesAreRefusedNamingTheLine() {
        assertThat(assertThrows(IllegalStateException.class, () -> BundledStatements.parse(
                "-- name: one\nSELECT 1\n-- name: one\nSELECT 2\n", "test")).getMessage(),
                   is("test, line 3: statement one given twice"));
        assertThat(assertThrows(IllegalStateException.class, () -> BundledStatements.parse(
                "SELECT 1\n-- name: one\nSELECT 2\n", "test")).getMessage(),
                   is("test, line 1: SQL before the first \"-- name:\" line"));
        assertThat(assertThrows(IllegalStateException.class, () -> BundledStatements.parse(
                "-- name: one\n-- name: two\nSELECT 2\n", "test")).getMessage(),
                   is("test: statement one has no SQL"));
        assertThat(assertThrows(IllegalStateException.class, () -> BundledStatements.parse(
                "-- name: \nSELECT 2\n", "test")).getMessage(), is("test, line 1: a statement without a name"));
    }

    @Test
    void theBundledFileReadsWhole() {
        Map<String, String> statements = BundledStatements.all();
        assertThat(statements.size() > 200, is(true));
        assertThat(statements.get("select-applied-migrations"), is("SELECT version FROM schema_migrations"));
        statements.forEach((name, sql) -> assertThat(name + " ends where the next begins", sql.contains("-- name:"),
                                                      is(false)));
    }
}
