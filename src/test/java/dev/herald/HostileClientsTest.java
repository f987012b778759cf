package dev.herald;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.herald.support.ChildHerald;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The review's memory attacks, all at once and from hundreds of addresses, against a child Herald that exits on
 * OutOfMemoryError as the image does: connections that send part of their headers and stall, bodies announced at
 * 64 KiB that stop one byte short, one address opening more connections than it may, and clients that request the
 * largest feed a project may have and never read it. Before the limits, each of these alone ended the process.
 * Herald must stay up, keep its answers, and serve normally afterwards. Twice: with the launcher's heap and the
 * default limits, filling the listener (docs/security.md, Capacity), and with a smaller heap and smaller limits.
 */
class HostileClientsTest {

    private static final String TOKEN = "hostile-clients-admin-token-0123456789abcdef";
    private static final int SLOW_READERS = 40;

    @TempDir
    Path directory;

    /** The launcher's heap (jlink/herald) and every default limit: the listener's 1,000 connections all taken. */
    @Test
    void theLaunchersHeapOutlivesTheAttacksAtTheDefaultLimits() throws Exception {
        attack(List.of("-Xms8m", "-Xmx80m", "-XX:MaxMetaspaceSize=64m"), "", new Attack(700, 300, 150));
    }

    /** Less than two thirds of it, with the limits scaled down: the limits, not the heap's slack, keep it alive. */
    @Test
    void aSmallerHeapOutlivesTheAttacksAtSmallerLimits() throws Exception {
        attack(List.of("-Xmx48m"), """
                limits:
                  connections: 400
                  connections-per-client: 50
                  read-timeout: PT2S
                  body-bytes-in-flight: 2097152
                feed:
                  cache:
                    max-bytes: 4194304
                """, new Attack(450, 300, 100));
    }

