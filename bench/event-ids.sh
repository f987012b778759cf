#!/usr/bin/env bash
# What an eventId costs tracking (docs/api.md#retrying-a-tracking-request): one Herald (the jar with the launcher's
# JVM flags) on MariaDB, simple clicks at 64 connections spread over the notifications of EVENT_IDS_PROJECTS projects
# (default 1; one notification each), four modes in turn each round: without an id ("none", the body carries
# "eventId":null, so that every mode sends a body of about one size), a fresh id each request ("unique"), the same
# while another client repeats one stored id every 2 s ("unique+repeat": what one retry, or one hostile client, does to
# everyone's batches), and one of 100 ids ("repeated": nearly every request a repeat, answered 204 and not stored).
# After each run: the 204s against the rows stored and the ids kept, and the CPU of Herald and MariaDB per request.
#   [EVENT_IDS_PROJECTS=200] bench/event-ids.sh [--no-build] [rounds, default 3] [seconds a run, default 8]
# Needs: wrk, curl, a MariaDB root login without password on 127.0.0.1:3306, a JDK >= 21 (tools/jdk.sh), Maven.
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
PROJECTS=${EVENT_IDS_PROJECTS:-1}
MESSAGE='{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Hello"}]}]}'
TARGETS=()
for p in $(seq 1 "$PROJECTS"); do
    project=$(bench_admin POST /projects "{\"name\":\"Event ids bench $p\"}" | json_field id)
    TARGETS+=("$(bench_admin POST "/projects/$project/notifications" \
        "{\"status\":\"PUBLISHED\",\"message\":$(printf '%s' "$MESSAGE" | sed 's/"/\\"/g; s/^/"/; s/$/"/')}" | json_field id)")
done
MARIADB=$(listener_pids 3306)
BASE="http://127.0.0.1:$PORT"
REPEAT="$BASE/api/v1/public/track/${TARGETS[0]}"
repeat_once() { curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"type":"click","eventId":"bench-repeat"}' "$REPEAT"; }
count() { sql "$DB" -e "SELECT COUNT(*) FROM $1"; }
gcd() { local a=$1 b=$2; while [ "$b" -ne 0 ]; do set -- "$b" $((a % b)); a=$1 b=$2; done; echo "$a"; }
PAIRS=$((PROJECTS * 100 / $(gcd "$PROJECTS" 100)))

load() { wrk -t2 -c64 -d"$1s" -s bench/event-ids.lua "$BASE" -- "$2" "${TARGETS[@]}" > /dev/null; }
warm_until_settled "$PID" 15 60 20 load none
echo "warmed up in ${WARMED% *} s (compilers at ${WARMED#* } ms a second); $PROJECTS project(s)"
repeat_once
printf '%-6s %-13s %10s %8s %10s %10s %12s %12s\n' round mode requests/s p99_ms answered stored ms_herald ms_mariadb
declare -A RPS
MODES="none unique unique+repeat repeated"
for round in $(seq 1 "$ROUNDS"); do
    for mode in $MODES; do
        before_rows=$(count interactions); before_ids=$(count interaction_event_ids)
        repeater=
        if [ "$mode" = unique+repeat ]; then
            (while :; do repeat_once; sleep 2; done) &
            repeater=$!
        fi
        herald_before=$(cpu_ms "$PID"); db_before=$(cpu_ms "$MARIADB")
        out=$(wrk -t2 -c64 -d"${SECONDS_A_RUN}s" --latency -s bench/event-ids.lua "$BASE" -- "${mode%+repeat}" "${TARGETS[@]}")
        herald_ms=$(awk -v a="$herald_before" -v b="$(cpu_ms "$PID")" 'BEGIN { print b - a }')
        db_ms=$(awk -v a="$db_before" -v b="$(cpu_ms "$MARIADB")" 'BEGIN { print b - a }')
        [ -z "$repeater" ] || { kill "$repeater"; wait "$repeater" 2>/dev/null || true; }
        rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<< "$out")
        answered=$(sed -n 's/^answers: 204=\([0-9]*\) other=.*/\1/p' <<< "$out")
        other=$(sed -n 's/^answers: 204=[0-9]* other=\([0-9]*\).*/\1/p' <<< "$out")
        p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 }
            else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; print v }' <<< "$out")
        sleep 1
        stored=$(( $(count interactions) - before_rows ))
        ids=$(( $(count interaction_event_ids) - before_ids ))
        [ "$other" = 0 ] || die "$mode: $other answers were not 204"
        case $mode in
            none) [ "$stored" -ge "$answered" ] && [ "$ids" = 0 ] || die "none: $answered answered, $stored stored, $ids ids" ;;
            unique*) [ "$stored" -ge "$answered" ] && [ "$ids" = "$stored" ] \
                        || die "$mode: $answered answered, $stored stored, $ids ids kept" ;;
            repeated) [ "$stored" = "$ids" ] && { [ "$round" != 1 ] || [ "$stored" = "$PAIRS" ]; } \
                        || die "repeated: $stored stored, $ids ids kept (round 1: $PAIRS pairs)" ;;
        esac
        printf '%-6s %-13s %10.0f %8s %10s %10s %12.1f %12.1f\n' "$round" "$mode" "$rps" "$p99" "$answered" "$stored" \
            "$(awk -v c="$herald_ms" -v n="$answered" 'BEGIN { print c * 1000 / n }')" \
            "$(awk -v c="$db_ms" -v n="$answered" 'BEGIN { print c * 1000 / n }')"
        RPS[$mode]="${RPS[$mode]:-} $rps"
    done
done
echo "(ms_herald, ms_mariadb: CPU per 1,000 requests)"
for mode in $MODES; do
    echo "$mode: median $(tr ' ' '\n' <<< "${RPS[$mode]}" | grep . | median) requests/s"
done
