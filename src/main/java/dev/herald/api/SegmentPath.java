package dev.herald.api;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import io.helidon.common.parameters.Parameters;
import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;
import io.helidon.http.RoutedPath;

/**
 * A route's path template, such as {@code /track/{notificationId}/enhanced}, matched segment by segment. Helidon's
 * {@code PathMatchers.create} turns such a template into a regular expression and runs it on every route it tries,
 * then again to read the parameters: on the tracking path that was some 9 % of Herald's CPU per request (JFR,
 * docs/performance.md). This answers what Helidon's matcher answers for the same template (SegmentPathTest holds the
 * two together on random paths) with a walk over the path's characters.
 *
 * <p>Only the templates Herald's hot routes use: literal segments and parameters that are whole segments,
 * {@code {name}}, each matching one or more characters other than {@code /} of the decoded path. The rest of Helidon's
 * syntax ({@code [optional]}, {@code *}, {@code {name:regex}}, {@code {+name}}) is refused when the route is made.
 * Made for a route's path; as a service's prefix ({@link #prefixMatch}) it is Helidon's own matcher.
 */
public final class SegmentPath implements PathMatcher {

    private static final String COMPONENT = "http/path";
    private static final String[] QUALIFIERS = {"http", "path"};
    private static final Parameters NO_PARAMETERS = Parameters.empty(COMPONENT);

    private final String template;
    /** Per segment: its literal text, or null for a parameter. */
    private final String[] literals;
    /** Per segment: the parameter's name, or null for a literal. */
    private final String[] names;
    /** The indexes of the parameters' segments. */
    private final int[] parameters;
    private final PathMatcher helidon;

    private SegmentPath(String template, String[] literals, String[] names) {
        this.template = template;
        this.helidon = PathMatchers.create(template);
        this.literals = literals;
        this.names = names;
        this.parameters = IntStream.range(0, names.length).filter(i -> names[i] != null).toArray();
    }

    /** The matcher of a template such as {@code /{apiKey}/notifications}; IllegalArgumentException for any other syntax. */
    public static SegmentPath of(String template) {
        if (!template.startsWith("/") || template.length() == 1 || template.endsWith("/")) {
            throw new IllegalArgumentException("not a path of segments: " + template);
        }
        String[] segments = template.substring(1).split("/", -1);
        String[] literals = new String[segments.length];
        String[] names = new String[segments.length];
        Set<String> named = new HashSet<>();
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.length() > 2 && segment.startsWith("{") && segment.endsWith("}")
                    && isPlain(segment.substring(1, segment.length() - 1))) {
                names[i] = segment.substring(1, segment.length() - 1);
                if (!named.add(names[i])) {
                    throw new IllegalArgumentException("parameter {" + names[i] + "} twice in " + template);
                }
            } else if (!segment.isEmpty() && isPlain(segment)) {
                literals[i] = segment;
            } else {
                throw new IllegalArgumentException("segment '" + segment + "' of " + template
                                                           + " is neither plain text nor a {parameter}");
            }
        }
        return new SegmentPath(template, literals, names);
    }

    /** Text with nothing Helidon's template syntax or a URI's encoding would read otherwise. */
    private static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            if ("{}[]*\\:+%".indexOf(text.charAt(i)) >= 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public PathMatchers.MatchResult match(UriPath uriPath) {
        String path = uriPath.path();
        String[] values = new String[literals.length];
        int end = walk(path, values);
        if (end != path.length()) {
            return PathMatchers.MatchResult.notAccepted();
        }
        return new PathMatchers.MatchResult(true, new Routed(uriPath, parameters(values)));
    }

    /** A service's prefix is never on the hot path: Helidon's own matcher of the template answers. */
    @Override
    public PathMatchers.PrefixMatchResult prefixMatch(UriPath uriPath) {
        return helidon.prefixMatch(uriPath);
    }

    /**
     * Walks the template's segments over the path from its start, filling in the parameters' values: where the
     * template's last segment ends in the path, or -1 where a segment does not match.
     */
    private int walk(String path, String[] values) {
        int at = 0;
        for (int i = 0; i < literals.length; i++) {
            if (at >= path.length() || path.charAt(at) != '/') {
                return -1;
            }
            int start = at + 1;
            int next = path.indexOf('/', start);
            int end = next < 0 ? path.length() : next;
            String literal = literals[i];
            if (literal != null) {
                if (end - start != literal.length() || !path.startsWith(literal, start)) {
                    return -1;
                }
            } else if (end == start) {
                return -1;
            } else {
                values[i] = path.substring(start, end);
            }
            at = end;
        }
        return at;
    }

    private Parameters parameters(String[] values) {
        if (parameters.length == 0) {
            return NO_PARAMETERS;
        }
        if (parameters.length == 1) {
            int i = parameters[0];
            return Parameters.create(COMPONENT, Map.of(names[i], List.of(values[i])), QUALIFIERS);
        }
        Map<String, List<String>> all = HashMap.newHashMap(parameters.length);
        for (int i : parameters) {
            all.put(names[i], List.of(values[i]));
        }
        return Parameters.create(COMPONENT, all, QUALIFIERS);
    }

    @Override
    public Optional<String> matchingElement() {
        return Optional.of(template);
    }

    @Override
    public String toString() {
        return "segments: " + template;
    }

    /** The request's path with the template's parameters. */
    private record Routed(UriPath uriPath, Parameters pathParameters) implements RoutedPath {

        @Override
        public String rawPath() {
            return uriPath.rawPath();
        }

        @Override
        public String rawPathNoParams() {
            return uriPath.rawPathNoParams();
        }

        @Override
        public String path() {
            return uriPath.path();
        }

        @Override
        public Parameters matrixParameters() {
            return uriPath.matrixParameters();
        }

        @Override
        public void validate() {
            uriPath.validate();
        }

        @Override
        public RoutedPath absolute() {
            return new Routed(uriPath.absolute(), pathParameters);
        }

        @Override
        public String toString() {
            return uriPath + " (" + pathParameters + ")";
        }
    }
}
