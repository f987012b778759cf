package dev.herald.feed;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.Bodies;
import dev.herald.api.EntityTag;
import dev.herald.api.RequestLanguages;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.SegmentPath;
import dev.herald.apikey.ActiveKeys;
import dev.herald.apikey.ApiKey;
import dev.herald.changes.ChangeLog;
import dev.herald.identity.UserIdentity;
import dev.herald.identity.UserTokens;

import io.helidon.common.uri.UriQuery;
import io.helidon.dbclient.DbClient;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Get Notifications (docs/api.md, GET /api/v1/public/{apiKey}/notifications): a project's notifications for clients
 * holding its public key, answered from memory ({@link FeedCache}) where the same answer was already built.
 */
public final class PublicFeedService implements HttpService {

    /** docs/api.md, GET /api/v1/public/{apiKey}/notifications, rule 3. */
    static final int MAX_NOTIFICATIONS = 1000;

    /** HEAD is GET without the content (RFC 9110 §9.3.2). */
    private static final String ALLOWED_METHODS = "GET, HEAD, OPTIONS";
    /** Clients keep the body but always revalidate, so a publish or unpublish shows at once. */
    private static final Header NO_CACHE = ResponseHeaders.fixed(HeaderNames.CACHE_CONTROL, "no-cache");
    /**
     * An answer for a token is that user's (it may hold targeted notifications): no shared cache keeps it, even one
     * that caches by URL alone; Vary tells one that caches by headers that the token makes the answer.
     */
    private static final Header PRIVATE_NO_CACHE = ResponseHeaders.fixed(HeaderNames.CACHE_CONTROL,
                                                                             "private, no-cache");
    private static final Header VARY_TOKEN = ResponseHeaders.fixed(HeaderNames.VARY,
                                                                       "Authorization, Accept-Language");
    /** Every answer may be in another language for another Accept-Language (docs/api.md#languages). */
    private static final Header VARY = ResponseHeaders.fixed(HeaderNames.VARY, "Accept-Language");
    /** docs/api.md#languages: the reader's language, when no token's claim names one. */
    private static final String LOCALE_PARAMETER = "locale";
    private static final Header JSON = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, "application/json");

    private final ActiveKeys keys;
    private final UserTokens users;
    private final FeedStore feed;
    private final FeedCache cache;
    private final Clock clock;

    public PublicFeedService(DbClient db, ActiveKeys keys, UserTokens users, ChangeLog changes,
                             FeedCacheSettings settings, Clock clock) {
        this.keys = keys;
        this.users = users;
        this.feed = new FeedStore(db);
        this.cache = new FeedCache(this::load, changes, settings);
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        SegmentPath keyed = SegmentPath.of("/{apiKey}/notifications");
        rules.get("/notifications", this::missingKey)
                .head("/notifications", this::missingKey)
                .route(Method.predicate(Method.GET, Method.HEAD), keyed, this::list)
                .any("/notifications", RouteFallbacks.methodNotAllowed(ALLOWED_METHODS))
                .route(Method.predicate(), keyed, RouteFallbacks.methodNotAllowed(ALLOWED_METHODS));
    }

    /** The cache's figures, for {@code /observe/metrics}. */
    public FeedCacheFigures cacheFigures() {
        return cache.figures();
    }

    /**
     * The key's answer at {@code now} for a request with this verified user, or without a token (empty): the
     * notifications for everyone and those whose audience the user matches. What the feed route serves, and what a
     * per-user summary of the feed must count: in the user's language, the same notifications as in any other.
     */
    public FeedAnswer answer(ApiKey key, Optional<UserIdentity> user, long now) {
        return cache.answer(key, user.orElse(null), null, null, now);
    }

    /**
     * The key's answer at {@code now} for this request as the feed route would serve it, in the language its token,
     * {@code locale} parameter and {@code Accept-Language} choose: what a per-user state names as its {@code feedTag}.
     */
    public FeedAnswer answer(ApiKey key, UserIdentity user, ServerRequest request, long now) {
        return cache.answer(key, user, localeParameter(request), RequestLanguages.acceptLanguage(request), now);
    }

    /** What an answer for a user's token varies by: added to, never replacing, the CORS filter's Vary: Origin. */
    public static void varyForUser(ServerResponse response) {
        response.headers().add(VARY_TOKEN);
    }

    private void list(ServerRequest request, ServerResponse response) {
        ApiKey key = activeKey(request.path().pathParameters().get("apiKey"));
        // A bad token, or none where the key requires one, is refused (401); without one the answer is the same as
        // before user tokens, byte for byte; with one, it adds the targeted notifications the user matches.
        Optional<UserIdentity> user = users.identify(request, key);
        FeedAnswer answer = cache.answer(key, user.orElse(null), localeParameter(request),
                                         RequestLanguages.acceptLanguage(request), clock.millis());
        try {
            send(request, response, answer, user.isPresent());
        } finally {
            answer.sent().run();
        }
    }

    private static void send(ServerRequest request, ServerResponse response, FeedAnswer answer, boolean forUser) {
        response.header(answer.etag());
        response.header(answer.language());
        if (forUser) {
            response.header(PRIVATE_NO_CACHE);
            varyForUser(response);
        } else {
            response.header(NO_CACHE);
            response.headers().add(VARY);
        }
        if (EntityTag.matchesIfNoneMatch(request.headers(), answer.tag())) {
            response.status(Status.NOT_MODIFIED_304).send();
            return;
        }
        response.header(JSON);
        Bodies.sendShared(request, response, answer.body());
    }

    /**
     * The {@code locale} parameter, or null. Asked only when present: {@code first} of an absent one builds an empty
     * value through the global mapper, per request.
     */
    private static String localeParameter(ServerRequest request) {
        UriQuery query = request.query();
        return query.contains(LOCALE_PARAMETER) ? query.get(LOCALE_PARAMETER) : null;
    }

    /**
     * The key of a public route's path, or 401 INVALID_API_KEY. Malformed, unknown and revoked keys get the same
     * answer, so it tells nothing about which keys exist.
     */
    public ApiKey activeKey(String key) {
        if (!ApiKey.isWellFormed(key)) {
            throw invalidKey();
        }
        return keys.find(key).orElseThrow(PublicFeedService::invalidKey);
    }

    private KeyFeed load(ApiKey key, long now, boolean toKeep) {
        String defaultLocale = feed.defaultLocale(key);
        List<FeedEntry> entries = feed.visible(key, defaultLocale, now, MAX_NOTIFICATIONS).stream()
                .sorted(FeedOrder.of(key.orderBy()))
                .toList();
        List<KeyFeed.Targeted> targeted = feed.targeted(key, defaultLocale, now, MAX_NOTIFICATIONS);
        long validUntil = toKeep ? feed.nextChange(key, now) : now + 1;
        return KeyFeed.of(key, defaultLocale, entries, targeted, now, validUntil);
    }

    /** A missing key is 401 MISSING_API_KEY (docs/api.md, GET /api/v1/public/notifications). */
    private void missingKey(ServerRequest request, ServerResponse response) {
        throw ApiException.error(Status.UNAUTHORIZED_401, "MISSING_API_KEY", "API key is required");
    }

    private static ApiException invalidKey() {
        return ApiException.error(Status.UNAUTHORIZED_401, "INVALID_API_KEY", "Invalid API key");
    }
}
