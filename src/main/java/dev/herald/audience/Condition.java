package dev.herald.audience;

import java.util.List;

import dev.herald.identity.UserIdentity;

/**
 * One test of a user's claim (docs/api.md#audience). Attribute {@code sub} is the token's subject and {@code locale}
 * its locale claim; every other name is a member of its {@code attrs} (so an attrs member named {@code sub} or
 * {@code locale} cannot be addressed: the claims come first). No coercion between types: a number never equals the
 * string of its digits, and an attribute of the wrong type simply does not match.
 *
 * @param value as {@link AudienceParser} read it for the operator: a String, Long, Double or Boolean; a List of those
 *              for in and notIn; epoch millis (Long) for before and after; millis of N days for withinLastDays; a
 *              {@link Version}; null for exists
 */
record Condition(String path, String attribute, Operator operator, Object value) implements Rule {

    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final int NOT_COMPARABLE = Integer.MIN_VALUE;

    static long daysInMillis(long days) {
        return days * MILLIS_PER_DAY;
    }

    @Override
    public boolean matches(UserIdentity user, String notificationId, long now) {
        Object claim = claim(user);
        return switch (operator) {
            case EQUALS -> same(claim, value);
            case NOT_EQUALS -> !same(claim, value);
            case IN -> in(claim);
            case NOT_IN -> !in(claim);
            case CONTAINS -> contains(claim);
            case STARTS_WITH -> startsWith(claim);
            case EXISTS -> claim != null;
            case GREATER_THAN -> ordered(compare(claim), 1, 1);
            case LESS_THAN -> ordered(compare(claim), -1, -1);
            case AT_LEAST -> ordered(compare(claim), 0, 1);
            case AT_MOST -> ordered(compare(claim), -1, 0);
            case BEFORE -> before(Instants.millis(claim), (Long) value);
            case AFTER -> after(Instants.millis(claim), (Long) value);
            case WITHIN_LAST_DAYS -> within(Instants.millis(claim), now, (Long) value);
            case VERSION_AT_LEAST -> ordered(version(claim), 0, 1);
            case VERSION_BELOW -> ordered(version(claim), -1, -1);
        };
    }

    private Object claim(UserIdentity user) {
        return switch (attribute) {
            case "sub" -> user.subject();
            case "locale" -> user.locale();
            default -> user.attributes().get(attribute);
        };
    }

    /** Equal scalars: strings and booleans as they are, numbers by value (3 equals 3.0). */
    private static boolean same(Object claim, Object wanted) {
        if (claim instanceof Number number && wanted instanceof Number other) {
            if (number instanceof Long a && other instanceof Long b) {
                return a.longValue() == b.longValue();
            }
            return Double.compare(number.doubleValue(), other.doubleValue()) == 0;
        }
        return claim != null && claim.equals(wanted);
    }

    /** A scalar in the list, or a string array with a member in it. */
    private boolean in(Object claim) {
        List<?> wanted = (List<?>) value;
        if (claim instanceof List<?> strings) {
            for (Object member : strings) {
                if (inList(member, wanted)) {
                    return true;
                }
            }
            return false;
        }
        return inList(claim, wanted);
    }

    private static boolean inList(Object claim, List<?> wanted) {
        for (Object candidate : wanted) {
            if (same(claim, candidate)) {
                return true;
            }
        }
        return false;
    }

    /** A string holding the text, or a string array holding it as a member. */
    private boolean contains(Object claim) {
        if (claim instanceof String text) {
            return text.contains((String) value);
        }
        return claim instanceof List<?> strings && strings.contains(value);
    }

    /** A string that starts with the text, or a string array with a member that does. */
    private boolean startsWith(Object claim) {
        if (claim instanceof String text) {
            return text.startsWith((String) value);
        }
        if (claim instanceof List<?> strings) {
            for (Object member : strings) {
                if (((String) member).startsWith((String) value)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a comparison's sign is within [low, high]; a claim that cannot be compared passes no test. */
    private static boolean ordered(int compared, int low, int high) {
        if (compared == NOT_COMPARABLE) {
            return false;
        }
        int sign = Integer.signum(compared);
        return sign >= low && sign <= high;
    }

    /** The sign of claim - value for a number claim, or {@link #NOT_COMPARABLE}. */
    private int compare(Object claim) {
        if (!(claim instanceof Number number)) {
            return NOT_COMPARABLE;
        }
        Number wanted = (Number) value;
        if (number instanceof Long a && wanted instanceof Long b) {
            return Long.compare(a, b);
        }
        return Double.compare(number.doubleValue(), wanted.doubleValue());
    }

    /** As {@link #compare}, for versions: a claim that is no version passes neither test. */
    private int version(Object claim) {
        if (!(claim instanceof String text)) {
            return NOT_COMPARABLE;
        }
        return Version.parse(text).map(version -> version.compareTo((Version) value)).orElse(NOT_COMPARABLE);
    }

    private static boolean before(long claim, long instant) {
        return claim != Instants.NONE && claim < instant;
    }

    private static boolean after(long claim, long instant) {
        return claim != Instants.NONE && claim > instant;
    }

    /** Within the N days up to now, both ends included; a future instant is not "within the last" days. */
    private static boolean within(long claim, long now, long span) {
        return claim != Instants.NONE && claim <= now && claim >= now - span;
    }
}
