package dev.herald;

import java.time.Clock;
import java.util.SplittableRandom;

import dev.herald.account.AdminAccess;
import dev.herald.account.AdminSettings;
import dev.herald.apikey.ActiveKeys;
import dev.herald.apikey.ApiKeyStore;
import dev.herald.changes.ChangeLog;
import dev.herald.export.ExportFigures;
import dev.herald.export.ExportService;
import dev.herald.export.ExportSettings;
import dev.herald.feed.FeedCacheSettings;
import dev.herald.feed.PublicFeedService;
import dev.herald.identity.UserTokenSettings;
import dev.herald.identity.UserTokens;
import dev.herald.notification.NotificationLimits;
import dev.herald.notification.NotificationStore;
import dev.herald.observe.Draining;
import dev.herald.outbox.Outbox;
import dev.herald.stats.StatsService;
import dev.herald.storage.Reports;
import dev.herald.storage.ServingDatabase;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.ratelimit.RateLimitSettings;
import dev.herald.tracking.RetentionSettings;
import dev.herald.tracking.TimestampWindow;
import dev.herald.tracking.TrackingBatchSettings;
import dev.herald.tracking.TrackingService;
import dev.herald.userstate.UserStates;
import dev.herald.webhook.DeliveryStore;
import dev.herald.webhook.DeliveryWorker;
import dev.herald.webhook.EndpointStore;
import dev.herald.webhook.HttpWebhookTransport;
import dev.herald.webhook.RetrySchedule;
import dev.herald.webhook.TransportSettings;
import dev.herald.webhook.WebhookSettings;
import dev.herald.wire.ServerLimits;

import io.helidon.config.Config;

/**
 * What one running Herald keeps beside the database: the change log that management writes announce through, the
 * stores that write through it, the public services that answer from memory (the feed cache, the known
 * notifications, the interaction and user state writers), who may use the management API (its sessions' key), and
 * the settings a reload changes ({@link LiveSettings}). One place owns their start and their stop order.
 */
public final class Services implements AutoCloseable {

    private final ServingDatabase database;
    private final Clock clock;
    private final ChangeLog changes;
    private final Outbox outbox;
    private final WebhookSettings webhooks;
    private final EndpointStore webhookEndpoints;
    private final DeliveryWorker deliveries;
    private final NotificationLimits limits;
    private final ApiKeyStore keys;
    private final NotificationStore notifications;
    private final UserTokens userTokens;
    private final PublicFeedService feed;
    private final TrackingService tracking;
    private final UserStates userStates;
    private final AdminAccess admin;
    private final LiveSettings live;
    private final ExportFigures exportFigures = new ExportFigures();
    private final Draining draining = new Draining();
    private final ExportService exports;
    private final Reports reports;

