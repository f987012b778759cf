#!/usr/bin/env bash
# The runtime image against MariaDB: size, start to first served request (median of 10), resident memory after
# start and under a minute of load, with and without the start-up cache, and the plain jar for comparison.
#   bench/image.sh [seconds of load, default 60]
# Needs: what jlink/build.sh needs, python3, wrk (apt-get install wrk), a MariaDB root login without password.
set -euo pipefail
cd "$(dirname "$0")/.."
LOAD_SECONDS=${1:-60}
PORT=18820
DB=herald_image_bench
KEY=BenchKey0123456789BenchKey0123456789ABCD
# An enhanced click with metadata, as a browser SDK sends it (wrk script: bench/hotpaths.lua), timed now: the
# enhanced endpoint refuses timestamps far from the server's clock.
TRACK_BODY='{"type":"click","timestamp":"'$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)'","metadata":{"sdk":"web","version":"1.2.3"}}'
IMAGE=target/herald-image
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
# shellcheck source=bench/common.sh
. bench/common.sh
# The jar runs on the JDK the image was linked from, so that only the packaging differs.
use_jdk 25 jlink
JAVA=$JAVA_HOME/bin/java
[ -x "$IMAGE/bin/herald" ] || bash jlink/build.sh

export DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD=''
export SERVER_PORT=$PORT OBSERVE_PORT=0 RATE_DASH_LIMIT_REQUESTS=1000000000
# The metadata quota lifted as the rate limit is: one wrk address sends what thousands of clients would.
export TRACKING_METADATA_CLIENT_DASH_KIB=2000000000 TRACKING_METADATA_PROJECT_DASH_KIB=2000000000
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
HERALD=
LOG=$(mktemp)
trap 'kill $HERALD 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -f "$LOG"' EXIT

FEED="http://127.0.0.1:$PORT/api/v1/public/$KEY/notifications"
# Starts Herald with the given command; ELAPSED: the milliseconds until it served the feed (200). The poller is one
# Python process: with a curl process per poll, the start read 60-70 ms longer (docs/performance.md).
ELAPSED=
start() {
    local result
    result=$(python3 bench/first-answer.py "$FEED" "$LOG" "$@" config/prod.yaml) || { cat "$LOG"; exit 1; }
    ELAPSED=${result% *}
    HERALD=${result#* }
}
# Whether the process runs (a zombie does not: kill -0 would say it does).
alive() { local state; state=$(ps -o stat= -p "$1") || return 1; [[ $state != Z* ]]; }
# Started by start(), Herald is the poller's child, not ours: wait only reaps our own, the loop waits for the other.
stop() {
    kill -TERM "$HERALD"
    wait "$HERALD" 2>/dev/null || true
    while alive "$HERALD"; do sleep 0.05; done
    HERALD=
}
rss() { echo "$(( $(ps -o rss= -p "$HERALD") / 1024 ))"; }

# A first start creates the schema; then one key and 20 current notifications to serve.
"$IMAGE/bin/herald" config/prod.yaml > "$LOG" 2>&1 &
HERALD=$!
for _ in $(seq 1 100); do grep -q "Herald listening" "$LOG" && break; sleep 0.1; done
stop
bench_feed_sql "$KEY" | sql "$DB"

echo "image: $(du -s --apparent-size -B1 "$IMAGE" | cut -f1) bytes," \
     "without the start-up cache $(( $(du -s --apparent-size -B1 "$IMAGE" | cut -f1) - $(stat -c %s "$IMAGE/lib/herald.aot") )) bytes"

for variant in cache no-cache jar; do
    times=()
    for _ in $(seq 1 10); do
        case $variant in
            cache)    start "$IMAGE/bin/herald" ;;
            no-cache) start env HERALD_AOT=off "$IMAGE/bin/herald" ;;
            jar)      start "$JAVA" -jar target/herald.jar ;;
        esac
        times+=("$ELAPSED")
        stop
    done
    echo "start to first served request, $variant: median $(printf '%s\n' "${times[@]}" | median) ms (${times[*]})"
done

# The same mixed load on the image (the launcher's memory settings) and on the jar (the JVM's defaults: here a
# heap of up to a quarter of the machine's memory): what the small heap costs in throughput, if anything.
load() {
    local name=$1
    shift
    start "$@"
    sleep 1
    echo "$name: resident memory after start $(rss) MiB"
    ( while alive "$HERALD"; do rss; sleep 1; done ) > "$LOG.rss" 2>/dev/null &
    local sampler=$!
    wrk -t1 -c16 -d"${LOAD_SECONDS}s" --latency "$FEED" > "$LOG.feed" &
    local feed_load=$!
    wrk -t1 -c16 -d"${LOAD_SECONDS}s" --latency -s bench/hotpaths.lua \
        "http://127.0.0.1:$PORT/api/v1/public/track/bench_1/enhanced" -- 204 "$TRACK_BODY" > "$LOG.track"
    wait "$feed_load"
    kill "$sampler" 2>/dev/null || true
    echo "  under $LOAD_SECONDS s of load (feed and tracking, 16 connections each): peak resident memory" \
         "$(sort -n "$LOG.rss" | tail -n 1) MiB"
    echo "  feed:     $(grep 'Requests/sec' "$LOG.feed" | awk '{print $2}') requests/s, p99 $(grep ' 99%' "$LOG.feed" | awk '{print $2}')"
    echo "  tracking: $(grep 'Requests/sec' "$LOG.track" | awk '{print $2}') requests/s, p99 $(grep ' 99%' "$LOG.track" | awk '{print $2}')"
    rm -f "$LOG.rss" "$LOG.feed" "$LOG.track"
    stop
}
# Twice each, in the order image, jar, jar, image: the machine's speed drifts over minutes (a single image-then-jar
# pair once read the jar 13 % faster; interleaved, the two were level), and tracking grows the table as it goes.
load image "$IMAGE/bin/herald"
load jar "$JAVA" -jar target/herald.jar
load jar "$JAVA" -jar target/herald.jar
load image "$IMAGE/bin/herald"
