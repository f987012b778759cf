package dev.herald.api;

import java.io.OutputStream;

/** Counts the bytes written to it and keeps none: the length of an answer before it is written. */
public final class ByteCount extends OutputStream {

    private long bytes;

    @Override
    public void write(int b) {
        bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        bytes += len;
    }

    public long bytes() {
        return bytes;
    }
}
