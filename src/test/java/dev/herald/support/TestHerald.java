package dev.herald.support;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.herald.Main;
import dev.herald.Services;
import dev.herald.admin.Actor;
import dev.herald.admin.Role;
import dev.herald.apikey.ApiKey;
import dev.herald.apikey.OrderBy;
import dev.herald.audit.AuditEntry;
import dev.herald.config.HeraldConfig;
import dev.herald.notification.Action;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.project.ProjectStore;
import dev.herald.storage.Database;
import dev.herald.storage.ServingDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonValue;

/**
 * Herald as the tests run it: the real configuration, database, migrations and routes, plus a settable clock and
 * fixtures that write through the real stores.
 */
public final class TestHerald implements AutoCloseable {

    public static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Actor FIXTURES = new Actor("test-fixtures", Role.EDITOR);

    private final TestDatabase database;
    private final Config config;
    /** Reads the configuration again, from the same sources, as a reload does. */
    private final Supplier<Config> loader;
    private final Optional<Path> file;
    private final MutableClock clock = new MutableClock(START);
    private final ServingDatabase serving;
    private final Services services;

    private TestHerald(TestDatabase database, Map<String, String> settings, Optional<Path> file) {
        this.database = database;
        Map<String, String> all = new HashMap<>(settings);
        all.putIfAbsent("db.connection.url", database.url());
        // Tests run side by side: the operations listener takes any free port, as the public one does.
        all.putIfAbsent("observe.port", "0");
        // The clock stands still unless a test moves it, so a window never ends: the management API's limit would
        // count a whole class's requests. ManagementRateLimitTest sets its own, as a test's file may.
        if (file.isEmpty()) {
            all.putIfAbsent("admin.rate-limit.requests", "1000000");
        }
        // The webhook worker of the instance would deliver what a test's own worker is to deliver, to addresses that
        // do not exist: a test that wants it sets webhooks.enabled.
        all.putIfAbsent("webhooks.enabled", "false");
        all.put("db.connection.username", database.username());
        all.put("db.connection.password", database.password());
        this.file = file;
        this.loader = file.isEmpty() ? () -> HeraldConfig.withDefaults(List.of(ConfigSources.create(all)))
                : () -> HeraldConfig.load(file, List.of(ConfigSources.create(all)));
        this.config = loader.get();
        this.serving = Database.open(config.get("db"), clock);
        this.services = Services.create(serving, config, clock);
        services.start();
    }

    public static TestHerald start(TestDatabase database) {
        return start(database, Map.of());
    }

    public static TestHerald start(TestDatabase database, Map<String, String> settings) {
        return new TestHerald(database, settings, Optional.empty());
    }

    /**
     * Herald on this configuration file, read as Herald reads its own (checked, its mistakes described), under the
     * database's settings and any others given here.
     */
    public static TestHerald start(TestDatabase database, Map<String, String> settings, Path file) {
        return new TestHerald(database, settings, Optional.of(file));
    }

    /** Reads the configuration again from the same sources, as a reload of Herald's does; throws as that does. */
    public Supplier<Config> loader() {
        return loader;
    }

    /** The file's own settings, as a reload of Herald's reads them beside the whole configuration. */
    public Supplier<Config> fileAlone() {
        return () -> HeraldConfig.fileAlone(file.orElseThrow());
    }

    public void server(WebServerConfig.Builder server) {
        Main.server(server, config, services);
    }

    /** The change log, caches and writer the server uses. */
    public Services services() {
        return services;
    }

    /** The DB Client and pool the server uses. */
    public ServingDatabase serving() {
        return serving;
    }

    public MutableClock clock() {
        return clock;
    }

    public TestDatabase database() {
        return database;
    }

    public Config config() {
        return config;
    }

    public Project project() {
        Project project = new Project(uniqueId("p"), "Project " + SEQUENCE.incrementAndGet(), clock.millis());
        new ProjectStore(serving.client()).create(project, fixture("project.created", project.id(), project.id()));
        return project;
    }

    public ApiKey key(Project project) {
        return key(project, false, false, OrderBy.DEFAULT);
    }

