package dev.herald.webhook;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.api.Timestamps;
import dev.herald.config.InstanceName;
import dev.herald.outbox.Outbox;
import dev.herald.outbox.TimePassed;

/**
 * Delivers the outbox's events (docs/webhooks.md#delivery-ordering-and-retries). One thread
 * ({@code herald-webhook-worker}) finds due deliveries and claims each with a lease, a conditional UPDATE that one
 * worker of all instances wins; {@code herald-webhook-sender-N} threads send them through the transport and record
 * the attempt. An instance that dies leaves leases that expire, and another instance sends those again: at least
 * once, and once in the normal case.
 *
 * <p>The same thread writes the events of a start or an end that passed ({@link TimePassed}), once across instances.
 *
 * <p>Fair: each pass takes every endpoint with due deliveries, in a random order, and claims for each only what its
 * endpoint's and its project's bounds of deliveries in flight leave, so that a slow endpoint holds at most
 * {@code per-endpoint} senders, and one project at most {@code per-project}; the last {@code reserve} free senders
 * go one each to projects with nothing in flight, so that slow projects together never hold every sender.
 *
 * <p>Stop order ({@link #close()}): stop claiming; let the deliveries in flight finish (their answers recorded) for
 * a bounded time; count the attempts cut short, due again at once; release the claims still held, for another
 * instance or the next start; the pool closes after.
 */
