package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

import dev.herald.config.ConfigValues;
import dev.herald.ratelimit.FixedWindowLimiter;

import io.helidon.config.Config;

/**
 * {@code tracking.metadata.*}: how much enhanced-tracking metadata anonymous clients may make Herald store. The
 * rate limit alone let one address store 16 KiB per request, 1,000 requests a minute: some 22 GB a day per address
 * or IPv6 network (issue 20). Counted in kibibytes (a metadata object of 1 byte to 1 KiB is one), per client and
 * per project, each in fixed windows like the rate limit's, on each instance; an interaction whose metadata does not
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
        return new MetadataQuota(ConfigValues.integer(metadata.get("client-kib"), 1024),
                                 ConfigValues.integer(metadata.get("project-kib"), 65536),
                                 ConfigValues.duration(metadata.get("window"), Duration.ofHours(1)),
                                 ConfigValues.integer(metadata.get("max-clients"), 100_000));
    }

    Budget budget(Clock clock) {
        return new Budget(new FixedWindowLimiter<>(clientKib, window, maxClients, clock),
                          new FixedWindowLimiter<>(projectKib, window, maxClients, clock));
    }

    /** The counts of one running Herald. */
    record Budget(FixedWindowLimiter<Object> clients, FixedWindowLimiter<String> projects) {

        /**
         * Counts the metadata of one interaction against its client and its project.
         *
         * @return 0 if it fits; else the seconds until it may (the client's window, or the project's)
         */
        long take(Object client, String projectId, String metadata) {
            int kib = Math.max(1, (metadata.getBytes(StandardCharsets.UTF_8).length + 1023) / 1024);
            FixedWindowLimiter.Decision byClient = clients.acquire(client, kib);
            if (!byClient.allowed()) {
                return byClient.resetSeconds();
            }
            FixedWindowLimiter.Decision byProject = projects.acquire(projectId, kib);
            return byProject.allowed() ? 0 : byProject.resetSeconds();
        }
    }
}