    private Services(ServingDatabase database, Config config, Clock clock) {
        FeedCacheSettings feedCache = FeedCacheSettings.from(config.get("feed.cache"));
        this.webhooks = WebhookSettings.from(config.get("webhooks"));
        this.database = database;
        this.clock = clock;
        this.changes = new ChangeLog(database.client(), clock, feedCache.maxStaleness());
        this.limits = NotificationLimits.from(config.get("limits"));
        this.keys = new ApiKeyStore(database.client(), changes, limits.feedBound());
        this.outbox = new Outbox(database, changes, feedCache.enabled(), webhooks.interactionWindow(), clock);
        this.notifications = new NotificationStore(database.client(), changes, limits.feedBound(), outbox);
        ActiveKeys activeKeys = new ActiveKeys(keys, changes, feedCache.enabled());
        this.userTokens = new UserTokens(database.client(), changes, feedCache.enabled(),
                                         UserTokenSettings.from(config.get("user-tokens")), clock);
        this.feed = new PublicFeedService(database.client(), activeKeys, userTokens, changes, feedCache, clock);
        ClientAddresses clients = new ClientAddresses(RateLimitSettings.from(config.get("rate-limit")));
        TrackingBatchSettings batch = TrackingBatchSettings.from(config.get("tracking.batch"));
        this.tracking = new TrackingService(database, notifications, changes, outbox, batch,
                                            RetentionSettings.from(config.get("tracking.retention")),
                                            config.get("tracking.metadata"), clients,
                                            TimestampWindow.from(config.get("tracking.timestamp-window")),
                                            userTokens, clock);
        this.userStates = new UserStates(database, batch.enabled() ? batch.groupCommit() : null, outbox,
                                         clock);
        this.webhookEndpoints = new EndpointStore(database.client(), changes);
        this.deliveries = new DeliveryWorker(new DeliveryStore(database.client()), webhookEndpoints, outbox,
                HttpWebhookTransport.create(TransportSettings.from(config.get("webhooks"))), webhooks,
                RetrySchedule.standard(new SplittableRandom()), clock);
        this.exports = new ExportService(database.client(),
                                         ExportSettings.from(config.get("tracking.export"), batch.maxWait()),
                                         exportFigures, clock);
        ServerLimits serverLimits = ServerLimits.from(config.get("limits"));
        // The answer, a 503 past a statement's bound among them, comes within the request's time.
        this.reports = database.reports(StatsService.connectionsAtOnce(serverLimits.adminReadsInFlight()),
                                        StatsService.statementBound(serverLimits.readTimeout()));
        this.admin = AdminAccess.create(AdminSettings.from(config.get("admin")), database.client(), clients, clock);
        this.live = LiveSettings.create(config, clients, admin, clock);
    }

    /** Built before the schema is current; nothing here reads the database until {@link #start()}. */
    public static Services create(ServingDatabase database, Config config, Clock clock) {
        return new Services(database, config, clock);
    }

    /**
     * Once the schema is current: loads what the caches hold and starts reading the change log; reads the session
     * cookies' key and ends the sessions of credentials no longer configured.
     */
    public void start() {
        changes.start();
        tracking.start();
        deliveries.start();
        admin.start();
    }

    /**
     * After the server stopped taking requests: the writer commits what it took, the change log stops, then the
     * pool closes.
     */
    @Override
    public void close() {
        // Claims no more, lets the deliveries in flight finish, releases what it still holds.
        deliveries.close();
        tracking.close();
        userStates.close();
        changes.close();
        reports.close();
        database.client().close();
    }

    public ServingDatabase database() {
        return database;
    }

    /** The stats' pool, bounded per statement. */
    public Reports reports() {
        return reports;
    }

    public Clock clock() {
        return clock;
    }

    public ExportService exports() {
        return exports;
    }

    /** Whether the instance is stopping and draining (observe.drain-period). */
    public Draining draining() {
        return draining;
    }

    public ExportFigures exportFigures() {
        return exportFigures;
    }

    public ChangeLog changes() {
        return changes;
    }

    /** Where writes put the events that webhook endpoints receive. */
    public Outbox outbox() {
        return outbox;
    }

    public WebhookSettings webhooks() {
        return webhooks;
    }

    public EndpointStore webhookEndpoints() {
        return webhookEndpoints;
    }

    /** The webhook delivery worker: its figures for the metrics. */
    public DeliveryWorker deliveries() {
        return deliveries;
    }

    public NotificationLimits limits() {
        return limits;
    }

    public ApiKeyStore keys() {
        return keys;
    }

    public NotificationStore notifications() {
        return notifications;
    }

    /** Who the user of a public request is, from its user token. */
    public UserTokens userTokens() {
        return userTokens;
    }

    public PublicFeedService feed() {
        return feed;
    }

    public TrackingService tracking() {
        return tracking;
    }

    /** Per-user state: its routes, public and management. */
    public UserStates userStates() {
        return userStates;
    }

    /** Who may use the management API: its filter and its session routes. */
    public AdminAccess admin() {
        return admin;
    }

    /** The settings a reload of the configuration changes, and the one holder of each. */
    public LiveSettings live() {
        return live;
    }
}
