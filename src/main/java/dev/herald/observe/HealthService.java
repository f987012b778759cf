package dev.herald.observe;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

import dev.herald.api.Json;
import dev.herald.api.JsonAnswers;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

/**
 * Health for orchestrators and load balancers, under {@code /observe/health}: {@code live} says the process
 * answers, {@code ready} (and the bare path) that it can serve, which needs the database. Not rate limited and
 * not authenticated (they are served on the operations listener only, see {@link ObserveSettings}); the answers
 * name no host, version or error.
 */
public final class HealthService implements HttpService {

    private static final System.Logger LOGGER = System.getLogger(HealthService.class.getName());
    private static final Pattern FIGURES = Pattern.compile("[0-9]+");

    private final DbClient db;
    private final Draining draining;
    private final LongSupplier connectionsRefused;
    private final LongSupplier interactionsFailed;
    private final RecentAnswer databaseUp;
    private final long holdDownNanos;
    /** The two counts at the previous check, and when a check last found them grown; under RecentAnswer's lock. */
    private long refusedBefore;
    private long failedBefore;
    private long lastFailureSeen;
    private boolean failureSeen;
    /** Since when readiness says DOWN (0: it says UP) and why, as last logged; under RecentAnswer's lock. */
    private long downSince;
    private String downBecause;

    /**
     * @param connectionsRefused requests refused a serving connection since start (the pool's wait ran out)
     * @param interactionsFailed interactions answered 500 since start (their transaction failed or took too long)
     * @param holdDown           how long readiness stays DOWN after a check found requests failed: longer than a
     *                           tracking request waits for its batch, so that requests failing one after the other
     *                           keep it DOWN between two failures
     */
    public HealthService(DbClient db, LongSupplier connectionsRefused, LongSupplier interactionsFailed,
                         Duration holdDown, Draining draining) {
        this.db = db;
        this.draining = draining;
        this.connectionsRefused = connectionsRefused;
        this.interactionsFailed = interactionsFailed;
        this.holdDownNanos = holdDown.toNanos();
        this.refusedBefore = connectionsRefused.getAsLong();
        this.failedBefore = interactionsFailed.getAsLong();
        this.databaseUp = new RecentAnswer(this::databaseServes, System::nanoTime);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/live", this::live)
                .head("/live", this::live)
                .get("/ready", this::ready)
                .head("/ready", this::ready)
                .get("/", this::ready)
                .head("/", this::ready)
                .any("/live", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .any("/ready", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    private void live(ServerRequest request, ServerResponse response) {
        send(request, response, Status.OK_200, Json.builders().createObjectBuilder().add("status", "UP").build());
    }

    private void ready(ServerRequest request, ServerResponse response) {
        // At most one query a second, however often readiness is asked (measured before: 10,400 calls a second
        // took the feed's median from 5 ms to 220 ms, and readiness itself to 503).
        boolean databaseUp = this.databaseUp.get();
        String database = databaseUp ? "UP" : "DOWN";
        JsonArrayBuilder checks = Json.builders().createArrayBuilder()
                .add(Json.builders().createObjectBuilder().add("name", "database").add("status", database));
        boolean ready = databaseUp && !draining.isDraining();
        if (draining.isDraining()) {
            checks.add(Json.builders().createObjectBuilder().add("name", "stopping").add("status", "DOWN"));
        }
        send(request, response, ready ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503,
             Json.builders().createObjectBuilder()
                     .add("status", ready ? "UP" : "DOWN")
                     .add("checks", checks)
                     .build());
    }

    /**
     * The database answers, and served every request since the previous check and for the hold-down before it. A
     * ping alone said UP while slow queries held the pool (a ping takes a connection as one frees up, between requests
     * refused one) and while a lock held the interaction writer: the requests failed, readiness did not. Without the
     * hold-down, a check a second could find no failure between two of a client's requests, each failing after its
     * 1.5 s wait: readiness went 200, 200, 503, 200, 503 while every one failed (an operator's trial), and a load
     * balancer that needs three failures in a row never took the instance out.
     */
    private boolean databaseServes() {
        long refused = connectionsRefused.getAsLong();
        long failed = interactionsFailed.getAsLong();
        long now = System.nanoTime();
        if (refused != refusedBefore || failed != failedBefore) {
            lastFailureSeen = now;
            failureSeen = true;
        }
        refusedBefore = refused;
        failedBefore = failed;
        boolean failingLately = failureSeen && now - lastFailureSeen < holdDownNanos;
        String down = databaseProblem();
        if (down == null && failingLately) {
            down = "requests failed since the check before (refused a connection, or interactions not stored); DOWN"
                   + " until " + Duration.ofNanos(holdDownNanos).toMillis() + " ms after the last such failure"
                   + " (tracking.batch.max-wait and a second)";
        }
        logChange(down, now);
        return down == null;
    }

    /**
     * A line when readiness goes DOWN, and again only when the reason changes, and one when it is UP again: an operator
     * sees when and why, and a balancer asking every second does not make a line a second (14 lines in a 20 s outage
     * before, and none when it ended).
     */
    private void logChange(String down, long now) {
        if (down == null) {
            if (downSince != 0) {
                LOGGER.log(Level.INFO, "Readiness: UP again, after " + Duration.ofNanos(now - downSince).toMillis()
                        + " ms DOWN");
                downSince = 0;
                downBecause = null;
            }
            return;
        }
        if (downSince == 0) {
            downSince = now == 0 ? 1 : now;
        }
        if (downBecause == null || !sameReason(down, downBecause)) {
            LOGGER.log(Level.WARNING, "Readiness: DOWN: " + down);
            downBecause = down;
        }
    }

    /**
     * Two reasons are the same but for their figures: the pool says "request timed out after 800ms" at one check and
     * "after 801ms" at the next, which made a second line for one outage (a CI run counted three).
     */
    static boolean sameReason(String one, String other) {
        return FIGURES.matcher(one).replaceAll("#").equals(FIGURES.matcher(other).replaceAll("#"));
    }

    /**
     * Why the database does not serve, or null when it answers. Bounded like any request: the pool's wait and the
     * driver's time-outs (docs/behaviour.md#connections-and-errors).
     */
    private String databaseProblem() {
        try {
            return db.execute().namedGet("ping").isPresent() ? null : "the database answered the check with no row";
        } catch (RuntimeException e) {
            return "the database does not answer: " + e.getMessage();
        }
    }

    private static void send(ServerRequest request, ServerResponse response, Status status, JsonObject body) {
        response.status(status);
        response.header(ResponseHeaders.of(HeaderNames.CACHE_CONTROL, "no-store"));
        JsonAnswers.send(request, response, body);
    }
}
