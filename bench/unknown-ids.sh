#!/usr/bin/env bash
# Tracking for made-up notification ids (issue 20): one Herald runtime image against MariaDB (config/prod.yaml, the
# feed of bench/common.sh), 400 connections posting a click for a fresh random id each request for 10 s, with the
# rate limit and the per-client limit lifted (wrk has one address). Prints wrk's figures, readiness sampled every
# 0.2 s meanwhile, the 500s Herald counted, and how the existence checks were answered (memory or database).
#   bench/unknown-ids.sh [image, default target/herald-image] [another image, run after it in the same minutes]
# Needs: wrk, curl, a MariaDB root login without password on 127.0.0.1:3306, the images (jlink/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh
DB=herald_unknown_ids_bench
KEY=BenchKey0123456789BenchKey0123456789ABCD
PORT=18851
OBSERVE=18852
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
export DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD=''
export SERVER_PORT=$PORT OBSERVE_PORT=$OBSERVE RATE_DASH_LIMIT_REQUESTS=1000000000
export LIMITS_CONNECTIONS_DASH_PER_DASH_CLIENT=1000
WORK=$(mktemp -d)
PID=
trap '[ -z "$PID" ] || kill "$PID" 2>/dev/null; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -rf "$WORK"' EXIT
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

ready() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$OBSERVE/observe/health/ready" || true; }
run() {
    local image=$1
    "$image/bin/herald" config/prod.yaml > "$WORK/herald.log" 2>&1 &
    PID=$!
    for _ in $(seq 1 200); do [ "$(ready)" = 200 ] && break; sleep 0.1; done
    [ "$(sql -e "SELECT COUNT(*) FROM $DB.projects")" -gt 0 ] || bench_feed_sql "$KEY" | sql "$DB"
    sleep 2
    echo "== $image"
    (for _ in $(seq 1 50); do ready; echo; sleep 0.2; done > "$WORK/ready") &
    local sampler=$!
    wrk -t2 -c400 -d10s -s bench/unknown-ids.lua "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Latency|Non-2xx|Socket errors'
    wait "$sampler"
    echo "readiness, 50 samples: $(sort "$WORK/ready" | uniq -c | awk '{printf "%s x %s  ", $1, $2}')"
    curl -s "http://127.0.0.1:$OBSERVE/observe/metrics" \
        | grep -E '^herald_http_requests_total\{method="POST",route="/api/v1/public/track/\{notificationId\}",status="500"\}|^herald_tracking_notification_lookups_total' \
        || echo "(no 500s counted)"
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=
}
run "${1:-target/herald-image}"
[ -z "${2:-}" ] || run "$2"
