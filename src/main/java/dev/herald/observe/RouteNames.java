package dev.herald.observe;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The route a path belongs to, as its template, so that metrics have one series per route rather than one per
 * key or id. Helidon 4.1 does not tell a filter which route matched; this list follows the services' routing and
 * {@code OpenApiTest} checks that it names the routes the
 * OpenAPI document describes.
 */
final class RouteNames {

    static final String UNMATCHED = "unmatched";

    private static final List<String> TEMPLATES = List.of(
            "/api/v1/public/notifications",
            "/api/v1/public/{apiKey}/notifications",
            "/api/v1/public/track/{notificationId}",
            "/api/v1/public/track/{notificationId}/enhanced",
            "/api/v1/admin/projects",
            "/api/v1/admin/projects/{projectId}",
            "/api/v1/admin/projects/{projectId}/api-keys",
            "/api/v1/admin/projects/{projectId}/notifications",
            "/api/v1/admin/projects/{projectId}/stats",
            "/api/v1/admin/api-keys/{key}",
            "/api/v1/admin/notifications/{id}",
            "/api/v1/admin/notifications/{id}/stats",
            "/observe/health",
            "/observe/health/live",
            "/observe/health/ready",
            "/observe/metrics",
            "/openapi");

    private static final List<Route> ROUTES = TEMPLATES.stream()
            .map(template -> new Route(template, Pattern.compile(template.replaceAll("\\{[^}]+}", "[^/]+"))))
            .toList();

    private RouteNames() {
    }

    static String of(String path) {
        for (Route route : ROUTES) {
            if (route.pattern().matcher(path).matches()) {
                return route.template();
            }
        }
        return UNMATCHED;
    }

    static List<String> templates() {
        return TEMPLATES;
    }

    private record Route(String template, Pattern pattern) {
    }
}
