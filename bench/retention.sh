#!/usr/bin/env bash
# Retention on 10 M interactions (issue 20): MariaDB holding 9 M raw interactions older than
# tracking.retention.raw-days and 1 M younger; Herald's runtime image tracking clicks under wrk (64 connections)
# first with retention off, then while it prunes, side by side; then how long the whole prune took (its log line),
# what is left, and that the daily totals were not touched.
#   bench/retention.sh [old rows, default 9000000] [young rows, default 1000000]
# Needs: wrk, curl, a MariaDB root login without password on 127.0.0.1:3306 (its sequence engine makes the rows),
# the image (jlink/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh
OLD=${1:-9000000}
YOUNG=${2:-1000000}
DB=herald_retention_bench
KEY=BenchKey0123456789BenchKey0123456789ABCD
PORT=18861
OBSERVE=18862
IMAGE=target/herald-image
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
log() { printf '[retention] %s\n' "$*"; }
export DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD=''
export SERVER_PORT=$PORT OBSERVE_PORT=$OBSERVE RATE_DASH_LIMIT_REQUESTS=1000000000
WORK=$(mktemp -d)
PID=
trap '[ -z "$PID" ] || kill "$PID" 2>/dev/null; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -rf "$WORK"' EXIT
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

start() {
    "$IMAGE/bin/herald" config/prod.yaml > "$WORK/herald.log" 2>&1 &
    PID=$!
    for _ in $(seq 1 300); do
        curl -s -o /dev/null "http://127.0.0.1:$OBSERVE/observe/health/ready" && return
        sleep 0.1
    done
    cat "$WORK/herald.log"; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

TRACKING_RETENTION_RAW_DASH_DAYS=0 start
stop
bench_feed_sql "$KEY" | sql "$DB"
NOW=$(($(date +%s) * 1000))
DAY=86400000
log "seeding $OLD interactions received 500 days ago and $YOUNG today"
SECONDS=0
sql "$DB" -e "INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint)
              SELECT 'bench_1', 'bench', 'click', $NOW - 500 * $DAY + seq, $NOW - 500 * $DAY + seq, 'simple'
              FROM seq_1_to_$OLD;
              INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint)
              SELECT 'bench_1', 'bench', 'click', $NOW - $DAY + seq, $NOW - $DAY + seq, 'simple'
              FROM seq_1_to_$YOUNG;
              INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, total) VALUES ('bench', 0, 'bench_1', 'click', $OLD + $YOUNG);"
log "seeded in ${SECONDS} s; table: $(sql -e "SELECT ROUND((data_length + index_length) / 1048576) FROM information_schema.tables WHERE table_schema = '$DB' AND table_name = 'interactions'") MiB"

# A file, not standard input: each of wrk's threads loads the script.
cat > "$WORK/track.lua" <<'LUA'
wrk.method = "POST"
wrk.path = "/api/v1/public/track/bench_2"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"type":"click"}'
LUA
track() {
    wrk -t2 -c64 -d"$1" -s "$WORK/track.lua" "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Latency|Non-2xx|Socket errors|requests in'
}
log "tracking, retention off (15 s)"
TRACKING_RETENTION_RAW_DASH_DAYS=0 start
track 15s
stop
log "tracking while retention prunes (15 s)"
TRACKING_RETENTION_RAW_DASH_DAYS=400 TRACKING_RETENTION_INTERVAL=PT0.5S start
track 15s
log "waiting for the prune to finish"
for _ in $(seq 1 3600); do grep -q "Retention: " "$WORK/herald.log" && break; sleep 1; done
grep "Retention: " "$WORK/herald.log" | head -1
stop
log "left: $(sql "$DB" -e "SELECT COUNT(*) FROM interactions") interactions, the oldest received $(sql "$DB" -e "SELECT ROUND(($NOW - MIN(received_at)) / $DAY) FROM interactions") days ago; daily totals of the seeded rows: $(sql "$DB" -e "SELECT total FROM interaction_daily_totals WHERE day_number = 0")"
