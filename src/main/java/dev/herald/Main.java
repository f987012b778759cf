package dev.herald;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicReference;

import dev.herald.account.AdminAccess;
import dev.herald.account.AdminSettings;
import dev.herald.account.AuthFailureSettings;
import dev.herald.account.Credentials;
import dev.herald.admin.AdminReads;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.SecurityHeadersFilter;
import dev.herald.api.SingleHeadersFilter;
import dev.herald.apikey.ApiKeyAdminService;
import dev.herald.audit.AuditService;
import dev.herald.backup.BackupService;
import dev.herald.backup.BackupSettings;
import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;
import dev.herald.config.ConfigWatcher;
import dev.herald.config.HeraldConfig;
import dev.herald.console.ConsoleService;
import dev.herald.console.RootPointer;
import dev.herald.cors.CorsSettings;
import dev.herald.export.ExportSettings;
import dev.herald.feed.FeedCacheSettings;
import dev.herald.identity.TokenKeyAdminService;
import dev.herald.identity.UserTokenSettings;
import dev.herald.logging.LogSetup;
import dev.herald.notification.NotificationAdminService;
import dev.herald.notification.NotificationLimits;
import dev.herald.observe.AccessLogFilter;
import dev.herald.observe.HealthService;
import dev.herald.observe.Metrics;
import dev.herald.observe.MetricsFilter;
import dev.herald.observe.MetricsService;
import dev.herald.observe.ObserveSettings;
import dev.herald.observe.OpenApiService;
import dev.herald.project.ProjectAdminService;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.ratelimit.ConnectionsPerClient;
import dev.herald.ratelimit.RateLimitSettings;
import dev.herald.ratelimit.RequestLimit;
import dev.herald.sdk.SdkService;
import dev.herald.startup.Ahead;
import dev.herald.stats.StatsService;
import dev.herald.storage.Database;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.StartingDatabase;
import dev.herald.tracking.RetentionSettings;
import dev.herald.tracking.TimestampWindow;
import dev.herald.tracking.TrackingService;
import dev.herald.tracking.TrackingBatchSettings;
import dev.herald.wire.BodyBudget;
import dev.herald.wire.ConnectionCloseFilter;
import dev.herald.wire.FramingFilter;
import dev.herald.wire.HttpVersions;
import dev.herald.wire.JsonDirectHandler;
import dev.herald.webhook.WebhookAdminService;
import dev.herald.webhook.TransportSettings;
import dev.herald.webhook.WebhookSettings;
import dev.herald.wire.ServerLimits;
import dev.herald.wire.StrictChunkContext;

import io.helidon.config.Config;
import io.helidon.dbclient.DbClient;
import io.helidon.http.media.MediaContext;
import io.helidon.http.media.jsonp.JsonpSupport;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;

/**
 * Starts Herald: configuration, database, routes, server.
 */
public final class Main {

    private Main() {
    }

    // Asked for when a line is written, not when the class loads: the JDK's first look for a logging back end scans
    // the class path, and the configuration's thread begins before it (issue 33).
    private static System.Logger log() {
        return System.getLogger(Main.class.getName());
    }

    /**
     * @param args optional: the configuration file of this environment (else {@code HERALD_CONFIG})
     */
    public static void main(String[] args) {
        // The log format writes times with a Z, and Herald keeps all its times in UTC: without this the log would
        // show the host's local time marked as UTC.
        TimeZone.setDefault(TimeZone.getTimeZone(ZoneOffset.UTC));
        if (answersAlone(args)) {
            return;
        }
        // Begun before logging is set up, and depending on nothing else: the configuration on a thread of its own,
        // what the start needs next on another, in the order it needs them. On two cores they shorten the main
        // thread's path to the first answer (docs/performance.md, issue 33).
        Ahead<Config> config = HeraldConfig.readAhead(args);
        Ahead<Void> registry = HelidonRegistry.installing();
        List<Ahead<?>> next = new ArrayList<>(List.of(HeraldConfig.defaultsReading(), registry));
        next.addAll(Database.ahead());
        next.addAll(List.of(HttpVersions.building(), HelidonRegistry.serialFilter(), Database.firstQueryAhead()));
        Ahead.inOrder("herald-ahead", next);
        LogSetup.configure();
        try {
            start(args, config, registry);
        } catch (RuntimeException e) {
            StartFailures.exit(e);
        }
    }

