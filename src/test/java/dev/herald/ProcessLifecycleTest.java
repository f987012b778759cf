package dev.herald;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.notification.Notification;
import dev.herald.support.ChildHerald;
import dev.herald.support.JsonBodies;
import dev.herald.support.KeepAliveConnection;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Herald as an operator runs it: its own JVM, a config file named by HERALD_CONFIG, an environment variable over
 * the file, one start-up line with the address, and SIGTERM in the middle of a request (README.md#run-it).
 */
class ProcessLifecycleTest {

    private static final String OBSERVE_ANY_PORT = "observe:\n  port: 0\n";
    private static final Pattern LISTENING = Pattern.compile("Herald listening on http://[^:]+:(\\d+)");

    @TempDir
    Path workDirectory;

    /**
     * SIGTERM while the start waits for the schema (another instance holds the migration lock): it ended the JVM
     * without a line (an operator's trial). Now it says so, and the exit is the signal's.
     */
    @Test
    void sigtermDuringTheStartSaysSo() throws Exception {
        TestDatabase database = TestDatabase.h2File(workDirectory.resolve("data"));
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE schema_lock (name VARCHAR(32) NOT NULL PRIMARY KEY, holder VARCHAR(200)"
                                      + " NOT NULL, expires_at BIGINT NOT NULL)");
            statement.execute("INSERT INTO schema_lock VALUES ('schema', 'another instance', "
                                      + (System.currentTimeMillis() + 60_000) + ")");
        }
        database.close();
        Path run = workDirectory.resolve("run");
        Process herald = ChildHerald.launched(run, ChildHerald.onDatabase(database.url()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ChildHerald.logOf(run).contains("Schema migrations: waiting for another instance")
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        herald.destroy();
        assertThat(herald.waitFor(30, TimeUnit.SECONDS), is(true));
        assertThat(herald.exitValue(), is(143));
        assertThat(ChildHerald.logOf(run), containsString("INFO dev.herald.Main: Herald stopping during its start: the"
                + " database keeps what was applied; the next start goes on from there"));
    }

    @Test
    void aRequestInFlightAtSigtermFinishesAndItsInteractionIsKept() throws Exception {
        TestDatabase database = TestDatabase.h2File(workDirectory);
        Notification notification = savedNotification(database);
        Path configFile = Files.writeString(workDirectory.resolve("test.yaml"), ChildHerald.onDatabase(database.url())
                + OBSERVE_ANY_PORT + "rate-limit:\n  requests: 5\n");

        ProcessBuilder builder = childHerald();
        builder.environment().put("HERALD_CONFIG", configFile.toString());
        builder.environment().put("RATE_DASH_LIMIT_REQUESTS", "7");
        // Fourteen hours from UTC: a log written in local time would show it.
        builder.environment().put("TZ", "Pacific/Kiritimati");
        Instant started = Instant.now();
        Process herald = builder.start();
        try {
            int listeningPort = listeningPort(herald);
            assertThat("the log's times are UTC, as their Z says", Duration.between(started, listeningTime()).abs(),
                       lessThan(Duration.ofMinutes(5)));

            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), listeningPort)) {
                socket.setSoTimeout(10_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /api/v1/public/track/" + notification.id() + " HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                        + "5\r\n{\"typ\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(300);

                herald.destroy();   // SIGTERM
                Thread.sleep(700);
                out.write("b\r\ne\":\"click\"}\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();

                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer, startsWith("HTTP/1.1 204"));
                assertThat("the environment overrides the file", answer, containsString("RateLimit-Limit: 7"));
            }
            assertThat("Herald stops within its grace period", herald.waitFor(15, TimeUnit.SECONDS), is(true));
        } finally {
            herald.destroyForcibly();
        }

        assertThat(log(), containsString("Herald stopped"));
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM interactions WHERE notification_id = '"
                                                             + notification.id() + "'")) {
            rows.next();
            assertThat(rows.getInt(1), is(1));
        }
    }

    /** A notification of a new project, saved by a Herald in this process that is stopped again. */
    private static Notification savedNotification(TestDatabase database) throws SQLException {
        try (TestHerald herald = TestHerald.start(database)) {
            return herald.notification(herald.project()).save();
        }
    }

    /**
     * {@code observe.drain-period}: after SIGTERM the instance serves on for the period with readiness DOWN (liveness
     * UP) and every answer closing its connection, one kept open from before the signal included, so that a balancer
     * takes it out and a proxy moves its connections before it stops listening; then it stops as without it, every
     * interaction it answered kept.
     */
    @Test
    void aDrainPeriodServesOnWithReadinessDownAndEachAnswerClosingItsConnection() throws Exception {
        TestDatabase database = TestDatabase.h2File(workDirectory);
        Notification notification = savedNotification(database);
        String track = "/api/v1/public/track/" + notification.id();
        try (ChildHerald herald = ChildHerald.start(workDirectory.resolve("run"), ChildHerald.onDatabase(database.url())
                + "observe:\n  port: 0\n  drain-period: PT3S\n")) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            URI observe = URI.create("http://127.0.0.1:" + herald.observePort());
            assertThat(RawHttp.exchange(observe, "GET /observe/health/ready HTTP/1.1\r\nHost: x").status(), is(200));
            try (KeepAliveConnection kept = new KeepAliveConnection(api)) {
                RawHttp.Response before = kept.postJson(track, "{\"type\":\"impression\"}");
                assertThat(before.status(), is(204));
                assertThat(before.headers().get("connection"), not("close"));

                long signalled = System.nanoTime();
                ProcessHandle.of(herald.pid()).orElseThrow().destroy();   // SIGTERM
                long deadline = signalled + TimeUnit.SECONDS.toNanos(10);
                while (!herald.log().contains("readiness DOWN") && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                RawHttp.Response ready = RawHttp.exchange(observe, "GET /observe/health/ready HTTP/1.1\r\nHost: x");
                assertThat(ready.status(), is(503));
                assertThat(JsonBodies.object(ready.body()).toString(), is("{\"status\":\"DOWN\",\"checks\":["
                        + "{\"name\":\"database\",\"status\":\"UP\"},{\"name\":\"stopping\",\"status\":\"DOWN\"}]}"));
                assertThat(RawHttp.exchange(observe, "GET /observe/health/live HTTP/1.1\r\nHost: x").status(), is(200));

                RawHttp.Response onTheKeptConnection = kept.postJson(track, "{\"type\":\"click\"}");
                assertThat(onTheKeptConnection.status(), is(204));
                assertThat(onTheKeptConnection.headers().get("connection"), is("close"));
                assertThat(kept.closedByServer(Duration.ofSeconds(2)), is(true));
                try (KeepAliveConnection opened = new KeepAliveConnection(api)) {
                    RawHttp.Response onANewOne = opened.postJson(track, "{\"type\":\"click\"}");
                    assertThat(onANewOne.status(), is(204));
                    assertThat(onANewOne.headers().get("connection"), is("close"));
                }
                assertThat("still serving within the drain period", herald.isAlive(), is(true));
                assertThat(herald.stop(), is(143));
                assertThat("served for the drain period", Duration.ofNanos(System.nanoTime() - signalled),
                           greaterThanOrEqualTo(Duration.ofSeconds(3)));
            }
            String log = herald.log();
            assertThat(log, containsString("INFO dev.herald.Main: Herald stopping: readiness DOWN, serving 3000 ms more,"
                    + " each answer closing its connection (observe.drain-period)"));
            assertThat(log.indexOf("Herald stopping: drained"), greaterThan(log.indexOf("readiness DOWN")));
            assertThat(log.indexOf("Herald stopped"), greaterThan(log.indexOf("Herald stopping: drained")));
        }
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM interactions WHERE notification_id = '"
                                                             + notification.id() + "'")) {
            rows.next();
            assertThat(rows.getInt(1), is(3));
        }
    }

    /**
     * A port already taken ends the start with exit code 1 and a line naming the address and the setting, before
     * the database is touched (Helidon alone logs it, listens on "port -1" and later exits 0).
     */
    @ParameterizedTest
    @ValueSource(strings = {"server", "observe"})
    void aTakenPortEndsTheStartWithExitCode1BeforeTheDatabase(String listener) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Path data = workDirectory.resolve("taken-data");
            Path configFile = Files.writeString(workDirectory.resolve("taken.yaml"), """
                    server:
                      port: %d
                      host: 127.0.0.1
                    observe:
                      port: %d
                    db:
                      connection:
                        url: "jdbc:h2:file:%s"
                    """.formatted(listener.equals("server") ? port : 0, listener.equals("observe") ? port : 0,
                                  data.resolve("herald")));
            Process herald = childHerald(configFile.toString()).start();
            try {
                assertThat("ended within 30 s", herald.waitFor(30, TimeUnit.SECONDS), is(true));
                assertThat(herald.exitValue(), is(1));
                String setting = listener.equals("server") ? "server.port, SERVER_PORT" : "observe.port, OBSERVE_PORT";
                assertThat(log(), containsString("127.0.0.1:" + port + " is already in use ("
                        + setting + ")"));
                assertThat("no migration ran", log(), not(containsString("Applied schema migration")));
                assertThat("no database was created", Files.exists(data), is(false));
            } finally {
                herald.destroyForcibly();
            }
        }
    }

    /**
     * A token shorter than 32 characters ends the start before the database is touched: exit code 1, a line that
     * names the setting, never the token.
     */
    @Test
    void aShortAdminTokenEndsTheStartWithExitCode1() throws Exception {
        Path configFile = Files.writeString(workDirectory.resolve("short.yaml"),
                ChildHerald.onDatabase("jdbc:h2:file:./data/never-created") + OBSERVE_ANY_PORT);
        ProcessBuilder builder = childHerald(configFile.toString());
        builder.environment().put("ADMIN_TOKENS", "0123456789abcdef0123456789abcdef, too-short-to-be-safe");
        Process herald = builder.start();
        try {
            assertThat("ended within 30 s", herald.waitFor(30, TimeUnit.SECONDS), is(true));
            assertThat(herald.exitValue(), is(1));
            assertThat(log(), containsString("admin.tokens: entry 2 of 2 is shorter than 32 characters; use random"
                    + " tokens (openssl rand -hex 32) or set admin.allow-short-tokens: true (development only)\n"));
            assertThat(log(), not(containsString("too-short-to-be-safe")));
            assertThat("the database was not opened", Files.exists(workDirectory.resolve("data")), is(false));
        } finally {
            herald.destroyForcibly();
        }
    }

    /** ADMIN_TOKENS="tokA, tokB" as an operator writes it: both tokens work. */
    @Test
    void tokensFromTheEnvironmentAreTrimmed() throws Exception {
        String first = "tokA-0123456789abcdef0123456789abcdef";
        String second = "tokB-0123456789abcdef0123456789abcdef";
        Path configFile = Files.writeString(workDirectory.resolve("tokens.yaml"),
                ChildHerald.onDatabase(TestDatabase.h2File(workDirectory).url()) + OBSERVE_ANY_PORT);
        ProcessBuilder builder = childHerald(configFile.toString());
        builder.environment().put("ADMIN_TOKENS", first + ", " + second + " ,");
        Process herald = builder.start();
        try {
            int port = listeningPort(herald);
            for (String token : new String[] {first, second}) {
                try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    socket.setSoTimeout(10_000);
                    socket.getOutputStream().write(("GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n"
                            + "Authorization: Bearer " + token + "\r\nConnection: close\r\n\r\n")
                                                           .getBytes(StandardCharsets.US_ASCII));
                    String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(answer, startsWith("HTTP/1.1 200"));
                }
            }
        } finally {
            herald.destroyForcibly();
            herald.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * H2 closes its databases from a shutdown hook of its own unless told not to; the JVM runs it beside Herald's
     * stop, which then found the database closed under the webhook worker's release of its claims ("Failed to set
     * autocommit to true", 2 stops in 5). A stop with nothing to do logs nothing at WARNING.
     */
    @Test
    void aStopOnEmbeddedH2LogsNoWarning() throws Exception {
        TestDatabase database = TestDatabase.h2File(workDirectory);
        for (int stop = 0; stop < 4; stop++) {
            Path directory = Files.createDirectories(workDirectory.resolve("stop-" + stop));
            String log;
            try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase(database.url()))) {
                herald.stop();
                log = herald.log();
            }
            assertThat(log, containsString("Herald stopped"));
            assertThat("stop " + stop + ":\n" + log, log.lines().filter(line -> line.contains("WARNING")).toList(),
                       is(List.of()));
        }
    }

    /** Waits for the start-up line that says where Herald listens. */
    private int listeningPort(Process herald) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Matcher listening = LISTENING.matcher(log());
            if (listening.find()) {
                return Integer.parseInt(listening.group(1));
            }
            if (!herald.isAlive()) {
                throw new AssertionError("Herald ended without listening:\n" + log());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("Herald did not start within 60 s:\n" + log());
    }

    /** When the start-up line says it was written. */
    private Instant listeningTime() throws IOException {
        return log().lines()
                .filter(line -> line.contains("Herald listening"))
                .map(line -> Instant.parse(line.substring(0, line.indexOf(' '))))
                .findFirst()
                .orElseThrow();
    }

    /** Herald in a JVM of its own, in the work directory, its output in herald.log; not started yet. */
    private ProcessBuilder childHerald(String... args) {
        List<String> command = new ArrayList<>(List.of(javaExecutable(), "-cp", System.getProperty("java.class.path"),
                                                       Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(workDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDirectory.resolve("herald.log").toFile());
    }

    private String log() throws IOException {
        Path file = workDirectory.resolve("herald.log");
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

}
