package dev.herald.audience;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;
import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Reads an audience tree and checks every rule of docs/api.md#audience; each mistake is a 400 VALIDATION_ERROR whose
 * {@code details.field} is the path of the mistake in the request ({@code audience.all[2].operator}). The bounds keep
 * evaluation cheap on the feed's path, where every targeted notification's rules run for every user's first request.
 */
final class AudienceParser {

    static final int MAX_DEPTH = 8;
    static final int MAX_CONDITIONS = 100;
    static final int MAX_BYTES = 16 * 1024;
    /** A claim's string is at most this long (docs/identity.md): a longer value could never match. */
    static final int MAX_TEXT = 256;
    static final int MAX_LIST = 100;
    static final int MAX_DAYS = 36_500;
    /** The names an attrs member may have (docs/identity.md), and so the names a condition may test. */
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final List<String> CONDITION_MEMBERS = List.of("attribute", "operator", "value");
    private static final List<String> NODES = List.of("all", "any", "not", "rollout", "attribute");

    private int conditions;

    private AudienceParser() {
    }

    /** @param path the member's name in the request ({@code audience}) */
    static Rule parse(JsonValue value, String path) {
        int bytes = Json.write(value).getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw ApiException.validation(path, String.format(Locale.ROOT, "%s is too large: %,d bytes of JSON, more"
                    + " than the %,d allowed", path, bytes, MAX_BYTES));
        }
        return new AudienceParser().node(value, path, 1);
    }

    private Rule node(JsonValue value, String path, int depth) {
        if (!(value instanceof JsonObject node)) {
            throw ApiException.validation(path, path + " must be an object: {\"all\":[…]}, {\"any\":[…]}, {\"not\":{…}},"
                    + " {\"rollout\":N} or a condition {\"attribute\",\"operator\",\"value\"}", NODES);
        }
        if (depth > MAX_DEPTH) {
            throw ApiException.validation(path, path + " is nested too deep: at most " + MAX_DEPTH + " levels");
        }
        if (node.containsKey("all") || node.containsKey("any")) {
            String kind = node.containsKey("all") ? "all" : "any";
            onlyMember(node, kind, path);
            List<Rule> rules = list(node.get(kind), path + "." + kind, depth);
            return new Rule.Group(path, rules, kind.equals("all"));
        }
        if (node.containsKey("not")) {
            onlyMember(node, "not", path);
            return new Rule.Not(path, node(node.get("not"), path + ".not", depth + 1));
        }
        if (node.containsKey("rollout")) {
            onlyMember(node, "rollout", path);
            count(path);
            return new Rule.Rollout(path, (int) whole(node.get("rollout"), path + ".rollout", 0, 100));
        }
        if (node.containsKey("attribute") || node.containsKey("operator")) {
            count(path);
            return condition(node, path);
        }
        throw ApiException.validation(path, path + " must hold one of all, any, not, rollout or a condition"
                + " (attribute, operator, value)", NODES);
    }

    private List<Rule> list(JsonValue value, String path, int depth) {
        if (!(value instanceof JsonArray array) || array.isEmpty()) {
            throw ApiException.validation(path, path + " must be a non-empty array of rules");
        }
        List<Rule> rules = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            rules.add(node(array.get(i), path + "[" + i + "]", depth + 1));
        }
        return List.copyOf(rules);
    }

    private static void onlyMember(JsonObject node, String member, String path) {
        for (String name : node.keySet()) {
            if (!name.equals(member)) {
                throw ApiException.validation(path + "." + name, path + " is a \"" + member + "\" node: "
                        + path + "." + name + " does not belong in it");
            }
        }
    }

    private void count(String path) {
        if (++conditions > MAX_CONDITIONS) {
            throw ApiException.validation(path, "an audience holds at most " + MAX_CONDITIONS + " conditions and"
                    + " rollouts; " + path + " is one more");
        }
    }

    private static Condition condition(JsonObject node, String path) {
        for (String name : node.keySet()) {
            if (!CONDITION_MEMBERS.contains(name)) {
                throw ApiException.validation(path + "." + name, path + "." + name + " is not a member of a condition:"
                        + " attribute, operator, value", CONDITION_MEMBERS);
            }
        }
        String attribute = attribute(node.get("attribute"), path + ".attribute");
        Operator operator = operator(node.get("operator"), path + ".operator");
        String valuePath = path + ".value";
        JsonValue value = node.get("value");
        if (operator.value() == Operator.ValueKind.NONE) {
            if (value != null) {
                throw ApiException.validation(valuePath, operator.wireName() + " takes no value: leave "
                        + valuePath + " out");
            }
            return new Condition(path, attribute, operator, null);
        }
        if (value == null) {
            throw ApiException.validation(valuePath, valuePath + " is required for " + operator.wireName());
        }
        return new Condition(path, attribute, operator, value(operator, value, valuePath));
    }

    private static String attribute(JsonValue value, String path) {
        if (!(value instanceof JsonString name) || !ATTRIBUTE.matcher(name.getString()).matches()) {
            throw ApiException.validation(path, path + " must be sub, locale or the name of an attrs member: 1 to 64"
                    + " letters, digits, _, . or -");
        }
        return name.getString();
    }

    private static Operator operator(JsonValue value, String path) {
        if (value instanceof JsonString name) {
            var operator = Operator.named(name.getString());
            if (operator.isPresent()) {
                return operator.get();
            }
        }
        throw ApiException.validation(path, path + " must be one of " + String.join(", ", Operator.NAMES),
                                      Operator.NAMES);
    }

    private static Object value(Operator operator, JsonValue value, String path) {
        return switch (operator.value()) {
            case SCALAR -> scalar(value, path, operator);
            case SCALARS -> scalars(value, path, operator);
            case TEXT -> text(value, path, operator);
            case NUMBER -> number(value, path, operator);
            case INSTANT -> instant(value, path, operator);
            case DAYS -> Condition.daysInMillis(whole(value, path, 1, MAX_DAYS));
            case VERSION -> version(value, path, operator);
            case NONE -> throw new IllegalStateException("no value");
        };
    }

    private static Object scalar(JsonValue value, String path, Operator operator) {
        return switch (value.getValueType()) {
            case STRING -> boundedText(((JsonString) value).getString(), path);
            case NUMBER -> number(value, path, operator);
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            default -> throw ApiException.validation(path, path + " must be a string, a number or a boolean for "
                    + operator.wireName());
        };
    }

    private static List<Object> scalars(JsonValue value, String path, Operator operator) {
        if (!(value instanceof JsonArray array) || array.isEmpty() || array.size() > MAX_LIST) {
            throw ApiException.validation(path, path + " must be an array of 1 to " + MAX_LIST + " strings, numbers or"
                    + " booleans for " + operator.wireName());
        }
        List<Object> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            values.add(scalar(array.get(i), path + "[" + i + "]", operator));
        }
        return List.copyOf(values);
    }

    private static String text(JsonValue value, String path, Operator operator) {
        if (!(value instanceof JsonString text) || text.getString().isEmpty()) {
            throw ApiException.validation(path, path + " must be a non-empty string for " + operator.wireName());
        }
        return boundedText(text.getString(), path);
    }

    private static String boundedText(String text, String path) {
        if (text.length() > MAX_TEXT) {
            throw ApiException.validation(path, path + " is longer than the " + MAX_TEXT + " characters a claim's"
                    + " string may have: it could never match");
        }
        return text;
    }

    /** A Long when the number is whole and fits, a Double otherwise. */
    private static Number number(JsonValue value, String path, Operator operator) {
        if (!(value instanceof JsonNumber number)) {
            throw ApiException.validation(path, path + " must be a number for " + operator.wireName());
        }
        if (number.isIntegral()) {
            try {
                return number.bigDecimalValue().longValueExact();
            } catch (ArithmeticException e) {
                // Beyond a long: compared as a double.
            }
        }
        double real = number.doubleValue();
        if (!Double.isFinite(real)) {
            throw ApiException.validation(path, path + " is out of range");
        }
        return real;
    }

    private static long whole(JsonValue value, String path, long min, long max) {
        if (value instanceof JsonNumber number && number.isIntegral()) {
            try {
                long whole = number.bigDecimalValue().longValueExact();
                if (whole >= min && whole <= max) {
                    return whole;
                }
            } catch (ArithmeticException e) {
                // Out of range: refused below.
            }
        }
        throw ApiException.validation(path, path + " must be a whole number from " + min + " to " + max);
    }

    private static Long instant(JsonValue value, String path, Operator operator) {
        long millis = Instants.NONE;
        if (value instanceof JsonString text) {
            millis = Instants.parse(text.getString());
        } else if (value instanceof JsonNumber number) {
            millis = Instants.seconds(number.doubleValue());
        }
        if (millis == Instants.NONE) {
            throw ApiException.validation(path, path + " must be an ISO 8601 date-time with a zone"
                    + " (2026-03-01T00:00:00Z) or seconds since the epoch, for " + operator.wireName());
        }
        return millis;
    }

    private static Version version(JsonValue value, String path, Operator operator) {
        if (value instanceof JsonString text) {
            var version = Version.parse(text.getString());
            if (version.isPresent()) {
                return version.get();
            }
        }
        throw ApiException.validation(path, path + " must be a dotted numeric version (2.3.1, 2.10, 3.0.0-beta.1)"
                + " for " + operator.wireName());
    }
}
