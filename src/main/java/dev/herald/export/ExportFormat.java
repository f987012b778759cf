package dev.herald.export;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntPredicate;

import dev.herald.api.Json;

/**
 * How an export is written: NDJSON, one JSON object a line (LF, and no other of Unicode's line breaks, which some
 * loaders split by), for loaders; CSV (RFC 4180, CRLF, a header row, UTF-8 with a byte order mark so that spreadsheets
 * read it as UTF-8) for a person.
 */
enum ExportFormat {
    NDJSON("application/x-ndjson", "ndjson") {
        @Override
        void header(OutputStream out, List<String> columns) {
            // no header: every line is a row
        }

        @Override
        void row(OutputStream out, ExportedRow<?> row) throws IOException {
            out.write(Json.oneLine(Json.write(row.json())).getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
    },
    CSV("text/csv; charset=UTF-8; header=present", "csv") {
        private static final byte[] BYTE_ORDER_MARK = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

        @Override
        void header(OutputStream out, List<String> columns) throws IOException {
            out.write(BYTE_ORDER_MARK);
            line(out, columns, index -> false);
        }

        @Override
        void row(OutputStream out, ExportedRow<?> row) throws IOException {
            line(out, row.cells(), row::isClientText);
        }

        private static void line(OutputStream out, List<String> cells, IntPredicate clientText) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cells.size(); i++) {
                if (i > 0) {
                    line.append(',');
                }
                CsvCells.append(line, cells.get(i), clientText.test(i));
            }
            line.append("\r\n");
            out.write(line.toString().getBytes(StandardCharsets.UTF_8));
        }
    };

    private final String contentType;
    private final String extension;

    ExportFormat(String contentType, String extension) {
        this.contentType = contentType;
        this.extension = extension;
    }

    String contentType() {
        return contentType;
    }

    String extension() {
        return extension;
    }

    abstract void header(OutputStream out, List<String> columns) throws IOException;

    abstract void row(OutputStream out, ExportedRow<?> row) throws IOException;
}
