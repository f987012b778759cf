#!/usr/bin/env bash
# Tracking for made-up notification ids (issue 20): one Herald runtime image against MariaDB (config/prod.yaml, the
# feed of bench/common.sh), 400 connections posting a click for a fresh random id each request for 10 s, with the
# rate limit and the per-client limit lifted (wrk has one address). Prints wrk's figures, readiness sampled every
# 0.2 s meanwhile, the 500s Herald counted, and how the existence checks were answered (memory or database).
#   bench/unknown-ids.sh [--at-start] [image, default target/herald-image] [another image, run after it]
# --at-start (issue 33): the database holds the feed and 100,000 more notifications before Herald starts, and wrk
# starts as the port listens, so that the flood meets an instance whose notification ids are still loading; readiness
# is sampled every 0.1 s from then. An image may also be a jar (run with the launcher's JVM flags).
# Needs: wrk, curl, a MariaDB root login without password on 127.0.0.1:3306, the images (jlink/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh
# shellcheck source=tools/jdk.sh
. tools/jdk.sh
AT_START=false
if [ "${1:-}" = --at-start ]; then AT_START=true; shift; fi
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
# The feed of bench/common.sh, and for --at-start 100,000 notifications more, as two years of a busy project.
seed() {
    bench_feed_sql "$KEY" | sql "$DB"
    $AT_START || return 0
    sql "$DB" -e "INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, updated_at)
        SELECT CONCAT('old_', seq), 'bench', 'ARCHIVED', 'An old one', 'NO_ACTION', 'default', 0, 0
        FROM seq_1_to_100000"
}
launch() {
    local image=$1
    if [[ $image == *.jar ]]; then
        use_jdk 21 java
        local flags
        flags=$(sed -n '/^exec /,/\$AOT/p' jlink/herald | grep -oE -- '-X[^[:space:]\\]+' | grep -v AOT | tr '\n' ' ')
        # shellcheck disable=SC2086  # the flags are meant to split into words
        java $flags -jar "$image" config/prod.yaml > "$WORK/herald.log" 2>&1 &
    else
        "$image/bin/herald" config/prod.yaml > "$WORK/herald.log" 2>&1 &
    fi
    PID=$!
}
run() {
    local image=$1 sampler
    echo "== $image"
    if $AT_START; then
        sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
        launch "$image"
        for _ in $(seq 1 200); do [ "$(ready)" = 200 ] && break; sleep 0.1; done
        kill "$PID"; wait "$PID" 2>/dev/null || true
        seed
        launch "$image"
        # wrk gives up on a refused connection: it starts the moment the port listens, and readiness with it.
        for _ in $(seq 1 2000); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.005; done
        (for _ in $(seq 1 50); do ready; echo; sleep 0.1; done > "$WORK/ready") &
        sampler=$!
        wrk -t2 -c400 -d5s -s bench/unknown-ids.lua "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Latency|Non-2xx|Socket errors'
    else
        launch "$image"
        for _ in $(seq 1 200); do [ "$(ready)" = 200 ] && break; sleep 0.1; done
        [ "$(sql -e "SELECT COUNT(*) FROM $DB.projects")" -gt 0 ] || seed
        sleep 2
        (for _ in $(seq 1 50); do ready; echo; sleep 0.2; done > "$WORK/ready") &
        sampler=$!
        wrk -t2 -c400 -d10s -s bench/unknown-ids.lua "http://127.0.0.1:$PORT" | grep -E 'Requests/sec|Latency|Non-2xx|Socket errors'
    fi
    wait "$sampler"
    echo "readiness, 50 samples: $(sort "$WORK/ready" | uniq -c | awk '{printf "%s x %s  ", $1, $2}')"
    curl -s "http://127.0.0.1:$OBSERVE/observe/metrics" \
        | grep -E '^herald_http_requests_total\{method="POST",route="/api/v1/public/track/\{notificationId\}",status="(500|503)"\}|^herald_tracking_notification_lookups_total' \
        || echo "(no 500s counted)"
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=
}
run "${1:-target/herald-image}"
[ -z "${2:-}" ] || run "$2"
