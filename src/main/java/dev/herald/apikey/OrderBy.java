package dev.herald.apikey;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The orderings a key can ask for (docs/api.md, GET /api/v1/public/{apiKey}/notifications, rule 3).
 */
public enum OrderBy {
    CREATED_AT_DESC("createdAt_desc"),
    CREATED_AT_ASC("createdAt_asc"),
    START_DATE_ASC("startDate_asc"),
    START_DATE_DESC("startDate_desc"),
    END_DATE_ASC("endDate_asc"),
    END_DATE_DESC("endDate_desc");

    public static final OrderBy DEFAULT = CREATED_AT_DESC;

    private final String wireName;

    OrderBy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Every wire name, in the order the API documents them. */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(OrderBy::wireName).toList();
    }

    public static Optional<OrderBy> fromWireName(String name) {
        return Arrays.stream(values()).filter(order -> order.wireName.equals(name)).findFirst();
    }
}
