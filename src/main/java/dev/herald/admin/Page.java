package dev.herald.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * One page of a management list: its items, each with the cursor that starts the list after it, and whether more
 * follow. Every item keeps its cursor so that the answer may end the page earlier than the store did
 * ({@link AdminResponses#page}, which stops at a number of bytes) and still name where the next page starts.
 *
 * @param more whether the list goes on after the last item
 */
public record Page<T>(List<Item<T>> entries, boolean more) {

    /** How many rows a page reads at a time: a page of a thousand large rows is never in memory at once. */
    static final int CHUNK = 50;
    /**
     * A page stops reading once its items hold this many characters: none of them is written in fewer bytes than
     * characters, so the answer would stop there anyway ({@link AdminResponses#MAX_ANSWER_BYTES}).
     */
    static final long MAX_CHARACTERS_READ = AdminResponses.MAX_ANSWER_BYTES;

    public record Item<T>(T value, PageRequest.Cursor cursor) {
    }

    /** The rows of a list after {@code after}, at most {@code limit} of them, in the list's order. */
    @FunctionalInterface
    public interface Rows<T> {
        List<Item<T>> after(PageRequest.Cursor after, int limit);
    }

    public List<T> items() {
        return entries.stream().map(Item::value).toList();
    }

    /** The cursor of the next page; empty on the last. */
    public Optional<PageRequest.Cursor> next() {
        return more && !entries.isEmpty() ? Optional.of(entries.getLast().cursor()) : Optional.empty();
    }

    /** The first {@code count} items, and a next page after them. */
    Page<T> first(int count) {
        return count >= entries.size() ? this : new Page<>(entries.subList(0, count), true);
    }

    /**
     * The page {@code request} asks for, read {@value #CHUNK} rows at a time, starting at {@code start} when the
     * request names no cursor. It ends at the request's limit, at the end of the list, or once its items hold
     * {@value #MAX_CHARACTERS_READ} characters as {@code characters} counts them (an item never cut).
     */
    public static <T> Page<T> read(PageRequest request, PageRequest.Cursor start, Rows<T> rows,
                                   ToLongFunction<T> characters) {
        List<Item<T>> entries = new ArrayList<>();
        PageRequest.Cursor after = request.after().orElse(start);
        long read = 0;
        while (true) {
            int take = Math.min(CHUNK, request.limit() - entries.size());
            List<Item<T>> chunk = rows.after(after, take + 1);
            boolean more = chunk.size() > take;
            for (Item<T> entry : chunk.subList(0, Math.min(take, chunk.size()))) {
                entries.add(entry);
                read += characters.applyAsLong(entry.value());
                if (read >= MAX_CHARACTERS_READ && (more || entry != chunk.get(chunk.size() - 1))) {
                    return new Page<>(entries, true);
                }
            }
            if (!more || entries.size() == request.limit()) {
                return new Page<>(entries, more);
            }
            after = entries.getLast().cursor();
        }
    }
}
