package dev.herald.audience;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The operators of an audience condition (docs/api.md#audience), as they are named on the wire. Each says which value
 * it takes; the negated ones are exactly the negation of their positive (an absent attribute matches them).
 */
public enum Operator {
    EQUALS("equals", ValueKind.SCALAR),
    NOT_EQUALS("notEquals", ValueKind.SCALAR),
    IN("in", ValueKind.SCALARS),
    NOT_IN("notIn", ValueKind.SCALARS),
    CONTAINS("contains", ValueKind.TEXT),
    STARTS_WITH("startsWith", ValueKind.TEXT),
    EXISTS("exists", ValueKind.NONE),
    GREATER_THAN("greaterThan", ValueKind.NUMBER),
    LESS_THAN("lessThan", ValueKind.NUMBER),
    AT_LEAST("atLeast", ValueKind.NUMBER),
    AT_MOST("atMost", ValueKind.NUMBER),
    BEFORE("before", ValueKind.INSTANT),
    AFTER("after", ValueKind.INSTANT),
    WITHIN_LAST_DAYS("withinLastDays", ValueKind.DAYS),
    VERSION_AT_LEAST("versionAtLeast", ValueKind.VERSION),
    VERSION_BELOW("versionBelow", ValueKind.VERSION);

    /** The wire names, in this order: what a 400 lists as allowed. */
    public static final List<String> NAMES = Arrays.stream(values()).map(Operator::wireName).toList();

    private final String wireName;
    private final ValueKind value;

    Operator(String wireName, ValueKind value) {
        this.wireName = wireName;
        this.value = value;
    }

    public String wireName() {
        return wireName;
    }

    ValueKind value() {
        return value;
    }

    static Optional<Operator> named(String name) {
        return Arrays.stream(values()).filter(operator -> operator.wireName.equals(name)).findFirst();
    }

    /** What a condition's {@code value} must be for the operator. */
    enum ValueKind {
        /** a string, number or boolean */
        SCALAR,
        /** a non-empty array of strings, numbers or booleans */
        SCALARS,
        /** a non-empty string */
        TEXT,
        /** no value member at all */
        NONE,
        NUMBER,
        /** an ISO 8601 instant with a zone, or epoch seconds */
        INSTANT,
        /** a whole number of days, 1 to 36500 */
        DAYS,
        /** a dotted numeric version ({@link Version}) */
        VERSION
    }
}
