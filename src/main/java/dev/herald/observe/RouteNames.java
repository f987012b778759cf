package dev.herald.observe;

import java.util.Arrays;
import java.util.List;

/**
 * The route a path belongs to, as its template, so that metrics have one series per route rather than one per
 * key or id. Helidon 4.1 does not tell a filter which route matched; this list follows the services' routing and
 * {@code OpenApiTest} checks that it names the routes the
 * OpenAPI document describes.
 *
 * <p>Every request is named, so the path is compared segment by segment in place: no regular expression, and no
 * substring or array per request.
 */
final class RouteNames {

    static final String UNMATCHED = "unmatched";

    private static final List<String> TEMPLATES = List.of(
            "/api/v1/public/notifications",
            "/api/v1/public/{apiKey}/notifications",
            "/api/v1/public/track/{notificationId}",
            "/api/v1/public/track/{notificationId}/enhanced",
            "/api/v1/public/{apiKey}/users/me/state",
            "/api/v1/public/{apiKey}/users/me/read-all",
            "/api/v1/admin/projects",
            "/api/v1/admin/projects/{projectId}",
            "/api/v1/admin/projects/{projectId}/api-keys",
            "/api/v1/admin/projects/{projectId}/token-keys",
            "/api/v1/admin/projects/{projectId}/notifications",
            "/api/v1/admin/projects/{projectId}/notifications/archive",
            "/api/v1/admin/projects/{projectId}/stats",
            "/api/v1/admin/projects/{projectId}/export/interactions",
            "/api/v1/admin/projects/{projectId}/export/user-states",
            // Before {sub}: the first template that matches names the route.
            "/api/v1/admin/projects/{projectId}/users/erase",
            "/api/v1/admin/projects/{projectId}/users/{sub}",
            "/api/v1/admin/projects/{projectId}/webhooks",
            "/api/v1/admin/api-keys/{key}",
            "/api/v1/admin/token-keys/{kid}",
            "/api/v1/admin/webhooks/{endpointId}",
            "/api/v1/admin/webhooks/{endpointId}/rotate-secret",
            "/api/v1/admin/webhooks/{endpointId}/deliveries",
            "/api/v1/admin/webhooks/{endpointId}/deliveries/{eventId}/replay",
            "/api/v1/admin/webhooks/{endpointId}/replay",
            "/api/v1/admin/notifications/{id}",
            "/api/v1/admin/notifications/{id}/stats",
            "/api/v1/admin/notifications/{id}/draft",
            "/api/v1/admin/notifications/{id}/duplicate",
            "/api/v1/admin/notifications/{id}/audience-check",
            "/api/v1/admin/notifications/{id}/unpublish",
            "/api/v1/admin/notifications/{id}/versions",
            "/api/v1/admin/notifications/{id}/versions/{version}",
            "/api/v1/admin/notifications/{id}/versions/{version}/restore",
            "/api/v1/admin/notifications/{id}/translations",
            "/api/v1/admin/notifications/{id}/translations/{locale}",
            "/api/v1/admin/session",
            "/api/v1/admin/sessions",
            "/api/v1/admin/sessions/{id}",
            "/api/v1/admin/accounts",
            "/api/v1/admin/accounts/{name}",
            "/api/v1/admin/accounts/{name}/reset",
            "/api/v1/admin/invites/accept",
            "/api/v1/admin/audit",
            "/api/v1/admin/backups",
            "/observe/health",
            "/observe/health/live",
            "/observe/health/ready",
            "/observe/metrics",
            "/openapi");

    /** The index of paths that match no template: the one after the last template. */
    static final int UNMATCHED_INDEX = TEMPLATES.size();

    /** Each template's segments; null stands for a parameter, which matches any one non-empty segment. */
    private static final String[][] SEGMENTS = TEMPLATES.stream().map(RouteNames::segments).toArray(String[][]::new);

    private RouteNames() {
    }

    /** The template of the path's route, or {@link #UNMATCHED}. */
    static String of(String path) {
        return name(indexOf(path));
    }

    /** The position of the path's route in {@link #templates()}, or {@link #UNMATCHED_INDEX}. */
    static int indexOf(String path) {
        for (int i = 0; i < SEGMENTS.length; i++) {
            if (matches(SEGMENTS[i], path)) {
                return i;
            }
        }
        return UNMATCHED_INDEX;
    }

    /** The template at {@code index}, or {@link #UNMATCHED} for {@link #UNMATCHED_INDEX}. */
    static String name(int index) {
        return index == UNMATCHED_INDEX ? UNMATCHED : TEMPLATES.get(index);
    }

    /** How many names there are, {@link #UNMATCHED} included. */
    static int count() {
        return TEMPLATES.size() + 1;
    }

    static List<String> templates() {
        return TEMPLATES;
    }

    private static boolean matches(String[] segments, String path) {
        int at = 0;
        for (String segment : segments) {
            if (at >= path.length() || path.charAt(at) != '/') {
                return false;
            }
            int start = at + 1;
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            boolean same = segment == null
                    ? end > start
                    : end - start == segment.length() && path.regionMatches(start, segment, 0, segment.length());
            if (!same) {
                return false;
            }
            at = end;
        }
        return at == path.length();
    }

    private static String[] segments(String template) {
        return Arrays.stream(template.substring(1).split("/"))
                .map(segment -> segment.startsWith("{") ? null : segment)
                .toArray(String[]::new);
    }
}
