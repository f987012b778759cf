#!/usr/bin/env bash
# What an eventId costs tracking (docs/api.md#retrying-a-tracking-request): one Herald (the jar with the launcher's
# JVM flags) on MariaDB, simple clicks at 64 connections, three modes in turn each round: without an id ("none",
# the body carries "eventId":null, so that every mode sends a body of about one size), a fresh id each request
# ("unique": each batch looks its ids up and inserts them), and one of 100 ids ("repeated": nearly every request a
# repeat, answered 204 and not stored). After each run: the 204s against the rows stored and the ids kept (unique:
# every 204 stored once; repeated: 100 rows in all), and the CPU of Herald and MariaDB per request.
#   bench/event-ids.sh [--no-build] [rounds, default 3] [seconds a run, default 8]
# Needs: wrk, a MariaDB root login without password on 127.0.0.1:3306, a JDK >= 21 (tools/jdk.sh), Maven to build.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh
# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 java
BUILD=true
if [ "${1:-}" = --no-build ]; then BUILD=false; shift; fi
ROUNDS=${1:-3}
SECONDS_A_RUN=${2:-8}
DB=herald_event_ids_bench
PORT=18861
TOKEN=BenchAdminToken0123456789BenchAdminToken0123
trap bench_stop_jar EXIT
$BUILD && mvn -B -q -DskipTests package
bench_start_jar "" ""
PROJECT=$(bench_admin POST /projects '{"name":"Event ids bench"}' | json_field id)
NOTIFICATIONS=()
for _ in 1 2 3 4; do
    NOTIFICATIONS+=("$(bench_admin POST "/projects/$PROJECT/notifications" \
        '{"status":"PUBLISHED","message":"{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Hello\"}]}]}"}' | json_field id)")
done
MARIADB=$(listener_pids 3306)
URL="http://127.0.0.1:$PORT/api/v1/public/track"

load() { wrk -t2 -c64 -d"$1s" -s bench/event-ids.lua "$URL/$2" -- "$3" > /dev/null; }
warm_until_settled "$PID" 15 60 20 load "${NOTIFICATIONS[0]}" none
echo "warmed up in ${WARMED% *} s (compilers at ${WARMED#* } ms a second)"
printf '%-6s %-9s %10s %8s %10s %10s %12s %12s\n' round mode requests/s p99_ms answered stored ms_herald ms_mariadb
declare -A RPS
for round in $(seq 1 "$ROUNDS"); do
    n=1
    for mode in none unique repeated; do
        id=${NOTIFICATIONS[$n]}
        n=$((n + 1))
        sql "$DB" -e "DELETE FROM interactions WHERE notification_id = '$id'"
        before_ids=$(sql "$DB" -e "SELECT COUNT(*) FROM interaction_event_ids")
        herald_before=$(cpu_ms "$PID"); db_before=$(cpu_ms "$MARIADB")
        out=$(wrk -t2 -c64 -d"${SECONDS_A_RUN}s" --latency -s bench/event-ids.lua "$URL/$id" -- "$mode")
        herald_ms=$(awk -v a="$herald_before" -v b="$(cpu_ms "$PID")" 'BEGIN { print b - a }')
        db_ms=$(awk -v a="$db_before" -v b="$(cpu_ms "$MARIADB")" 'BEGIN { print b - a }')
        rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<< "$out")
        answered=$(sed -n 's/^answers: 204=\([0-9]*\) other=.*/\1/p' <<< "$out")
        other=$(sed -n 's/^answers: 204=[0-9]* other=\([0-9]*\).*/\1/p' <<< "$out")
        p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
            else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; print v }' <<< "$out")
        sleep 1
        stored=$(sql "$DB" -e "SELECT COUNT(*) FROM interactions WHERE notification_id = '$id'")
        ids=$(( $(sql "$DB" -e "SELECT COUNT(*) FROM interaction_event_ids") - before_ids ))
        [ "$other" = 0 ] || die "$mode: $other answers were not 204"
        case $mode in
            none) [ "$stored" -ge "$answered" ] || die "none: $answered answered, $stored stored" ;;
            unique) [ "$stored" -ge "$answered" ] && [ "$ids" = "$stored" ] \
                        || die "unique: $answered answered, $stored stored, $ids ids kept" ;;
            repeated) [ "$round" != 1 ] || [ "$stored" = 100 ] || die "repeated: $stored stored, not 100" ;;
        esac
        printf '%-6s %-9s %10.0f %8s %10s %10s %12.1f %12.1f\n' "$round" "$mode" "$rps" "$p99" "$answered" "$stored" \
            "$(awk -v c="$herald_ms" -v n="$answered" 'BEGIN { print c * 1000 / n }')" \
            "$(awk -v c="$db_ms" -v n="$answered" 'BEGIN { print c * 1000 / n }')"
        RPS[$mode]="${RPS[$mode]:-} $rps"
    done
done
echo "(ms_herald, ms_mariadb: CPU per 1,000 requests)"
for mode in none unique repeated; do
    echo "$mode: median $(tr ' ' '\n' <<< "${RPS[$mode]}" | grep . | median) requests/s"
done
