package dev.herald.api;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.helidon.common.parameters.Parameters;
import io.helidon.common.uri.UriPath;
import io.helidon.http.PathMatcher;
import io.helidon.http.PathMatchers;
import io.helidon.http.RoutedPath;

/** The segment walk against Helidon's own matcher of the same template (a regular expression), which it replaces. */
class SegmentPathTest {

    private static final String[] TEMPLATES = {
        "/track/{notificationId}", "/track/{notificationId}/enhanced", "/{apiKey}/notifications", "/{a}/{b}",
        "/a.b-c/{x}/d", "/{only}",
    };
    /** Pieces of paths near the templates: their words, empty and doubled segments, encoded slashes and spaces. */
    private static final String[] PIECES = {
        "/", "/", "/", "track", "enhanced", "notifications", "a.b-c", "d", "a", "b", "x", ".", "-", "%2F", "%20", "%2f",
        "n_1", "é", "tracks", "enhance", ";", "=",
    };

    @Test
    void everyPathIsMatchedAsHelidonsMatcherOfTheSameTemplateMatchesIt() {
        SplittableRandom random = new SplittableRandom(20261130L);
        int accepted = 0;
        for (String template : TEMPLATES) {
            PathMatcher helidon = PathMatchers.create(template);
            SegmentPath ours = SegmentPath.of(template);
            for (int i = 0; i < 40_000; i++) {
                String raw = randomPath(random);
                String expected = outcome(helidon, raw);
                assertThat(template + " on " + raw, outcome(ours, raw), is(expected));
                accepted += expected.startsWith("accepted") ? 1 : 0;
            }
        }
        assertThat("enough paths matched a template to compare what was read from them", accepted > 5_000, is(true));
    }

    @Test
    void theRoutesPathsAreMatchedAndTheirParametersRead() {
        RoutedPath path = SegmentPath.of("/track/{notificationId}/enhanced")
                .match(UriPath.create("/track/n-1_X/enhanced")).path();
        assertThat(path.pathParameters().get("notificationId"), is("n-1_X"));
        assertThat(SegmentPath.of("/track/{notificationId}").match(UriPath.create("/track/n1/enhanced")).accepted(),
                   is(false));
        assertThat(SegmentPath.of("/track/{notificationId}").match(UriPath.create("/track/")).accepted(), is(false));
        assertThat(SegmentPath.of("/{a}/{b}").match(UriPath.create("/x/y")).path().pathParameters().get("b"), is("y"));
        assertThat(SegmentPath.of("/{a}/{b}").matchingElement().orElseThrow(), is("/{a}/{b}"));
    }

    @Test
    void templatesWithMoreThanPlainSegmentsAndParametersAreRefused() {
        for (String template : new String[] {
            "/", "", "track/{id}", "/track/", "/a//b", "/track/{id:\\d+}", "/a/*", "/a/[b]", "/a/{+rest}", "/a/{}",
            "/a/x{id}", "/a/{id}x", "/{id}/{id}", "/a%2Fb", "/a\\b",
        }) {
            assertThrows(IllegalArgumentException.class, () -> SegmentPath.of(template), template);
        }
    }

    /** Whether the matcher took the path, with the path and parameters it gave, or the exception it threw. */
    private static String outcome(PathMatcher matcher, String raw) {
        try {
            PathMatchers.MatchResult result = matcher.match(UriPath.create(raw));
            return result.accepted()
                    ? "accepted " + result.path().path() + " " + result.path().rawPath() + " " + parameters(result.path())
                    : "not accepted";
        } catch (RuntimeException e) {
            return e.getClass().getName();
        }
    }

    private static String randomPath(SplittableRandom random) {
        StringBuilder path = new StringBuilder("/");
        int pieces = random.nextInt(0, 7);
        for (int i = 0; i < pieces; i++) {
            path.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return path.toString();
    }

    /** Name to value, in name order. */
    private static TreeMap<String, String> parameters(RoutedPath path) {
        Parameters parameters = path.pathParameters();
        TreeMap<String, String> all = new TreeMap<>();
        for (String name : parameters.names()) {
            all.put(name, parameters.get(name));
        }
        return all;
    }
}