    /**
     * {@code --help}, {@code --version} and {@code account} answer before logging starts, so that standard output
     * holds their answer alone, which a script reads (a new account's token).
     */
    private static boolean answersAlone(String[] args) {
        try {
            return Arguments.answeredAlone(args);
        } catch (BadSetting e) {
            if (args.length > 0 && args[0].equals("account")) {
                // A command, not a start: "Herald did not start" misled (an operator's trial). Its output is the
                // account's entry for a script to read; the refusal goes to standard error, exit 1.
                System.err.println("herald account: " + e.getMessage());
                System.exit(1);
            }
            LogSetup.configure();
            StartFailures.exit(e);
            return true;
        } catch (RuntimeException e) {
            LogSetup.configure();
            StartFailures.exit(e);
            return true;
        }
    }

    private static void start(String[] args, Ahead<Config> configuration, Ahead<Void> registry) {
        log().log(Level.INFO, "Herald " + Version.current() + " starting on Java " + Runtime.version());
        Config config = configuration.get();
        checkSettings(config);
        ObserveSettings observe = ObserveSettings.from(config.get("observe"));
        String host = ConfigValues.string(config.get("server.host")).orElse("0.0.0.0");
        // Before the database: a taken port must not cost a migration, nor end in exit code 0.
        int port = ConfigValues.port(config.get("server.port"), 8080);
        ListenAddresses.requireDistinct(port, observe.port());
        ListenAddresses.requireFree(host, port, "server.host, SERVER_HOST", "server.port, SERVER_PORT");
        ListenAddresses.requireFree(observe.host(), observe.port(), "observe.host, OBSERVE_HOST",
                                    "observe.port, OBSERVE_PORT");
        // Nothing of Helidon's but its configuration and logging before this.
        registry.get();
        // Helidon reads its server.* settings here: one it cannot read ends the start before the database is touched.
        WebServerConfig.Builder builder = WebServer.builder()
                .config(config.get("server"))
                // Our own handler below stops the server before the database it writes through.
                .shutdownHook(false);
        Clock clock = Clock.systemUTC();
        // A SIGTERM from here on says so: during the migrations it ended the JVM without a line. What it runs becomes
        // the server's stop once there is a server.
        AtomicReference<Runnable> stopping = new AtomicReference<>(Main::stopWhileStarting);
        ShutdownHook.install(() -> stopping.get().run());
        // The schema is migrated on a thread of its own while the server is built; it listens only afterwards.
        StartingDatabase database = Database.start(config.get("db"), clock);
        Services services = Services.create(database.serving(), config, clock);
        // The services' first reads (the change log, the keys, the ids) wait for the schema and then the database:
        // they run beside the building of the routes and the server, which needs neither.
        Ahead<Void> started = new Ahead<>(() -> {
            database.awaitSchema();
            services.start();
            return null;
        });
        started.begin("herald-services");
        server(builder, config, services);
        WebServer server = builder.build();
        started.get();
        // Before the server starts, so that it never serves without its stop in place.
        stopping.set(() -> stop(server, services, observe.drainPeriod()));
        server.start();
        // A listener that did bind keeps the JVM alive: the exit of StartFailures ends it, the shutdown hook the rest.
        ListenAddresses.requireListening(server, WebServer.DEFAULT_SOCKET_NAME, "server.port, SERVER_PORT");
        ListenAddresses.requireListening(server, ObserveSettings.SOCKET, "observe.port, OBSERVE_PORT");
        Reconfiguration.watch(args, config, services);

        log().log(Level.INFO, "Herald listening on http://" + host + ":" + server.port()
                + "; health, metrics and OpenAPI on http://" + observe.host() + ":" + server.port(ObserveSettings.SOCKET));
    }

