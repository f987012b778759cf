package dev.herald.outbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * {@code notification.live} and {@code notification.ended}: a start or an end passes without a write, so a pass looks
 * for the published notifications whose start or end fell in the last {@link #LOOKBACK}, in the projects with an
 * endpoint that wants it. Each event's id is made from what it is (the notification, which instant, which passed), so
 * that the instances that all find it write it once: the second insert of its deliveries meets their primary key and
 * rolls back (on Galera, loses certification). An instance down longer than the look-back, with no other running,
 * misses what passed meanwhile.
 */
public final class TimePassed {

    private static final System.Logger LOGGER = System.getLogger(TimePassed.class.getName());
    /** How far back each pass looks: an instance that paused (a long GC, a slow database) still finds it. */
    static final Duration LOOKBACK = Duration.ofMinutes(10);
    /** Events this instance wrote or found written, kept for the look-back so a pass does not ask again. */
    private static final int MAX_REMEMBERED = 100_000;

    private final DbClient db;
    private final Outbox outbox;
    private final Clock clock;
    private final Map<String, Long> written = new LinkedHashMap<>();

    public TimePassed(DbClient db, Outbox outbox, Clock clock) {
        this.db = db;
        this.outbox = outbox;
        this.clock = clock;
    }

    /** @return how many events this pass wrote */
    public int pass() {
        long now = clock.millis();
        long from = now - LOOKBACK.toMillis();
        written.values().removeIf(at -> at <= from);
        return pass(EventType.NOTIFICATION_LIVE, "outbox-select-started", from, now)
                + pass(EventType.NOTIFICATION_ENDED, "outbox-select-ended", from, now);
    }

    private int pass(EventType type, String statement, long from, long now) {
        int count = 0;
        List<String> projects = db.execute().namedQuery("outbox-select-projects-wanting", type.wireName())
                .map(row -> Rows.string(row, "project_id")).toList();
        for (String projectId : projects) {
            for (DbRow row : db.execute().namedQuery(statement, projectId, from, now).toList()) {
                String notificationId = Rows.string(row, "id");
                long passedAt = Rows.longValue(row, "passed_at");
                String id = eventId(type, notificationId, passedAt);
                if (written.containsKey(id)) {
                    continue;
                }
                int outcome = write(id, type, projectId, notificationId, passedAt);
                count += Math.max(0, outcome);
                if (outcome >= 0 && written.size() < MAX_REMEMBERED) {
                    written.put(id, passedAt);
                }
            }
        }
        return count;
    }

    /** @return 1 written, 0 written before (or no endpoint wants it any more), -1 not written now */
    private int write(String id, EventType type, String projectId, String notificationId, long passedAt) {
        try {
            boolean[] wrote = {false};
            Transactions.run(db, transaction -> {
                // As every notification write does first: the notification's sequence is advanced by one at a time.
                transaction.namedGet("outbox-lock-project", projectId);
                if (transaction.namedGet("outbox-select-event-exists", id).isPresent()) {
                    return;
                }
                wrote[0] = outbox.write(transaction, new Event(id, projectId, type,
                        Event.notificationSource(notificationId), () -> Json.builders().createObjectBuilder()
                                .add("notificationId", notificationId)
                                .add("projectId", projectId)
                                .add("status", "PUBLISHED")
                                .add(type == EventType.NOTIFICATION_LIVE ? "startAt" : "endAt",
                                     Timestamps.format(passedAt))
                                .build()));
            });
            return wrote[0] ? 1 : 0;
        } catch (RuntimeException e) {
            // Most likely another instance wrote it at the same moment; if not, the next pass tries again.
            LOGGER.log(System.Logger.Level.DEBUG, "Event " + id + " not written now: " + e.getMessage());
            return -1;
        }
    }

    /** The same for every instance: {@code msg_} and 128 bits of SHA-256 of what the event is. */
    static String eventId(EventType type, String notificationId, long passedAt) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((type.wireName() + "\n" + notificationId + "\n"
                    + passedAt).getBytes(StandardCharsets.UTF_8));
            return "msg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
