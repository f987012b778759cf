package dev.herald.wire;

import java.nio.charset.Charset;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataListener;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataReader.IncorrectNewLineException;
import io.helidon.common.buffers.LazyString;
import io.helidon.http.DirectHandler;
import io.helidon.http.RequestException;
import io.helidon.http.Status;

/**
 * A connection's reader, as Helidon's HTTP/1.1 connection sees it, holding chunked bodies (RFC 9112 §7.1) to one
 * form and to a bounded memory. Helidon 4.1.7 and 4.5.0 read chunks the same way (checked on 4.5.0: without this
 * reader, {@code StrictFramingTest}'s chunk cases and {@code HostileClientsTest}'s endless chunks fail). Helidon reads a chunk as {@code readLine()}, then {@code readBuffer(size)} and
 * {@code skip(2)}, and reads the line after the last chunk with {@code readLine()}; nothing else in its HTTP/1.1
 * server calls {@code readLine()}. Unchecked, that parser:
 * <ul>
 * <li>reads a chunk-size line until it ends, however long: one request of endless digits, or a trailer line that
 *     never ends, filled an 80 MB heap in under two seconds;</li>
 * <li>holds a whole chunk in memory before handing any of it on, at any size the line names (up to 2 GiB): a
 *     tracking route that reads 64 KiB held as much as the client sent;</li>
 * <li>reads {@code +10} as 16 ({@code Integer.parseUnsignedInt}), where a proxy in front may read it otherwise;</li>
 * <li>skips the two bytes after a chunk's data without looking at them.</li>
 * </ul>
 * Here a chunk-size line is 1 to 8 hexadecimal digits and nothing else (no sign, no white space, no extension;
 * leading zeros are hexadecimal digits too), read within {@value #MAX_LINE} bytes; the bytes after a chunk's data
 * must be CRLF; and a chunk is handed to Helidon as pieces of at most {@value #PIECE} bytes, and of no more than
 * has arrived, so a route that stops reading at its limit holds at most one piece beyond it and answers as soon as
 * the byte past its limit is in. Any other form is a 400
 * and the connection is closed, as for every ambiguous framing ({@link FramingFilter}).
 *
 * <p>A request line read as {@code HTTP/1.0} is handed on as 1.1 ({@link RequestVersion}). Every other call goes
 * to Helidon's own reader unchanged: this class holds none of the data itself.
 *
 * <p>{@code DataReader} has no other constructor than the one deprecated for removal in 4.4.0: when it goes, this
 * class no longer compiles, and what it guards is said above and tested in {@code StrictFramingTest}. If Helidon
 * stops reading bodies through the connection context's reader, those tests fail.
 */
final class StrictChunkReader extends DataReader {

    /** The longest chunk-size line or trailer line read: 8 digits is a chunk of up to 4 GiB. */
    static final int MAX_LINE = 8;
    /** The most of one chunk Helidon is asked to hold at once. */
    static final int PIECE = 16 * 1024;

    private final DataReader reader;
    private final RequestVersion version;
    /** Bytes of the client's current chunk not yet handed on as pieces. */
    private long chunkLeft;
    /** What the {@code skip(2)} after the piece just handed on must do. */
    private AfterPiece afterPiece = AfterPiece.NOTHING_PENDING;
    /** The next line is the one after the last chunk, not a chunk size. */
    private boolean lastChunkRead;
    /**
     * A refused chunk leaves the connection's bytes unframed: nothing more is read from it, or Helidon, closing the
     * request's stream, would read on past the refused bytes and take what follows as the next request.
     */
    private boolean refused;

    private enum AfterPiece {
        NOTHING_PENDING,
        /** The chunk goes on: the next piece follows without a line of its own. */
        SKIP_NOTHING,
        /** The chunk ended with this piece: its CRLF must follow. */
        READ_CRLF
    }

    StrictChunkReader(DataReader reader, RequestVersion version) {
        super(() -> {
            throw new IllegalStateException("StrictChunkReader reads through the connection's own reader");
        });
        this.reader = reader;
        this.version = version;
    }

    @Override
    public String readLine() {
        requireFramed();
        if (chunkLeft > 0) {
            return nextPiece();
        }
        String line = boundedLine();
        if (lastChunkRead) {
            // Helidon refuses anything but the empty line here (a trailer section): its answer is a 400 too.
            lastChunkRead = false;
            return line;
        }
        chunkLeft = chunkSize(line);
        if (chunkLeft == 0) {
            lastChunkRead = true;
            return "0";
        }
        return nextPiece();
    }

