package dev.herald.stats;

import java.util.Map;

import dev.herald.support.TestDatabase;

class StatsTimeBoundH2Test extends StatsTimeBoundContract {

    private final TestDatabase database = TestDatabase.h2();

    @Override
    String endlessLocaleCounts() {
        // Billions of rows to filter: H2 checks its QUERY_TIMEOUT as it goes.
        return "SELECT locale, type, SUM(total) AS total FROM interaction_daily_totals WHERE notification_id = :id AND "
                + "day_number >= :fromDay AND day_number < :toDay AND (SELECT COUNT(*) FROM SYSTEM_RANGE(1, "
                + "5000000000) r (v) WHERE MOD(v, 7) = 9) = 0 GROUP BY locale, type";
    }

    @Override
    Map<String, String> settings() {
        return Map.of();
    }

    @Override
    TestDatabase database() {
        return database;
    }
}