    public ApiKey key(Project project, boolean showPast, boolean showFuture, OrderBy orderBy) {
        ApiKey key = new ApiKey(randomKey(), project.id(), showPast, showFuture, orderBy, clock.millis(), null);
        services.keys().create(key, fixture("api-key.created", project.id(), key.key()));
        return key;
    }

    public ApiKey revokedKey(Project project) {
        ApiKey key = new ApiKey(randomKey(), project.id(), false, false, OrderBy.DEFAULT, clock.millis(), clock.millis());
        services.keys().create(key, fixture("api-key.created", project.id(), key.key()));
        return key;
    }

    /** What a fixture written through a store tells the audit log: the test wrote it, not a person. */
    public AuditEntry fixture(String action, String projectId, String targetId) {
        return AuditEntry.of(FIXTURES, clock.millis(), action, projectId, action.substring(0, action.indexOf('.')),
                             targetId, JsonValue.EMPTY_JSON_OBJECT);
    }

    public NotificationFixture notification(Project project) {
        return new NotificationFixture(project);
    }

    /** The sum of a notification's daily totals, read through a connection of its own: equal to its interactions. */
    public long dailyTotal(String notificationId) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = ?")) {
            statement.setString(1, notificationId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** The interactions stored for a notification, read through a connection of their own, oldest first. */
    public List<StoredInteraction> interactions(String notificationId) throws SQLException {
        String sql = "SELECT notification_id, project_id, type, occurred_at, received_at, endpoint, metadata"
                + " FROM interactions WHERE notification_id = ? ORDER BY seq";
        try (Connection connection = database.connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, notificationId);
            List<StoredInteraction> stored = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    stored.add(new StoredInteraction(rows.getString(1), rows.getString(2), rows.getString(3),
                                                     rows.getLong(4), rows.getLong(5), rows.getString(6),
                                                     rows.getString(7)));
                }
            }
            return stored;
        }
    }

    /** Stops its services and leaves the database as it is, for another process to open. */
    public void stop() {
        services.close();
    }

    @Override
    public void close() throws SQLException {
        stop();
        database.close();
    }

    /** 40 alphanumerics, like the keys the management API generates. */
    public static String randomKey() {
        return (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "").substring(0, 40);
    }

    private static String uniqueId(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    /**
     * One stored interaction row.
     */
    public record StoredInteraction(String notificationId, String projectId, String type, long occurredAt,
                                    long receivedAt, String endpoint, String metadata) {
    }

    /**
     * A notification to store: published, current, created now, with no action, unless told otherwise.
     */
    public final class NotificationFixture {
        private final Project project;
        private NotificationStatus status = NotificationStatus.PUBLISHED;
        private String message = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"Hello\"}]}]}";
        private String image;
        private String imageAlt;
        private Action action = Action.NONE;
        private String preset = "default";
        private Instant start;
        private Instant end;
        private Instant createdAt;

        private NotificationFixture(Project project) {
            this.project = project;
        }

        public NotificationFixture status(NotificationStatus status) {
            this.status = status;
            return this;
        }

        public NotificationFixture message(String message) {
            this.message = message;
            return this;
        }

        public NotificationFixture image(String image) {
            this.image = image;
            return this;
        }

        public NotificationFixture imageAlt(String imageAlt) {
            this.imageAlt = imageAlt;
            return this;
        }

        public NotificationFixture action(Action action) {
            this.action = action;
            return this;
        }

        public NotificationFixture preset(String preset) {
            this.preset = preset;
            return this;
        }

        public NotificationFixture start(Instant start) {
            this.start = start;
            return this;
        }

        public NotificationFixture end(Instant end) {
            this.end = end;
            return this;
        }

        public NotificationFixture createdAt(Instant createdAt) {
            this.createdAt = createdAt;
            return this;
        }

        public Notification save() {
            long created = createdAt == null ? clock.millis() : createdAt.toEpochMilli();
            Notification notification = new Notification(uniqueId("n"), project.id(), status, null, message, image,
                                                         imageAlt, action, preset, millis(start), millis(end), created,
                                                         created, null, null, null, null);
            services.notifications().create(notification, fixture("notification.created", project.id(),
                                                                  notification.id()));
            return notification;
        }

        private Long millis(Instant instant) {
            return instant == null ? null : instant.toEpochMilli();
        }
    }
}
