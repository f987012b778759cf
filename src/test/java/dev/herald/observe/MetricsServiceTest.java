package dev.herald.observe;

import dev.herald.storage.PoolFigures;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * Each pool gauge shows its own figure (MetricsTest checks them on a live pool).
 */
class MetricsServiceTest {

    @Test
    void eachPoolFigureHasItsGauge() {
        StringBuilder out = new StringBuilder();

        MetricsService.writePoolFigures(out, new PoolFigures(1, 2, 3, 4));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_db_pool_active_connections 1\n"));
        assertThat(metrics, containsString("\nherald_db_pool_idle_connections 2\n"));
        assertThat(metrics, containsString("\nherald_db_pool_connections 3\n"));
        assertThat(metrics, containsString("\nherald_db_pool_pending_requests 4\n"));
        assertThat(metrics, containsString("\n# TYPE herald_db_pool_pending_requests gauge\n"));
    }
}