    /**
     * Everything the server needs besides its socket settings; the tests start the same server. The public API on
     * the default listener, health, metrics and OpenAPI on the operations listener.
     */
    public static void server(WebServerConfig.Builder server, Config config, Services services) {
        Metrics metrics = new Metrics();
        ObserveSettings observe = ObserveSettings.from(config.get("observe"));
        ServerLimits limits = ServerLimits.from(config.get("limits"));
        ClientAddresses clients = services.live().clients();
        Http1Config http1 = HttpVersions.http1Config();
        MediaContext media = mediaContext();
        if (!config.get("server.media-context").exists()) {
            server.mediaContext(media);
        }
        limits.applyTo(server);
        // The only selector, so that it sees every connection as it is accepted (ConnectionsPerClient).
        server.protocolsDiscoverServices(false)
                .protocols(List.of())
                .connectionSelectors(List.of(ConnectionsPerClient.proxiesExempt(StrictChunkContext::of, http1,
                        clients, limits.perClient(), "limits.connections-per-client", limits.readTimeout(),
                        limits.proxyIdleTimeout())))
                .directHandlers(JsonDirectHandler.forAllEvents())
                // No buffer in front of a response's output stream: the cached feed is written through it as the
                // array itself (Bodies.sendShared); nothing else writes through it.
                .writeBufferSize(0)
                .routing(routing -> publicRouting(routing, config, services, metrics, limits))
                .putSocket(ObserveSettings.SOCKET, socket -> {
                    observe.applyTo(socket);
                    ServerLimits.sockets(socket, ServerLimits.DEFAULT_SEND_BUFFER_BYTES);
                    socket.protocolsDiscoverServices(false)
                            .mediaContext(media)
                            .protocols(List.of())
                            .connectionSelectors(List.of(ConnectionsPerClient.everyPeerLimited(
                                    StrictChunkContext::of, http1, clients, observe.perClient(),
                                    "observe.connections-per-client", observe.readTimeout())))
                            .directHandlers(JsonDirectHandler.forAllEvents());
                })
                .routing(ObserveSettings.SOCKET, routing -> observeRouting(routing, config, services, metrics));
    }

    /**
     * Helidon's media supports for both listeners, its defaults and JSON-P (api.JsonAnswers), named: it would find
     * JSON-P through ServiceLoader for each listener, 10 ms of the main thread's start (issue 33). A
     * {@code server.media-context} setting still replaces it on the API's listener.
     */
    private static MediaContext mediaContext() {
        return MediaContext.builder()
                .mediaSupportsDiscoverServices(false)
                .addMediaSupport(JsonpSupport.create())
                .build();
    }

    /** The API's route table. Filters run in the order added: CORS answers preflights before the rate limit counts. */
    private static void publicRouting(HttpRouting.Builder routing, Config config, Services services, Metrics metrics,
                                      ServerLimits limits) {
        DbClient db = services.database().client();
        Clock clock = services.clock();
        LiveSettings live = services.live();
        ErrorResponses.register(routing);
        routing.addFilter(new SecurityHeadersFilter())
                .addFilter(new MetricsFilter(metrics));
        connectionFilters(routing, config, services);
        ClientAddresses clients = live.clients();
        AdminAccess admin = services.admin();
        routing.addFilter(new SingleHeadersFilter())
                .addFilter(live.cors())
                .addFilter(live.publicRateLimit())
                .addFilter(live.managementRateLimit())
                .addFilter(admin.filter())
                .addFilter(new AdminReads(limits.adminReadsInFlight()))
                .addFilter(new BodyBudget(limits.bodyBytesInFlight(), clients::clientOf))
                .register(ApiPaths.PUBLIC, services.feed(), services.tracking(),
                          services.userStates().publicRoutes(services.feed(), services.userTokens(), clock))
                .register(ApiPaths.ADMIN, admin.sessionService(), admin.teamService(), new ProjectAdminService(db, services.changes(), clock),
                          new ApiKeyAdminService(db, services.keys(), clock),
                          new TokenKeyAdminService(db, services.userTokens(), clock),
                          new NotificationAdminService(db, services.notifications(), services.limits(), clock),
                          new WebhookAdminService(db, services.webhookEndpoints(), services.webhooks(), clock),
                          new StatsService(db, services.reports(), limits.adminReadsInFlight()),
                          services.exports(), new AuditService(db),
                          services.userStates().adminRoutes(clock),
                          BackupService.create(db, config.get("db"), limits.readTimeout(), clock))
                .register(SdkService.PATH, SdkService.create(config.get("sdk")))
                .register(ConsoleService.PATH, new ConsoleService())
                .register(new RootPointer())
                .any(RouteFallbacks::notFound);
    }

