package dev.herald.export;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, CR or LF, each quote doubled. A cell of a client's
 * text that a spreadsheet would take for a formula (it starts with {@code = + - @}, a tab or CR: OWASP's "CSV
 * injection") gets a leading apostrophe, so that a value a visitor sent as metadata is shown, never run, when a person
 * opens the file. Herald's own values are written as they are: a warehouse joins on them.
 */
final class CsvCells {

    private CsvCells() {
    }

    /** @param clientText whether a client wrote the value ({@link ExportedRow#isClientText}) */
    static void append(StringBuilder line, String value, boolean clientText) {
        if (value == null || value.isEmpty()) {
            return;
        }
        String cell = clientText && startsLikeFormula(value) ? "'" + value : value;
        if (needsQuotes(cell)) {
            line.append('"').append(cell.replace("\"", "\"\"")).append('"');
        } else {
            line.append(cell);
        }
    }

    private static boolean startsLikeFormula(String value) {
        char first = value.charAt(0);
        return first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r';
    }

    private static boolean needsQuotes(String cell) {
        for (int i = 0; i < cell.length(); i++) {
            char c = cell.charAt(i);
            if (c == ',' || c == '"' || c == '\r' || c == '\n') {
                return true;
            }
        }
        return false;
    }
}
