#!/usr/bin/env bash
# Public API throughput, latency and memory of the packaged jar against MariaDB on 127.0.0.1:3306.
#   bench/run.sh [seconds per run, default 20] [connections, default 32]
# Needs: a JDK >= 21 (JAVA_HOME or /usr/lib/jvm), Maven, wrk (apt-get install wrk), a MariaDB root login
# without password. Seeds its own database (herald_bench), drops it at the end, and checks that every
# interaction answered 204 is in the database.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-20}
CONNECTIONS=${2:-32}
PORT=18800
DB=herald_bench
KEY=BenchKey0123456789BenchKey0123456789ABCD
# An enhanced click with metadata, as a browser SDK sends it (wrk script: bench/hotpaths.lua), timed now: the
# enhanced endpoint refuses timestamps far from the server's clock.
TRACK_BODY='{"type":"click","timestamp":"'$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)'","metadata":{"sdk":"web","version":"1.2.3"}}'

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }

mvn -B -q package -DskipTests
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

LOG=$(mktemp)
DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
    SERVER_PORT=$PORT OBSERVE_PORT=0 RATE_DASH_LIMIT_REQUESTS=1000000000 \
    TRACKING_METADATA_CLIENT_DASH_KIB=2000000000 TRACKING_METADATA_PROJECT_DASH_KIB=2000000000 \
    "$JAVA_HOME/bin/java" -jar target/herald.jar config/prod.yaml > "$LOG" 2>&1 &
HERALD=$!
trap 'kill $HERALD 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 60); do grep -q "Herald listening" "$LOG" && break; sleep 0.5; done
grep -q "Herald listening" "$LOG" || { cat "$LOG"; exit 1; }
echo "started: $(grep -o '[0-9]* milliseconds since JVM startup' "$LOG")"

# One project, one key, 200 current published notifications with rich-text messages, one to track.
NOW=$(($(date +%s) * 1000))
{
    echo "INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Bench', $NOW);"
    echo "INSERT INTO api_keys (api_key, project_id, show_past, show_future, order_by, created_at, revoked_at) VALUES ('$KEY', 'bench', FALSE, FALSE, 'createdAt_desc', $NOW, NULL);"
    for i in $(seq 1 200); do
        echo "INSERT INTO notifications (id, project_id, status, message, image, action_type, action_url, action_target,"\
             "preset, start_at, end_at, created_at, updated_at) VALUES ('bench_$i', 'bench', 'PUBLISHED',"\
             "'{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Notification $i\"}]}]}',"\
             "'https://cdn.example.com/$i.png', 'LINK', 'https://example.com/$i', '_blank', 'default',"\
             "$((NOW - 3600000)), $((NOW + 86400000)), $((NOW - i * 1000)), $((NOW - i * 1000)));"
    done
} | sql "$DB"

rss() { echo "$(( $(ps -o rss= -p $HERALD) / 1024 )) MiB"; }
echo "resident memory after start: $(rss)"

echo
echo "== GET /api/v1/public/{key}/notifications (200 notifications, ${SECONDS_PER_RUN}s, $CONNECTIONS connections)"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency "http://127.0.0.1:$PORT/api/v1/public/$KEY/notifications" \
    | grep -E 'Latency|50%|99%|Requests/sec|Non-2xx'
echo "resident memory: $(rss)"

echo
echo "== POST /api/v1/public/track/{id}/enhanced (${SECONDS_PER_RUN}s, $CONNECTIONS connections)"
WRK_OUT=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s bench/hotpaths.lua \
    "http://127.0.0.1:$PORT/api/v1/public/track/bench_1/enhanced" -- 204 "$TRACK_BODY")
echo "$WRK_OUT" | grep -E 'Latency|50%|99%|Requests/sec|Non-2xx|answers'
echo "resident memory: $(rss)"

ANSWERED_204=$(echo "$WRK_OUT" | sed -n 's/answers: 204=\([0-9]*\).*/\1/p')
kill -TERM $HERALD
wait $HERALD || true
STORED=$(sql "$DB" -e "SELECT COUNT(*) FROM interactions")
COUNTED=$(sql "$DB" -e "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals")
echo
echo "interactions answered 204: ${ANSWERED_204:-none}, stored: $STORED, in the daily totals: $COUNTED"
[ "$STORED" -eq "$COUNTED" ] || { echo "DAILY TOTALS DISAGREE WITH THE INTERACTIONS"; exit 1; }
# Stored may exceed answered: wrk stops counting with requests still in flight. Never the other way round.
[ -n "$ANSWERED_204" ] && [ "$ANSWERED_204" -gt 0 ] || { echo "wrk reported no 204 answers"; exit 1; }
[ "$ANSWERED_204" -le "$STORED" ] || { echo "LOST INTERACTIONS: $((ANSWERED_204 - STORED))"; exit 1; }
