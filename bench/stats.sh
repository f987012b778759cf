#!/usr/bin/env bash
# Stats on 10 million interactions: the migration that adds up their daily totals, timings of the two stats
# routes under config/prod.yaml's time-outs, and MariaDB's plans for their queries.
#   bench/stats.sh [interactions, default 10000000]
# Needs: a JDK >= 21, Maven, curl, a MariaDB root login without password (MariaDB's sequence engine makes the rows).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-10000000}
PORT=18810
DB=herald_stats_bench
TOKEN=bench-token-0123456789abcdef0123456789   # Herald refuses tokens under 32 characters
DAY=86400000
START=1761955200000   # 2025-11-01T00:00:00Z: 90 days of activity from here

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }

mvn -B -q package -DskipTests
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
LOG=$(mktemp)
HERALD=
start_herald() {
    : > "$LOG"
    DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
        SERVER_PORT=$PORT OBSERVE_PORT=0 ADMIN_TOKENS=$TOKEN \
        "$JAVA_HOME/bin/java" -jar target/herald.jar config/prod.yaml > "$LOG" 2>&1 &
    HERALD=$!
    for _ in $(seq 1 1200); do grep -q "Herald listening" "$LOG" && return 0; sleep 0.5; done
    echo "Herald did not start:"; cat "$LOG"; exit 1
}
trap 'kill $HERALD 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -f "$LOG"' EXIT
start_herald

echo "generating $ROWS interactions over 100 notifications and 90 days..."
SECONDS=0
sql "$DB" <<SQL
INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Bench', $START);
INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, updated_at)
    SELECT CONCAT('n', seq), 'bench', 'PUBLISHED', 'm', 'NO_ACTION', 'default', $START, $START FROM seq_0_to_99;
INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint)
    SELECT CONCAT('n', seq % 100), 'bench',
           CASE WHEN seq % 20 < 16 THEN 'impression' WHEN seq % 20 < 19 THEN 'click' ELSE 'conversion' END,
           $START + (seq * 7919) % (90 * $DAY), $START + (seq * 7919) % (90 * $DAY), 'simple'
    FROM seq_1_to_$ROWS;
ANALYZE TABLE interactions;
SQL
echo "generated in ${SECONDS}s: $(sql "$DB" -e 'SELECT COUNT(*) FROM interactions') rows"

# The rows went straight into interactions, as if recorded before version 3: undo versions 3 to 5 and start again,
# so that the migrations add them up as they would on an upgrade (3 adds them up, 4 copies the totals into
# interaction_daily_totals, 5 drops the old table).
kill -TERM $HERALD; wait $HERALD || true
sql "$DB" -e "DROP TABLE interaction_daily_totals; DELETE FROM schema_migrations WHERE version IN (3, 4, 5)"
SECONDS=0
start_herald
echo "started again in ${SECONDS}s, migrations 3 to 5 included: $(grep -o 'Applied schema migration 3.*' "$LOG")"
echo "daily totals: $(sql "$DB" -e 'SELECT COUNT(*), SUM(total) FROM interaction_daily_totals' | tr '\t' ' ') (rows, interactions)"

# A warm-up call, then five timed ones; each must answer 200 (a query cut by the socket time-out answers 500).
time_route() {
    local path=$1 times=() answer
    curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$PORT/api/v1/admin$path"
    for _ in 1 2 3 4 5; do
        answer=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer $TOKEN" \
            "http://127.0.0.1:$PORT/api/v1/admin$path")
        [ "${answer% *}" = 200 ] || { echo "status ${answer% *}"; return; }
        times+=("${answer#* }")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}
time_all() {
    echo "median of 5 (seconds), over HTTP:"
    echo "  notification stats, all time (100,000 interactions):   $(time_route /notifications/n7/stats)"
    echo "  notification stats, one week:                           $(time_route '/notifications/n7/stats?from=2025-12-01&to=2025-12-07')"
    echo "  project stats, all time ($ROWS interactions):         $(time_route /projects/bench/stats)"
    echo "  project stats, one week:                                $(time_route '/projects/bench/stats?from=2025-12-01&to=2025-12-07')"
    echo "  project stats, one day:                                 $(time_route '/projects/bench/stats?from=2025-12-01&to=2025-12-01')"
}
echo
time_all

echo
echo "plans (MariaDB EXPLAIN):"
sql -t "$DB" -e "EXPLAIN SELECT day_number, type, total FROM interaction_daily_totals
    WHERE notification_id = 'n7' AND day_number >= -9223372036854775808 AND day_number < 9223372036854775807
    ORDER BY day_number"
sql -t "$DB" -e "EXPLAIN SELECT notification_id, type, SUM(total) FROM interaction_daily_totals
    WHERE project_id = 'bench' AND day_number >= $((START / DAY)) AND day_number < 9223372036854775807
    GROUP BY notification_id, type"