    /** For operators and orchestrators only: not counted by the rate limit, not in the API's metrics. */
    private static void observeRouting(HttpRouting.Builder routing, Config config, Services services, Metrics metrics) {
        ServingDatabase database = services.database();
        ErrorResponses.register(routing);
        routing.addFilter(new SecurityHeadersFilter());
        connectionFilters(routing, config, services);
        // DOWN for a second past a tracking request's longest wait after a failure: between two failures too.
        Duration holdDown = TrackingBatchSettings.from(config.get("tracking.batch")).maxWait().plusSeconds(1);
        routing.register("/observe/health", new HealthService(database.client(), database.pool()::refused,
                                                              () -> services.tracking().writerFigures().failed(),
                                                              holdDown, services.draining()))
                .register("/observe/metrics", new MetricsService(metrics, database.pool()::figures,
                                                                 services.feed()::cacheFigures,
                                                                 services.userTokens()::cacheFigures,
                                                                 services.tracking()::writerFigures,
                                                                 services.tracking()::lookupFigures,
                                                                 services.deliveries()::figures,
                                                                 services.reports()::figures))
                .register("/openapi", new OpenApiService())
                .any(RouteFallbacks::notFound);
    }

    /** On either listener: the access log, and connections closed where Helidon would keep them. */
    private static void connectionFilters(HttpRouting.Builder routing, Config config, Services services) {
        if (ConfigValues.bool(config.get("access-log.enabled"), false)) {
            ClientAddresses clients = services.live().clients();
            routing.addFilter(new AccessLogFilter(clients::addressOf, HttpVersions::isHttp10));
        }
        routing.addFilter(new ConnectionCloseFilter(services.draining()::isDraining))
                .addFilter(new FramingFilter());
    }

    /**
     * Reads the settings a person can get wrong before anything starts: a mistake ends the start with the line that
     * names the setting, before the database is opened or migrated. The db settings are read first thing in
     * {@link Database#start}, before it connects. A reload of the configuration is checked here too, and kept out
     * whole by a mistake ({@link Reconfiguration}).
     */
    static void checkSettings(Config config) {
        ConfigValues.port(config.get("server.port"), 8080);
        ConfigValues.duration(config.get("server.shutdown-grace-period"), Duration.ofSeconds(5));
        ConfigValues.bool(config.get("access-log.enabled"), false);
        ConfigValues.bool(config.get("sdk.demo.enabled"), false);
        FeedCacheSettings.from(config.get("feed.cache"));
        UserTokenSettings.from(config.get("user-tokens"));
        TrackingBatchSettings batch = TrackingBatchSettings.from(config.get("tracking.batch"));
        ExportSettings.from(config.get("tracking.export"), batch.maxWait());
        RetentionSettings.from(config.get("tracking.retention"));
        TrackingService.checkSettings(config.get("tracking"));
        AuthFailureSettings.from(config.get("admin.auth-failures"));
        CorsSettings.from(config.get("cors"));
        RateLimitSettings.from(config.get("rate-limit"));
        RequestLimit.management(config.get("admin.rate-limit"));
        Credentials.of(AdminSettings.from(config.get("admin")));
        ServerLimits.from(config.get("limits"));
        NotificationLimits.from(config.get("limits"));
        TimestampWindow.from(config.get("tracking.timestamp-window"));
        ObserveSettings.from(config.get("observe"));
        BackupSettings.from(config.get("db.backup"));
        WebhookSettings.from(config.get("webhooks"))
                .requireLeaseBeyond(TransportSettings.from(config.get("webhooks")).timeout());
        ConfigWatcher.interval(config);
    }

    /**
     * SIGTERM before the server was built (migrating the schema, say): nothing to stop but the JVM. A migration cut
     * short is not recorded as applied; the next start applies it again, after the lock's lease (docs/operations.md).
     * A start that failed has said why already.
     */
    private static void stopWhileStarting() {
        if (!StartFailures.hasEnded()) {
            log().log(Level.INFO, "Herald stopping during its start: the database keeps what was applied; the next"
                    + " start goes on from there");
        }
    }

    /**
     * SIGTERM: serve on for the drain period with readiness DOWN, then stop taking connections, let requests in flight
     * finish (their interactions committed by the writer, which still runs), then the writer commits whatever it still
     * holds, then the pool closes.
     */
    private static void stop(WebServer server, Services services, Duration drainPeriod) {
        if (drainPeriod.isZero()) {
            log().log(Level.INFO, "Herald stopping");
        } else {
            services.draining().begin();
            log().log(Level.INFO, "Herald stopping: readiness DOWN, serving " + drainPeriod.toMillis() + " ms more,"
                    + " each answer closing its connection (observe.drain-period)");
            try {
                Thread.sleep(drainPeriod);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log().log(Level.INFO, "Herald stopping: drained");
        }
        server.stop();
        services.close();
        log().log(Level.INFO, "Herald stopped");
    }
}
