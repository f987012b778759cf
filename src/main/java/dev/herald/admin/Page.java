package dev.herald.admin;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a management list, and where the next one starts when there is one.
 *
 * @param next the cursor of the next page; empty on the last
 */
public record Page<T>(List<T> items, Optional<PageRequest.Cursor> next) {

    /**
     * From rows read with one more than the page's limit: that one only says a next page exists.
     *
     * @param cursorOf the cursor after an item
     */
    public static <T> Page<T> of(List<T> readOneMore, int limit, Function<T, PageRequest.Cursor> cursorOf) {
        if (readOneMore.size() <= limit) {
            return new Page<>(readOneMore, Optional.empty());
        }
        List<T> items = readOneMore.subList(0, limit);
        return new Page<>(List.copyOf(items), Optional.of(cursorOf.apply(items.getLast())));
    }
}
