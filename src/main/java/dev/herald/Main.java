package dev.herald;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.TimeZone;

import dev.herald.admin.AdminAuthFilter;
import dev.herald.apikey.ApiKeyAdminService;
import dev.herald.cors.CorsFilter;
import dev.herald.cors.CorsSettings;
import dev.herald.feed.PublicFeedService;
import dev.herald.notification.NotificationAdminService;
import dev.herald.observe.AccessLogFilter;
import dev.herald.observe.HealthService;
import dev.herald.observe.Metrics;
import dev.herald.observe.MetricsFilter;
import dev.herald.observe.MetricsService;
import dev.herald.observe.OpenApiService;
import dev.herald.project.ProjectAdminService;
import dev.herald.ratelimit.RateLimitFilter;
import dev.herald.ratelimit.RateLimitSettings;
import dev.herald.stats.StatsService;
import dev.herald.storage.Database;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.StartingDatabase;
import dev.herald.tracking.TrackingService;
import dev.herald.web.ApiPaths;
import dev.herald.web.ConnectionCloseFilter;
import dev.herald.web.ErrorResponses;
import dev.herald.web.JsonDirectHandler;
import dev.herald.web.RouteFallbacks;

import io.helidon.config.Config;
import io.helidon.dbclient.DbClient;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;

/**
 * Starts Herald: configuration, database, routes, server.
 */
public final class Main {

    private static final System.Logger LOGGER = System.getLogger(Main.class.getName());

    private Main() {
    }

    /**
     * @param args optional: the configuration file of this environment (else {@code HERALD_CONFIG})
     */
    public static void main(String[] args) {
        // The log format writes times with a Z, and Herald keeps all its times in UTC: without this the log would
        // show the host's local time marked as UTC.
        TimeZone.setDefault(TimeZone.getTimeZone(ZoneOffset.UTC));
        LogConfig.configureRuntime();
        Config config = HeraldConfig.load(args);
        Clock clock = Clock.systemUTC();
        // The schema is migrated on a thread of its own while the server is built; it listens only afterwards.
        StartingDatabase database = Database.start(config.get("db"), clock);
        ServingDatabase serving = database.serving();

        WebServerConfig.Builder builder = WebServer.builder()
                .config(config.get("server"))
                // Our own handler below stops the server before the database it writes through.
                .shutdownHook(false);
        server(builder, config, serving, clock);
        WebServer server = builder.build();
        database.awaitSchema();
        // Before the server starts, so that it never serves without its stop in place.
        ShutdownHook.install(() -> stop(server, serving.client()));
        server.start();

        LOGGER.log(Level.INFO, "Herald listening on http://" + config.get("server.host").asString().orElse("0.0.0.0")
                + ":" + server.port());
    }

    /** Everything the server needs besides its socket settings; the tests start the same server. */
    public static void server(WebServerConfig.Builder server, Config config, ServingDatabase database, Clock clock) {
        server.directHandlers(JsonDirectHandler.forAllEvents())
                .routing(routing -> routing(routing, config, database, clock));
    }

    /** The route table. Filters run in the order added: CORS answers preflights before the rate limit counts. */
    public static void routing(HttpRouting.Builder routing, Config config, ServingDatabase database, Clock clock) {
        DbClient db = database.client();
        ErrorResponses.register(routing);
        Metrics metrics = new Metrics();
        routing.addFilter(new MetricsFilter(metrics));
        if (config.get("access-log.enabled").asBoolean().orElse(false)) {
            routing.addFilter(new AccessLogFilter());
        }
        routing.addFilter(new ConnectionCloseFilter())
                .addFilter(new CorsFilter(CorsSettings.from(config.get("cors"))))
                .addFilter(new RateLimitFilter(RateLimitSettings.from(config.get("rate-limit")), clock))
                .addFilter(new AdminAuthFilter(config.get("admin.tokens").asList(String.class).orElse(List.of())))
                .register(ApiPaths.PUBLIC, new PublicFeedService(db, clock), new TrackingService(db, clock))
                .register(ApiPaths.ADMIN, new ProjectAdminService(db, clock), new ApiKeyAdminService(db, clock),
                          new NotificationAdminService(db, clock), new StatsService(db))
                .register("/observe/health", new HealthService(db))
                .register("/observe/metrics", new MetricsService(metrics, database.pool()::figures))
                .register("/openapi", new OpenApiService())
                .any(RouteFallbacks::notFound);
    }

    /** SIGTERM: stop taking connections, let requests in flight finish, then close the pool they write through. */
    private static void stop(WebServer server, DbClient db) {
        LOGGER.log(Level.INFO, "Herald stopping");
        server.stop();
        db.close();
        LOGGER.log(Level.INFO, "Herald stopped");
    }
}