    @Override
    public void skip(int length) {
        requireFramed();
        AfterPiece after = afterPiece;
        afterPiece = AfterPiece.NOTHING_PENDING;
        switch (after) {
            case NOTHING_PENDING -> reader.skip(length);
            case SKIP_NOTHING -> { }
            case READ_CRLF -> {
                if (reader.read() != '\r' || reader.read() != '\n') {
                    throw refuse("A chunk's data is not followed by CRLF");
                }
            }
        }
    }

    /**
     * At most what has arrived (once something has): Helidon waits until a piece is complete, and a route that has
     * read one byte past its limit must not wait for more before it answers 413.
     */
    private String nextPiece() {
        reader.ensureAvailable();
        long piece = Math.min(Math.min(chunkLeft, PIECE), reader.available());
        chunkLeft -= piece;
        afterPiece = chunkLeft == 0 ? AfterPiece.READ_CRLF : AfterPiece.SKIP_NOTHING;
        return Long.toHexString(piece);
    }

    private String boundedLine() {
        int end;
        try {
            end = reader.findNewLine(MAX_LINE + 1);
        } catch (IncorrectNewLineException e) {
            throw refuse("A chunk-size or trailer line ends in a bare CR or LF");
        }
        if (end > MAX_LINE) {
            throw refuse("A chunk-size or trailer line is longer than " + MAX_LINE + " bytes");
        }
        String line = reader.readAsciiString(end);
        reader.skip(2);
        return line;
    }

    private long chunkSize(String line) {
        if (line.isEmpty()) {
            throw refuse("A chunk-size line is empty");
        }
        long size = 0;
        for (int i = 0; i < line.length(); i++) {
            size = size * 16 + hexDigit(line.charAt(i));
        }
        return size;
    }

    /** ASCII only: {@code Character.digit} would also take other scripts' digits. */
    private int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
            return (c | 0x20) - 'a' + 10;
        }
        throw refuse("A chunk size is not hexadecimal digits only");
    }

    private void requireFramed() {
        if (refused) {
            throw failure("The connection's framing was refused before");
        }
    }

    /** The connection closes after the 400: what follows is not read as another request. */
    private RequestException refuse(String why) {
        refused = true;
        return failure(why);
    }

    private static RequestException failure(String why) {
        return RequestException.builder()
                .type(DirectHandler.EventType.BAD_REQUEST)
                .status(Status.BAD_REQUEST_400)
                .message(why)
                .setKeepAlive(false)
                .build();
    }

    @Override
    public int available() {
        return reader.available();
    }

    @Override
    public void pullData() {
        reader.pullData();
    }

    @Override
    public void ensureAvailable() {
        reader.ensureAvailable();
    }

    @Override
    public byte read() {
        return reader.read();
    }

    @Override
    public byte lookup() {
        return reader.lookup();
    }

    @Override
    public boolean startsWithNewLine() {
        return reader.startsWithNewLine();
    }

    @Override
    public boolean startsWith(byte[] prefix) {
        return reader.startsWith(prefix);
    }

    @Override
    public BufferData readBuffer() {
        return reader.readBuffer();
    }

    @Override
    public BufferData readBuffer(int length) {
        requireFramed();
        return reader.readBuffer(length);
    }

    @Override
    public BufferData getBuffer(int length) {
        return reader.getBuffer(length);
    }

    @Override
    public LazyString readLazyString(Charset charset, int length) {
        return reader.readLazyString(charset, length);
    }

    @Override
    public String readAsciiString(int length) {
        return reader.readAsciiString(length);
    }

    @Override
    public byte[] readBytes(int length) {
        return version.read(reader.readBytes(length));
    }

    @Override
    public int findOrNewLine(byte b, int max) {
        return reader.findOrNewLine(b, max);
    }

    @Override
    public String debugDataHex() {
        return reader.debugDataHex();
    }

    @Override
    public int findNewLine(int max) {
        requireFramed();
        return reader.findNewLine(max);
    }

    @Override
    public <T> void listener(DataListener<T> listener, T context) {
        reader.listener(listener, context);
    }
}