public final class DeliveryWorker implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(DeliveryWorker.class.getName());
    /** How long the stop waits for deliveries in flight. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);
    private static final int PRUNE_BATCH = 1000;

    private final DeliveryStore deliveries;
    private final EndpointStore endpoints;
    private final Outbox outbox;
    private final TimePassed timePassed;
    private final WebhookTransport transport;
    private final WebhookSettings settings;
    private final RetrySchedule schedule;
    private final Clock clock;
    private final String worker;
    private final Thread dispatcher;
    private final ExecutorService senders;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<String, AtomicInteger> perEndpoint = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perProject = new ConcurrentHashMap<>();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder disabled = new LongAdder();
    private volatile boolean closed;
    /** The last pass left due deliveries behind a bound: the next one starts as soon as an attempt ends. */
    private volatile boolean moreDue;
    private final Semaphore attemptEnded = new Semaphore(0);
    private long lastPrune;
    /** Attempts begun and not yet recorded, with when each began: at a stop, those cut short count ({@link #close}). */
    private final Map<Attempting, Long> unrecorded = new ConcurrentHashMap<>();
    private Duration stopWait = STOP_WAIT;

    public DeliveryWorker(DeliveryStore deliveries, EndpointStore endpoints, Outbox outbox, WebhookTransport transport,
                          WebhookSettings settings, RetrySchedule schedule, Clock clock) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.outbox = outbox;
        this.timePassed = new TimePassed(deliveries.client(), outbox, clock);
        this.transport = transport;
        this.settings = settings;
        this.schedule = schedule;
        this.clock = clock;
        this.worker = workerName();
        this.dispatcher = Thread.ofPlatform().name("herald-webhook-worker").daemon().unstarted(this::runUntilClosed);
        AtomicInteger number = new AtomicInteger();
        this.senders = Executors.newFixedThreadPool(settings.senders(), runnable -> Thread.ofPlatform()
                .name("herald-webhook-sender-" + number.getAndIncrement()).daemon().unstarted(runnable));
    }

    /** For tests: how long a stop waits for the deliveries in flight (10 s by default). */
    DeliveryWorker stoppingWithin(Duration wait) {
        this.stopWait = wait;
        return this;
    }

    /** Once the schema is current. */
    public void start() {
        if (settings.enabled()) {
            dispatcher.start();
        }
    }

    /** What this instance's worker calls itself in {@code claimed_by}: unique among instances. */
    String worker() {
        return worker;
    }

    /**
     * One pass that waits for the attempts it started: for tests, after they move the clock.
     *
     * @return how many deliveries were attempted
     */
    public int deliverDue() {
        List<Future<?>> started = claimAndSend();
        for (Future<?> attempt : started) {
            try {
                attempt.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (java.util.concurrent.ExecutionException e) {
                LOGGER.log(Level.WARNING, "Webhook delivery not recorded: " + e.getCause().getMessage());
            }
        }
        return started.size();
    }

    /**
     * One pass: claims what is due within the bounds and hands it to the senders. The thread does not wait for them:
     * a slow endpoint's attempts run while the next passes claim for the others.
     */
    private List<Future<?>> claimAndSend() {
        boolean limited = false;
        long now = clock.millis();
        List<DeliveryStore.DueEndpoint> due = new ArrayList<>(deliveries.dueEndpoints(now));
        Collections.shuffle(due, ThreadLocalRandom.current());
        List<Future<?>> started = new ArrayList<>();
        long leaseUntil = now + settings.lease().toMillis();
        for (DeliveryStore.DueEndpoint endpoint : due) {
            if (closed) {
                break;
            }
            int spare = spare(count(perEndpoint, endpoint.endpointId()).get(),
                              count(perProject, endpoint.projectId()).get());
            if (spare <= 0) {
                limited = true;
                continue;
            }
            List<String> dueEvents = deliveries.dueEvents(endpoint.endpointId(), now, spare);
            limited |= dueEvents.size() == spare;
            for (String eventId : dueEvents) {
                if (deliveries.claim(endpoint.endpointId(), eventId, worker, now, leaseUntil)) {
                    started.add(send(endpoint, eventId));
                }
            }
        }
        moreDue = limited;
        return started;
    }

    /**
     * How many more deliveries an endpoint may take now. Beyond the bounds of its endpoint and its project, the last
     * {@link WebhookSettings#reserve()} free senders go only to a project with nothing in flight, one each: projects
     * whose endpoints hang fill the others, never these, so a project that is not slow finds a sender at once while
     * at most {@code reserve} projects are slow (docs/webhooks.md#delivery-ordering-and-retries).
     */
    private int spare(int endpointInFlight, int projectInFlight) {
        int free = settings.senders() - inFlight.get();
        int beyondReserve = free - settings.reserve();
        int allowed = projectInFlight == 0 ? Math.max(beyondReserve, Math.min(1, free)) : beyondReserve;
        return Math.min(allowed, Math.min(settings.perEndpoint() - endpointInFlight,
                                          settings.perProject() - projectInFlight));
    }

    private Future<?> send(DeliveryStore.DueEndpoint endpoint, String eventId) {
        inFlight.incrementAndGet();
        count(perEndpoint, endpoint.endpointId()).incrementAndGet();
        count(perProject, endpoint.projectId()).incrementAndGet();
        return senders.submit(() -> {
            try {
                attempt(endpoint, eventId);
            } finally {
                inFlight.decrementAndGet();
                count(perEndpoint, endpoint.endpointId()).decrementAndGet();
                count(perProject, endpoint.projectId()).decrementAndGet();
                attemptEnded.release();
            }
        });
    }

    private void attempt(DeliveryStore.DueEndpoint due, String eventId) {
        Optional<DeliveryStore.Claimed> found = deliveries.claimed(due.endpointId(), eventId, worker);
        if (found.isEmpty()) {
            return;
        }
        DeliveryStore.Claimed claimed = found.get();
        long now = clock.millis();
        if (!claimed.endpoint().enabled()) {
            deliveries.release(due.endpointId(), eventId, worker);
            return;
        }
        // An event of interactions is sealed by its first delivery, once its window passed.
        String payload = claimed.payload() == null ? outbox.seal(eventId) : claimed.payload();
        Attempting attempting = new Attempting(due.endpointId(), eventId);
        unrecorded.put(attempting, now);
        try {
            Attempt attempt = transport.deliver(new Delivery(URI.create(claimed.endpoint().url()), eventId,
                    Instant.ofEpochMilli(now), payload.getBytes(StandardCharsets.UTF_8),
                    claimed.endpoint().secrets(now)));
            if (!cutShort()) {
                record(due, eventId, claimed.attempts() + 1, attempt);
            }
        } finally {
            if (!cutShort()) {
                unrecorded.remove(attempting);
            }
        }
    }

    /** Whether the stop interrupted this sender's attempt: the stop counts it ({@link #countCutShort}). */
    private boolean cutShort() {
        return closed && Thread.currentThread().isInterrupted();
    }

    /** An attempt's end, and what follows from it: the next attempt, a disabled endpoint. */
    private void record(DeliveryStore.DueEndpoint due, String eventId, int failures, Attempt attempt) {
        long done = clock.millis();
        switch (attempt.outcome()) {
            case DELIVERED -> {
                if (deliveries.record(due.endpointId(), eventId, worker, "DELIVERED", null, done, attempt)) {
                    delivered.increment();
                    deliveries.succeeded(due.endpointId());
                }
            }
            case GONE -> {
                deliveries.record(due.endpointId(), eventId, worker, "FAILED", null, done, attempt);
                failed.increment();
                disable(due, "The endpoint answered 410 Gone at " + Timestamps.format(done) + ": it asks not to be"
                        + " called again", done);
            }
            case FAILED, REFUSED -> {
                Optional<Duration> wait = schedule.next(failures, attempt.retryAfter());
                deliveries.record(due.endpointId(), eventId, worker, wait.isPresent() ? "PENDING" : "FAILED",
                                  wait.map(next -> done + next.toMillis()).orElse(null), done, attempt);
                failed.increment();
                long since = deliveries.failed(due.endpointId(), done);
                if (done - since >= settings.disableAfter().toMillis()) {
                    disable(due, "Every delivery failed since " + Timestamps.format(since) + ", longer than "
                            + settings.disableAfter() + " (webhooks.disable-after); last: "
                            + DeliveryStore.shortDetail(attempt.detail()), done);
                }
            }
        }
    }

    /** Counted and logged once per endpoint: each delivery in flight when it crossed the line comes here too. */
    private void disable(DeliveryStore.DueEndpoint due, String reason, long now) {
        if (!endpoints.disable(due.projectId(), due.endpointId(), DeliveryStore.shortDetail(reason), now)) {
            return;
        }
        disabled.increment();
        LOGGER.log(Level.WARNING, "Webhook endpoint " + due.endpointId() + " of project " + due.projectId()
                + " disabled: " + reason);
    }

    private static AtomicInteger count(Map<String, AtomicInteger> counts, String key) {
        return counts.computeIfAbsent(key, ignored -> new AtomicInteger());
    }

    /** For {@code /observe/metrics}. */
    public record Figures(long pending, double oldestPendingSeconds, long delivered, long failed, long disabled,
                          int inFlight) {
    }

    /** The backlog is read from the database at each scrape; when it does not answer, -1 pending. */
    public Figures figures() {
        DeliveryStore.Backlog backlog;
        try {
            backlog = deliveries.backlog();
        } catch (RuntimeException e) {
            backlog = new DeliveryStore.Backlog(-1, null);
        }
        double oldest = backlog.oldestCreatedAt() == null ? 0
                : Math.max(0, clock.millis() - backlog.oldestCreatedAt()) / 1000.0;
        return new Figures(backlog.pending(), oldest, delivered.sum(), failed.sum(), disabled.sum(), inFlight.get());
    }

    private void runUntilClosed() {
        while (!closed) {
            try {
                timePassed.pass();
                // Attempts that end from now on wake the wait after this pass.
                attemptEnded.drainPermits();
                claimAndSend();
                pruneNowAndThen();
            } catch (RuntimeException e) {
                LOGGER.log(Level.DEBUG, "Webhook deliveries not claimed: " + e.getMessage());
            }
            try {
                // Work left behind by a bound is claimed as soon as an attempt ends: with a pass a second, an
                // endpoint got at most per-endpoint deliveries a second, and the events of 8,000 interactions a
                // second waited 8 s and more (bench/webhooks.sh).
                if (moreDue) {
                    attemptEnded.tryAcquire(settings.pollInterval().toNanos(), TimeUnit.NANOSECONDS);
                } else {
                    Thread.sleep(settings.pollInterval());
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Retention: events and finished deliveries older than {@code webhooks.retention-days}, a batch at a time. */
    long prune() {
        long cutoff = clock.millis() - Duration.ofDays(settings.retentionDays()).toMillis();
        long deleted = 0;
        long round;
        do {
            round = deliveries.prune(cutoff, PRUNE_BATCH);
            deleted += round;
        } while (round > 0 && !closed);
        return deleted;
    }

    private void pruneNowAndThen() {
        long now = clock.millis();
        if (now - lastPrune >= PRUNE_EVERY.toMillis()) {
            lastPrune = now;
            prune();
        }
    }

    @Override
    public void close() {
        closed = true;
        dispatcher.interrupt();
        try {
            if (dispatcher.getState() != Thread.State.NEW) {
                dispatcher.join(STOP_WAIT);
            }
            senders.shutdown();
            if (!senders.awaitTermination(stopWait.toMillis(), TimeUnit.MILLISECONDS)) {
                senders.shutdownNow();
                senders.awaitTermination(1, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            senders.shutdownNow();
        }
        try {
            countCutShort();
            deliveries.releaseAll(worker);
        } catch (RuntimeException e) {
            LOGGER.log(Level.WARNING, "Webhook claims not released, they expire within " + settings.lease() + ": "
                    + e.getMessage());
        }
    }

    /**
     * The attempts the stop cut short: each reached its receiver, or may have, so it counts, and its outcome being
     * unknown, the delivery is due again at once (the same {@code webhook-id}: at least once). Only a claim still
     * this worker's is recorded, so an attempt that recorded its own end meanwhile is not counted twice.
     */
    private void countCutShort() {
        long now = clock.millis();
        unrecorded.forEach((attempting, began) -> deliveries.record(attempting.endpointId(), attempting.eventId(),
                worker, "PENDING", now, began, new Attempt(Attempt.Outcome.FAILED, 0, Duration.ofMillis(now - began),
                        Optional.empty(), "Herald stopped during the attempt: its outcome is unknown, so it is sent"
                                + " again")));
        unrecorded.clear();
    }

    private record Attempting(String endpointId, String eventId) {
    }

    private static String workerName() {
        String name = InstanceName.host() + "-" + ProcessHandle.current().pid() + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt());
        return name.length() <= 64 ? name : name.substring(name.length() - 64);
    }
}
