package dev.herald.tracking;

import java.time.Clock;
import java.time.Duration;

import dev.herald.config.ConfigValues;
import dev.herald.ratelimit.FixedWindowLimiter;

import io.helidon.config.Config;

/**
 * {@code tracking.metadata.*}: how much enhanced-tracking metadata anonymous clients may make Herald store. The
 * rate limit alone let one address store 16 KiB per request, 1,000 requests a minute: some 22 GB a day per address
 * or IPv6 network (issue 20). Counted in its UTF-8 bytes, rounded up to 64, per client and per project, each in fixed windows like the rate limit's, on each instance; an interaction whose metadata does not
 * fit is refused with 429 before anything is stored, so the client may send it again later. Interactions without
 * metadata are not counted.
 *
 * @param clientKib  kibibytes of metadata one client may have stored per window
 * @param projectKib kibibytes of metadata one project may have stored per window, all clients together
 * @param window     the window's length
 * @param maxClients clients tracked at once (memory bound, as the rate limit's)
 */
record MetadataQuota(int clientKib, int projectKib, Duration window, int maxClients) {

    MetadataQuota {
        if (clientKib < 16 || projectKib < clientKib || window.isNegative() || window.isZero() || maxClients < 1) {
            throw new IllegalArgumentException("tracking.metadata: client-kib must be at least 16 (one metadata "
                    + "object of the largest size), project-kib at least client-kib, window and max-clients positive");
        }
    }

    static MetadataQuota from(Config metadata) {
        return new MetadataQuota(ConfigValues.integer(metadata.get("client-kib"), 4096),
                                 ConfigValues.integer(metadata.get("project-kib"), 65536),
                                 ConfigValues.duration(metadata.get("window"), Duration.ofHours(1)),
                                 ConfigValues.integer(metadata.get("max-clients"), 100_000));
    }

    /** The limiters count units of {@value #UNIT_BYTES} bytes: a KiB each would count 200 bytes as 1,024. */
    private static final int UNIT_BYTES = 64;

    Budget budget(Clock clock) {
        return new Budget(new FixedWindowLimiter<>(units(clientKib), window, maxClients, clock),
                          new FixedWindowLimiter<>(units(projectKib), window, maxClients, clock));
    }

    private static int units(int kib) {
        return (int) Math.min(Integer.MAX_VALUE, (long) kib * 1024 / UNIT_BYTES);
    }

    /** The counts of one running Herald. */
    record Budget(FixedWindowLimiter<Object> clients, FixedWindowLimiter<String> projects) {

        /**
         * Counts the metadata of one interaction, its length in UTF-8, against its client and its project.
         *
         * @return 0 if it fits; else the seconds until it may (the client's window, or the project's)
         */
        long take(Object client, String projectId, int metadataBytes) {
            int units = Math.max(1, (metadataBytes + UNIT_BYTES - 1) / UNIT_BYTES);
            FixedWindowLimiter.Decision byClient = clients.acquire(client, units);
            if (!byClient.allowed()) {
                return byClient.resetSeconds();
            }
            FixedWindowLimiter.Decision byProject = projects.acquire(projectId, units);
            return byProject.allowed() ? 0 : byProject.resetSeconds();
        }
    }
}
