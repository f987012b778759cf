package dev.herald.observe;

import java.util.List;

import io.helidon.http.Method;

/**
 * The method label of a request's metrics. Any method but the standard ones counts as {@code OTHER}: a client
 * cannot grow the series without bound by inventing methods.
 */
final class MethodNames {

    private static final List<String> NAMES = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER");

    private MethodNames() {
    }

    /** The position of the method's label in {@link #name(int)}'s order. */
    static int indexOf(Method method) {
        return switch (method.text()) {
            case "GET" -> 0;
            case "HEAD" -> 1;
            case "POST" -> 2;
            case "PUT" -> 3;
            case "PATCH" -> 4;
            case "DELETE" -> 5;
            case "OPTIONS" -> 6;
            default -> 7;
        };
    }

    static String name(int index) {
        return NAMES.get(index);
    }

    static int count() {
        return NAMES.size();
    }
}
