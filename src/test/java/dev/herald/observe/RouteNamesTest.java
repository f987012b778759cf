package dev.herald.observe;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Route names are matched segment by segment; a parameter stands for one non-empty segment, as the regular
 * expression {@code [^/]+} did before.
 */
class RouteNamesTest {

    @Test
    void aParameterIsOneNonEmptySegment() {
        assertThat(RouteNames.of("/api/v1/public/k/notifications"), is("/api/v1/public/{apiKey}/notifications"));
        assertThat(RouteNames.of("/api/v1/public//notifications"), is(RouteNames.UNMATCHED));
        assertThat(RouteNames.of("/api/v1/public/a/b/notifications"), is(RouteNames.UNMATCHED));
        assertThat(RouteNames.of("/api/v1/public/track/n1/enhanced"), is("/api/v1/public/track/{notificationId}/enhanced"));
        assertThat(RouteNames.of("/api/v1/admin/projects/p1"), is("/api/v1/admin/projects/{projectId}"));
    }

    @Test
    void literalsMatchWholeSegmentsOnly() {
        for (String path : List.of("/openapix", "/openap", "/openapi/", "/observe/health/", "/observe/healthy",
                                   "/api/v1/admin/projects/", "/api/v1/admin/projectsx", "", "/", "//openapi",
                                   "/OPENAPI", "openapi")) {
            assertThat(path, RouteNames.of(path), is(RouteNames.UNMATCHED));
        }
        assertThat(RouteNames.of("/openapi"), is("/openapi"));
        assertThat(RouteNames.of("/observe/health"), is("/observe/health"));
    }

    @Test
    void namesAgreeWithTheTemplatesReadAsRegularExpressions() {
        List<String> paths = List.of("/api/v1/public/notifications", "/api/v1/public/notifications/x",
                                     "/api/v1/public/track/x", "/api/v1/public/track//enhanced",
                                     "/api/v1/public/track/x/enhanced/", "/api/v1/admin/api-keys/k",
                                     "/api/v1/admin/api-keys", "/api/v1/admin/notifications/i/stats",
                                     "/api/v1/admin/projects/p/stats", "/api/v1/admin/projects/p/api-keys",
                                     "/observe/metrics", "/observe/health/ready", "/observe/health/live/x",
                                     "/api/v1/public/ä/notifications", "/api/v1/public/a b/notifications");
        for (String path : paths) {
            assertThat(path, RouteNames.of(path), is(byRegularExpression(path)));
        }
    }

    @Test
    void indexesAndNamesCorrespond() {
        for (int i = 0; i < RouteNames.templates().size(); i++) {
            assertThat(RouteNames.name(i), is(RouteNames.templates().get(i)));
        }
        assertThat(RouteNames.name(RouteNames.UNMATCHED_INDEX), is(RouteNames.UNMATCHED));
        assertThat(RouteNames.count(), is(RouteNames.templates().size() + 1));
    }

    /** The matcher this class used to be. */
    private static String byRegularExpression(String path) {
        for (String template : RouteNames.templates()) {
            if (Pattern.compile(template.replaceAll("\\{[^}]+}", "[^/]+")).matcher(path).matches()) {
                return template;
            }
        }
        return RouteNames.UNMATCHED;
    }
}
