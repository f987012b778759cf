package dev.herald.feed;

import java.time.Clock;
import java.util.List;

import dev.herald.apikey.ApiKey;
import dev.herald.apikey.ApiKeyStore;
import dev.herald.web.ApiException;
import dev.herald.web.Bodies;
import dev.herald.web.RouteFallbacks;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Get Notifications (public-api.md §4.1): a project's notifications for clients holding its public key.
 */
public final class PublicFeedService implements HttpService {

    /** public-api.md §4.1 rule 6. */
    static final int MAX_NOTIFICATIONS = 1000;

    /** HEAD is GET without the content (RFC 9110 §9.3.2). */
    private static final String ALLOWED_METHODS = "GET, HEAD, OPTIONS";

    private final ApiKeyStore keys;
    private final FeedStore feed;
    private final Clock clock;

    public PublicFeedService(DbClient db, Clock clock) {
        this.keys = new ApiKeyStore(db);
        this.feed = new FeedStore(db);
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/notifications", this::missingKey)
                .head("/notifications", this::missingKey)
                .get("/{apiKey}/notifications", this::list)
                .head("/{apiKey}/notifications", this::list)
                .any("/notifications", RouteFallbacks.methodNotAllowed(ALLOWED_METHODS))
                .any("/{apiKey}/notifications", RouteFallbacks.methodNotAllowed(ALLOWED_METHODS));
    }

    private void list(ServerRequest request, ServerResponse response) {
        ApiKey key = activeKey(request.path().pathParameters().get("apiKey"));
        List<FeedEntry> entries = feed.visible(key, clock.millis(), MAX_NOTIFICATIONS).stream()
                .sorted(FeedOrder.of(key.orderBy()))
                .toList();
        byte[] body = FeedJson.bytes(entries);
        String tag = EntityTag.of(body);
        response.header(HeaderNames.ETAG, tag);
        // Clients keep the body but always revalidate, so a publish or unpublish shows at once.
        response.header(HeaderNames.CACHE_CONTROL, "no-cache");
        if (EntityTag.matchesIfNoneMatch(request.headers(), tag)) {
            response.status(Status.NOT_MODIFIED_304).send();
            return;
        }
        response.header(HeaderNames.CONTENT_TYPE, "application/json");
        Bodies.send(request, response, body);
    }

    /** decisions §1: a missing key is 401 MISSING_API_KEY. */
    private void missingKey(ServerRequest request, ServerResponse response) {
        throw ApiException.error(Status.UNAUTHORIZED_401, "MISSING_API_KEY", "API key is required");
    }

    /** Malformed, unknown and revoked keys get the same answer, so it tells nothing about which keys exist. */
    private ApiKey activeKey(String key) {
        if (!ApiKey.isWellFormed(key)) {
            throw invalidKey();
        }
        return keys.findActive(key).orElseThrow(PublicFeedService::invalidKey);
    }

    private static ApiException invalidKey() {
        return ApiException.error(Status.UNAUTHORIZED_401, "INVALID_API_KEY", "Invalid API key");
    }
}
