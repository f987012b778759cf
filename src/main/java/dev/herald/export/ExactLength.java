package dev.herald.export;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * An answer's body that must be exactly the length it announced: writing past it, or closing short of it, fails
 * instead, and the failed handler leaves Helidon to close the connection with the answer unfinished. Rows read
 * twice (an export to an HTTP/1.0 client) may differ between the reads; a client then sees a broken transfer.
 */
final class ExactLength extends FilterOutputStream {

    private final long length;
    private long written;

    ExactLength(OutputStream out, long length) {
        super(out);
        this.length = length;
    }

    @Override
    public void write(int b) throws IOException {
        take(1);
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        take(len);
        out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
        if (written != length) {
            throw new IOException("The rows changed while they were read: " + written + " of the " + length
                                  + " bytes announced");
        }
        super.close();
    }

    private void take(long bytes) throws IOException {
        if (written + bytes > length) {
            throw new IOException("The rows changed while they were read: more than the " + length
                                  + " bytes announced");
        }
        written += bytes;
    }
}