    /**
     * Chunked bodies that never end, streamed as fast as loopback takes them: a chunk-size line of endless digits,
     * a chunk announced at 2 GiB, a trailer line that never ends. Helidon 4.1.7 read each into memory until it
     * ended, and one such request filled the launcher's heap in under two seconds. Each must be answered within
     * its bound (400 or 413) and cut off, with the process alive and serving.
     */
    @Test
    void chunkedBodiesThatNeverEndAreCutOff() throws Exception {
        try (ChildHerald herald = child(List.of("-Xmx48m"), "")) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            String head = "POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n";
            List<String> starts = List.of(head, head, head + "7fffffff\r\n", head + "7fffffff\r\n", head + "0\r\n",
                                          head + "0\r\n");
            List<CompletableFuture<String>> streams = new ArrayList<>();
            for (String start : starts) {
                streams.add(CompletableFuture.supplyAsync(() -> streamUntilCut(herald.port(), start)));
            }
            for (int i = 0; i < starts.size(); i++) {
                String answer = streams.get(i).get(30, TimeUnit.SECONDS);
                assertThat("stream " + i + ":\n" + herald.log(), answer, anyOf(startsWith("HTTP/1.1 400"),
                                                                              startsWith("HTTP/1.1 413")));
            }
            assertThat("alive after the streams:\n" + herald.log(), herald.isAlive(), is(true));
            assertThat(get(api, "/api/v1/public/unknown-key/notifications").status(), is(401));
        }
    }

    /**
     * JSON nested far deeper than any document, on a fresh JVM with the launcher's stack size: Parsson's own depth
     * check (1,000) came too late there, until the JIT had compiled it, and the stack overflowed first: a 500 and
     * a 1,000-line trace in the log for each 3 KB request. Each must be a 400 without a line of log.
     */
    @Test
    void deeplyNestedJsonOnAColdJvmIsA400WithoutALogLine() throws Exception {
        try (ChildHerald herald = child(List.of("-Xmx80m"), "")) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            String notification = aNotification(api);
            String logBefore = herald.log();
            String simple = "/api/v1/public/track/" + notification;
            List<Post> requests = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                requests.add(new Post(simple, "{\"type\":\"click\",\"x\":" + "[".repeat(1_500) + "]".repeat(1_500) + "}"));
                requests.add(new Post(simple, "{\"type\":\"click\",\"x\":" + "{\"a\":".repeat(1_500) + "1"
                        + "}".repeat(1_500) + "}"));
                requests.add(new Post(simple + "/enhanced", "{\"type\":\"click\",\"metadata\":{\"x\":"
                        + "[".repeat(10_000) + "]".repeat(10_000) + "}}"));
                requests.add(new Post(simple + "/enhanced", "{\"type\":\"click\",\"metadata\":{\"x\":"
                        + "[".repeat(60_000)));
            }
            for (Post request : requests) {
                RawHttp.Response answer = RawHttp.exchange(api, "POST " + request.path() + " HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + request.body().length(),
                                                           request.body().getBytes(StandardCharsets.UTF_8));
                assertThat(answer.body(), answer.status(), is(400));
            }
            String logged = herald.log().substring(logBefore.length());
            assertThat("the log after " + requests.size() + " requests:\n" + logged, logged.isBlank(), is(true));
            assertThat(herald.isAlive(), is(true));
        }
    }

    private record Post(String path, String body) {
    }

    /** A draft notification in a project of its own: its id, which tracking takes. */
    private static String aNotification(URI api) throws IOException {
        String project = admin(api, "POST", "/projects", "{\"name\":\"p\"}").getString("id");
        return admin(api, "POST", "/projects/" + project + "/notifications", "{\"message\":\"m\"}").getString("id");
    }

    /**
     * Bodies cheap to send and dear to parse: 64 KiB of small numbers is a JSON tree of about a megabyte. 128 at
     * once from 8 addresses (each at its share of the body budget) held 128 trees through the wait for their
     * commit, and the launcher's heap ran out. Every answer must be a 204 or, past the budget, a 503, three bursts
     * running, with the process alive.
     */
    @Test
    void bodiesDearToParseSentAtOnceDoNotFillTheHeap() throws Exception {
        try (ChildHerald herald = child(List.of("-Xmx80m"), "")) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            String notification = aNotification(api);
            String body = "{\"type\":\"click\",\"pad\":[" + "0,".repeat(32_700) + "0]}";
            byte[] request = ("POST /api/v1/public/track/" + notification + " HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
                    + body).getBytes(StandardCharsets.US_ASCII);
            int clients = 128;
            ExecutorService senders = Executors.newFixedThreadPool(clients);
            try {
                for (int burst = 0; burst < 3; burst++) {
                    CyclicBarrier together = new CyclicBarrier(clients);
                    List<Future<String>> answers = new ArrayList<>();
                    for (int i = 0; i < clients; i++) {
                        InetAddress from = InetAddress.getByName("127.30.0." + (i / 16 + 1));
                        answers.add(senders.submit(() -> sendTogether(herald.port(), from, request, together)));
                    }
                    for (Future<String> answer : answers) {
                        assertThat("burst " + burst + ":\n" + herald.log(), answer.get(60, TimeUnit.SECONDS),
                                   anyOf(startsWith("HTTP/1.1 204"), startsWith("HTTP/1.1 503")));
                    }
                }
            } finally {
                senders.shutdownNow();
            }
            assertThat("alive after the bursts:\n" + herald.log(), herald.isAlive(), is(true));
        }
    }

    /** Connects, waits for the others, sends, and reads the status line. */
    private static String sendTogether(int port, InetAddress from, byte[] request, CyclicBarrier together) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.setSoTimeout(30_000);
            together.await(30, TimeUnit.SECONDS);
            socket.getOutputStream().write(request);
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
        } catch (IOException | InterruptedException | BrokenBarrierException | TimeoutException e) {
            return "no answer: " + e;
        }
    }

    /**
     * A child Herald on a file database, exiting on OutOfMemoryError and with the stack size as the launcher's
     * ({@code jlink/herald}); {@code heap} its heap options, {@code settings} YAML after the test's own.
     */
    private ChildHerald child(List<String> heap, String settings) throws IOException, InterruptedException {
        TestDatabase database = TestDatabase.h2File(directory.resolve("data"));
        List<String> jvm = new ArrayList<>(List.of("-XX:+UseSerialGC", "-Xss512k", "-XX:+ExitOnOutOfMemoryError"));
        jvm.addAll(heap);
        return ChildHerald.start(directory.resolve("run"), config(database) + settings, jvm);
    }

    /** Sends {@code start}, then zeros for at most 10 s or until the server stops taking them; its answer's start. */
    private static String streamUntilCut(int port, String start) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(start.getBytes(StandardCharsets.ISO_8859_1));
            byte[] zeros = new byte[64 * 1024];
            Arrays.fill(zeros, (byte) '0');
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            try {
                while (System.nanoTime() < end) {
                    out.write(zeros);
                }
            } catch (IOException e) {
                // the server closed the connection: what it answered before is what counts
            }
            byte[] answer = socket.getInputStream().readNBytes(12);
            return new String(answer, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "no answer: " + e;
        }
    }

    /** How many connections each attack opens: with partial headers, with stalled bodies, from one address. */
    private record Attack(int partialHeaders, int stalledBodies, int fromOneAddress) {
    }

    private void attack(List<String> heap, String limits, Attack attack) throws Exception {
        try (ChildHerald herald = child(heap, limits)) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            String key = aProjectWithTheLargestFeedAllowed(api);
            int feedBytes = get(api, "/api/v1/public/" + key + "/notifications").body().length();
            assertThat("the feed is near limits.feed-bytes", feedBytes, greaterThan(900_000));

            List<SocketChannel> held = new ArrayList<>();
            int refusedFromOneAddress;
            try {
                // First, while the listener still accepts: past limits.connections, connections wait unaccepted.
                List<SocketChannel> oneAddress = new ArrayList<>();
                for (int i = 0; i < attack.fromOneAddress(); i++) {
                    oneAddress.add(open(herald.port(), InetAddress.getByName("127.4.0.1"), ""));
                }
                held.addAll(oneAddress);
                refusedFromOneAddress = refusals(oneAddress);
                for (int i = 0; i < attack.partialHeaders(); i++) {
                    held.add(open(herald.port(), address(1, i), "POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\n"
                            + "X-Pad: " + "a".repeat(16_000)));
                }
                for (int i = 0; i < attack.stalledBodies(); i++) {
                    held.add(open(herald.port(), address(2, i), "POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 65536\r\n\r\n" + "x".repeat(65_535)));
                }
                for (int i = 0; i < SLOW_READERS; i++) {
                    held.add(open(herald.port(), address(3, i), "GET /api/v1/public/" + key
                            + "/notifications HTTP/1.1\r\nHost: x\r\n\r\n"));
                }

                // Held for a while, so that the server lives with all of it at once.
                Thread.sleep(1_500);
                assertThat("alive under attack:\n" + herald.log(), herald.isAlive(), is(true));
                assertThat("past connections-per-client, answered 429", refusedFromOneAddress,
                           greaterThanOrEqualTo(attack.fromOneAddress() - 100));
            } finally {
                for (SocketChannel channel : held) {
                    channel.close();
                }
            }

            assertThat("alive after the attack:\n" + herald.log(), herald.isAlive(), is(true));
            RawHttp.Response feed = get(api, "/api/v1/public/" + key + "/notifications");
            assertThat(feed.status(), is(200));
            assertThat(feed.body().length(), is(feedBytes));
            String notification = JsonBodies.array(feed.body()).getJsonObject(0).getString("id");
            RawHttp.Response click = RawHttp.exchange(api, "POST /api/v1/public/track/" + notification
                    + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16",
                                                      "{\"type\":\"click\"}".getBytes(StandardCharsets.UTF_8));
            assertThat(click.status(), is(204));
            RawHttp.Response ready = get(URI.create("http://127.0.0.1:" + herald.observePort()), "/observe/health/ready");
            assertThat(ready.status(), is(200));
        }
    }

    private static String config(TestDatabase database) {
        return ChildHerald.onDatabase(database.url()) + """
                admin:
                  tokens: ["%s"]
                rate-limit:
                  requests: 1000000
                """.formatted(TOKEN);
    }

    /** As many 30 KB notifications as limits.feed-bytes (1 MiB) lets one project publish; its key. */
    private static String aProjectWithTheLargestFeedAllowed(URI api) throws IOException {
        String project = admin(api, "POST", "/projects", "{\"name\":\"large\"}").getString("id");
        String key = admin(api, "POST", "/projects/" + project + "/api-keys", "{}").getString("key");
        String message = "m".repeat(30_000);
        int status = 201;
        while (status == 201) {
            status = adminStatus(api, "/projects/" + project + "/notifications",
                                 "{\"message\":\"" + message + "\",\"status\":\"PUBLISHED\"}");
        }
        assertThat("the feed cap stopped the project", status, is(409));
        return key;
    }

    private static JsonObject admin(URI api, String method, String path, String body) throws IOException {
        RawHttp.Response answer = RawHttp.exchange(api, method + " /api/v1/admin" + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length(), body.getBytes(StandardCharsets.UTF_8));
        assertThat(answer.body(), answer.status(), is(201));
        return JsonBodies.object(answer.body());
    }

    private static int adminStatus(URI api, String path, String body) throws IOException {
        return RawHttp.exchange(api, "POST /api/v1/admin" + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length(),
                                body.getBytes(StandardCharsets.UTF_8)).status();
    }

    private static RawHttp.Response get(URI server, String path) throws IOException {
        return RawHttp.exchange(server, "GET " + path + " HTTP/1.1\r\nHost: x");
    }

    /** 127.{block}.{i / 250}.{i % 250 + 1}: every 127.x.y.z is this machine, and a client of its own. */
    private static InetAddress address(int block, int i) throws IOException {
        return InetAddress.getByName("127." + (10 + block) + "." + (i / 250) + "." + (i % 250 + 1));
    }

    /**
     * A connection that sends {@code bytes} (what fits into the socket's buffers: past the listener's limit a
     * connection waits in the kernel's queue, unread) and then nothing more, reading nothing either: its receive
     * buffer is as small as the system allows, so that a feed answer stays in the server's hands.
     */
    private static SocketChannel open(int port, InetAddress from, String bytes) throws IOException {
        SocketChannel channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 1024);
        channel.bind(new InetSocketAddress(from, 0));
        channel.socket().connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
        channel.configureBlocking(false);
        try {
            channel.write(ByteBuffer.wrap(bytes.getBytes(StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            // refused or closed before all was sent: that is the server defending itself
        }
        return channel;
    }

    /** How many of these connections were answered 429 TOO_MANY_CONNECTIONS (they are answered as accepted). */
    private static int refusals(List<SocketChannel> channels) throws InterruptedException {
        Thread.sleep(500);
        int refused = 0;
        for (SocketChannel channel : channels) {
            ByteBuffer start = ByteBuffer.allocate(12);
            try {
                channel.read(start);
            } catch (IOException e) {
                // reset after the answer
            }
            if (new String(start.array(), 0, start.position(), StandardCharsets.US_ASCII).equals("HTTP/1.1 429")) {
                refused++;
            }
        }
        return refused;
    }
}
