package dev.herald.export;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What exports read from the database: pages, rows, and the most rows one page held, the bound of what an export
 * keeps in memory at once (tests check it; the memory of an answer never grows with its size).
 */
public final class ExportFigures {

    private final AtomicLong pages = new AtomicLong();
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong largestPage = new AtomicLong();

    void page(int rowsRead) {
        pages.incrementAndGet();
        rows.addAndGet(rowsRead);
        largestPage.accumulateAndGet(rowsRead, Math::max);
    }

    public long pages() {
        return pages.get();
    }

    public long rows() {
        return rows.get();
    }

    public long largestPage() {
        return largestPage.get();
    }
}
