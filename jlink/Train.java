import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training run of the start-up cache: what a starting Herald does first, so the cache holds those classes
 * loaded and linked. Waits for Herald on the given port, then creates a project, a key and a notification through
 * the management API, reads the feed (with and without its ETag), tracks all three kinds of interaction on both
 * endpoints, reads the stats, and hits the error paths (404, 405, 400, 401).
 *
 * <p>Run by jlink/build.sh with the build JDK's source launcher: {@code java jlink/Train.java PORT ADMIN_TOKEN OPERATIONS_PORT}.
 */
public class Train {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern ID = Pattern.compile("\"(?:id|key)\":\"([^\"]+)\"");

    private static String base;
    private static String operations;
    private static String token;

    public static void main(String[] args) throws Exception {
        base = "http://127.0.0.1:" + args[0];
        token = args[1];
        operations = "http://127.0.0.1:" + args[2];
        waitForHerald();
        // The cache keeps what was loaded and linked (not profiles, jlink/build.sh): the first round loads it all,
        // the others take the paths a repeated request takes (an ETag that matches, a key already cached).
        for (int round = 0; round < Integer.getInteger("rounds", 3); round++) {
            String project = id(admin("POST", "/projects", "{\"name\":\"training\"}", 201));
            String key = id(admin("POST", "/projects/" + project + "/api-keys", "{}", 201));
            String notification = id(admin("POST", "/projects/" + project + "/notifications",
                    "{\"message\":{\"type\":\"doc\",\"content\":[]},\"status\":\"PUBLISHED\","
                            + "\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com\",\"target\":\"_blank\"}},"
                            + "\"image\":\"https://example.com/a.png\"}", 201));
            admin("GET", "/projects/" + project + "/notifications?status=PUBLISHED", null, 200);
            admin("PATCH", "/notifications/" + notification, "{\"preset\":\"banner\"}", 200);

            HttpResponse<String> feed = send(HttpRequest.newBuilder(uri("/api/v1/public/" + key + "/notifications")),
                                             200);
            String etag = feed.headers().firstValue("ETag").orElseThrow();
            send(HttpRequest.newBuilder(uri("/api/v1/public/" + key + "/notifications")).header("If-None-Match", etag),
                 304);
            for (String type : new String[] {"impression", "click"}) {
                send(post("/api/v1/public/track/" + notification, "{\"type\":\"" + type + "\"}", "text/plain"), 204);
            }
            // Now, as a client sends it: the enhanced endpoint refuses timestamps far from the server's clock.
            for (String type : new String[] {"impression", "click", "conversion"}) {
                send(post("/api/v1/public/track/" + notification + "/enhanced",
                          "{\"type\":\"" + type + "\",\"timestamp\":\""
                                  + Instant.now().truncatedTo(ChronoUnit.MILLIS) + "\","
                                  + "\"metadata\":{\"sdk\":\"web\"}}", "application/json"), 204);
            }
            admin("GET", "/notifications/" + notification + "/stats", null, 200);
            admin("GET", "/projects/" + project + "/stats?from=2026-11-01", null, 200);

            send(HttpRequest.newBuilder(uri("/api/v1/public/" + key + "/nope")), 404);
            send(HttpRequest.newBuilder(uri("/api/v1/public/" + key + "/notifications"))
                         .DELETE(), 405);
            send(post("/api/v1/public/track/" + notification, "{\"type\":\"bogus\"}", "application/json"), 400);
            send(HttpRequest.newBuilder(uri("/api/v1/admin/projects")), 401);
            send(HttpRequest.newBuilder(URI.create(operations + "/observe/health/ready")), 200);
        }
    }

    private static void waitForHerald() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HTTP.send(HttpRequest.newBuilder(uri("/")).build(), HttpResponse.BodyHandlers.discarding());
                return;
            } catch (Exception notYet) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("Herald did not answer on " + base);
    }

    private static HttpResponse<String> admin(String method, String path, String body, int expected)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/api/v1/admin" + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                             : HttpRequest.BodyPublishers.ofString(body));
        return send(request, expected);
    }

    private static HttpRequest.Builder post(String path, String body, String contentType) {
        return HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request, int expected) throws Exception {
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(response.request().method() + " " + response.uri() + " answered "
                                                    + response.statusCode() + ", not " + expected + ": "
                                                    + response.body());
        }
        return response;
    }

    private static String id(HttpResponse<String> response) {
        Matcher matcher = ID.matcher(response.body());
        if (!matcher.find()) {
            throw new IllegalStateException("No id in " + response.body());
        }
        return matcher.group(1);
    }

    private static URI uri(String path) {
        return URI.create(base + path);
    }
}
