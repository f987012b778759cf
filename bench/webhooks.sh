#!/usr/bin/env bash
# Tracking with a webhook endpoint subscribed to its interactions against tracking without one, side by side in one
# run, on one Herald (the jar, the launcher's JVM flags, MariaDB), with a receiver on loopback
# (bench/webhook-receiver.py, answering 204):
#   rounds alternating the endpoint disabled and enabled, the same tracking load (simple clicks), each phase
#   measured after WEBHOOKS_LEAD_SECONDS (default 5) of the same load, so that earlier interactions' deliveries run
#   beside it as in a steady state; medians of requests/s and p99 and their ratio (target: with >= 0.9 x without),
#   each round's ratio of its two phases (back to back, the steadier figure on a shared machine, pooled over runs),
#   and the CPU time Herald, the MariaDB server and the receiver spent per 1,000 interactions (they share the
#   machine's cores);
#   per enabled run, once the receiver has every interaction answered 204: the delivery lag, from Herald receiving
#   an interaction to the receiver receiving the delivery that lists it, p50 and p99;
#   an outage: the receiver answers 503 for OUTAGE seconds while tracking goes on at a lower load; the outbox's
#   depth, its oldest event's age and its table's size sampled; then the receiver answers again, every event is
#   replayed since the outage began, and the time until the queue is empty and the receiver has every interaction.
# Prints TARGET MISSED lines (exit 1) when a target is not met, and fails when an interaction answered 204 never
# reaches the receiver.
#   bench/webhooks.sh [--no-build] [seconds per run, default 8] [connections, default 64] [rounds, default 3]
#                     [outage seconds, default 600]
# Needs: a JDK >= 21, Maven, wrk, curl, python3, a MariaDB root login without password on 127.0.0.1:3306.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
BUILD=true
POSITIONAL=()
for arg in "$@"; do
    case $arg in
        --no-build) BUILD=false ;;
        -h|--help)  usage; exit 0 ;;
        -*)         echo "unknown option $arg" >&2; usage >&2; exit 2 ;;
        *)          POSITIONAL+=("$arg") ;;
    esac
done
RUN_SECONDS=${POSITIONAL[0]:-8}
CONNECTIONS=${POSITIONAL[1]:-64}
ROUNDS=${POSITIONAL[2]:-3}
OUTAGE_SECONDS=${POSITIONAL[3]:-600}
for n in "$RUN_SECONDS" "$CONNECTIONS" "$ROUNDS" "$OUTAGE_SECONDS"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { usage >&2; exit 2; }
done
WARMUP_SECONDS=${WEBHOOKS_WARMUP_SECONDS:-12}
LEAD_SECONDS=${WEBHOOKS_LEAD_SECONDS:-5}

DB=herald_webhooks_bench
PORT=18870
RECEIVER_PORT=18871
TOKEN=WebhooksBenchAdminToken0123456789abcdefg

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 javac
# shellcheck source=bench/common.sh
. bench/common.sh
for tool in wrk curl mariadb python3; do
    command -v $tool >/dev/null || { echo "$tool is missing"; exit 1; }
done
MISSED=()
RECEIVER=
cleanup() {
    local status=$?
    if [ -n "$RECEIVER" ]; then kill "$RECEIVER" 2>/dev/null || true; fi
    bench_stop_jar
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if $BUILD; then
    mvn -B -q -DskipTests package
fi
bench_start_jar "WEBHOOKS_ALLOWED_DASH_ADDRESSES=127.0.0.0/8 ${WEBHOOKS_BENCH_ENV:-}" "${WEBHOOKS_BENCH_JVM:-}"
DOWN="$WORK/receiver-down"
python3 bench/webhook-receiver.py "$RECEIVER_PORT" --down "$DOWN" &
RECEIVER=$!
admin() { bench_admin "$@"; }
field() { json_field "$@"; }
receiver() { curl -sS --max-time 10 "http://127.0.0.1:$RECEIVER_PORT/$1" ${2:+-X POST}; }
for _ in $(seq 1 50); do receiver stats > /dev/null 2>&1 && break; sleep 0.1; done

PROJECT=$(admin POST /projects '{"name":"Webhooks bench"}' | field id)
NOTIFICATION=$(admin POST "/projects/$PROJECT/notifications" '{"status":"PUBLISHED","message":"Tracked"}' | field id)
ENDPOINT=$(admin POST "/projects/$PROJECT/webhooks" \
    "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/herald\",\"eventTypes\":[\"interaction.click\"]}" | field id)
[ -n "$ENDPOINT" ] || die "no endpoint"
endpoint_enabled() { admin PATCH "/webhooks/$ENDPOINT" "{\"enabled\":$1}" > /dev/null; }

TRACK="http://127.0.0.1:$PORT/api/v1/public/track/$NOTIFICATION"
wrk_run() { wrk -t2 -c"$2" -d"$1s" --latency -s bench/hotpaths.lua "$TRACK" -- 204 '{"type":"click"}'; }
rps() { awk '/^Requests\/sec/ { print $2 }' "$1"; }
p99() { awk '$1 == "99%" { print $2 }' "$1" | awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
           if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.2f\n", v }'; }
answered() { sed -n 's/^answers: [0-9]*=\([0-9]*\) other=[0-9]*$/\1/p' "$1"; }
others() { sed -n 's/^answers: [0-9]*=[0-9]* other=\([0-9]*\)$/\1/p' "$1"; }
stat() { receiver stats | python3 -c "import json,sys; v=json.load(sys.stdin)['$1']; print('' if v is None else round(v))"; }
metrics() { curl -sS --max-time 10 "http://127.0.0.1:$OBSERVE/observe/metrics" | grep -E '^herald_(webhook|outbox)' || true; }
metric() { metrics | awk -v m="$1" '$1 == m { print $2 }'; }

# Waits until the receiver holds $1 interactions (at most $2 seconds); prints the seconds it took.
await_receiver() {
    local started=$SECONDS
    while [ "$(stat interactions)" -lt "$1" ]; do
        [ $((SECONDS - started)) -lt "$2" ] || { echo "the receiver has $(stat interactions) of $1 interactions after $2 s" >&2; return 1; }
        sleep 0.5
    done
    echo $((SECONDS - started))
}

wrk_run "$WARMUP_SECONDS" "$CONNECTIONS" > /dev/null
# Herald's CPU time (user and system, ms) since it started: per 1,000 interactions answered, the cost of a mode
# that the machine's noise moves far less than its requests/s. With an endpoint it counts the run's deliveries too:
# measured from the run's start until the receiver holds every interaction of it.
# The database server's and the receiver's the same way: on one machine they share its cores with Herald, so what
# an endpoint costs them is requests/s that Herald cannot serve; a receiver elsewhere would cost Herald nothing.
TICK_MS=$((1000 / $(getconf CLK_TCK)))
MARIADBD=$(ss -Hltnp 'sport = :3306' | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)
[ -n "$MARIADBD" ] || die "no process listens on 127.0.0.1:3306"
cpu_ms() { awk -v t="$TICK_MS" '{ v = ($14 + $15) * t; print v }' "/proc/${1:-$PID}/stat"; }
per_thousand() { awk -v ms="$1" -v n="$2" 'BEGIN { printf "%.0f\n", (n > 0 ? ms * 1000 / n : 0) }'; }
# CPU of Herald, MariaDB and the receiver since $1 (three figures from cpu_all), per 1,000 of $2 interactions.
cpu_all() { echo "$(cpu_ms "$PID") $(cpu_ms "$MARIADBD") $(cpu_ms "$RECEIVER")"; }
cpu_since() {
    local now; read -r -a now <<< "$(cpu_all)"; read -r -a then <<< "$1"
    echo "$(per_thousand $((now[0] - then[0])) "$2") $(per_thousand $((now[1] - then[1])) "$2") $(per_thousand $((now[2] - then[2])) "$2")"
}
# Each phase tracks for LEAD seconds before the measured run, and its CPU is counted from the lead's start: with an
# endpoint, an interaction is sealed, read and sent some 3.5 s after it was tracked, so a run measured from the
# endpoint's enabling carried the delivery work of its first seconds only (8 s runs: some 55 % of it) and flattered
# the ratio; after the lead, the deliveries of earlier interactions run beside the measured ones, as they always do.
for round in $(seq 1 "$ROUNDS"); do
    endpoint_enabled false
    sleep 1
    started=$(cpu_all)
    wrk_run "$LEAD_SECONDS" "$CONNECTIONS" > "$WORK/lead-without-$round"
    wrk_run "$RUN_SECONDS" "$CONNECTIONS" > "$WORK/without-$round"
    total=$(( $(answered "$WORK/lead-without-$round") + $(answered "$WORK/without-$round") ))
    read -r herald mariadb _ <<< "$(cpu_since "$started" "$total")"
    echo "$herald" > "$WORK/cpu-without-$round"; echo "$mariadb" > "$WORK/db-without-$round"
    endpoint_enabled true
    sleep 1
    receiver reset post > /dev/null
    started=$(cpu_all)
    wrk_run "$LEAD_SECONDS" "$CONNECTIONS" > "$WORK/lead-with-$round"
    wrk_run "$RUN_SECONDS" "$CONNECTIONS" > "$WORK/with-$round"
    total=$(( $(answered "$WORK/lead-with-$round") + $(answered "$WORK/with-$round") ))
    await_receiver "$total" 60 > /dev/null \
        || MISSED+=("interactions answered 204 in round $round did not all reach the receiver")
    read -r herald mariadb received <<< "$(cpu_since "$started" "$total")"
    echo "$herald" > "$WORK/cpu-with-$round"; echo "$mariadb" > "$WORK/db-with-$round"
    echo "$received" > "$WORK/receiver-with-$round"
    # CPU per 1,000 interactions: Herald's, MariaDB's and (with) the receiver's.
    printf 'round %d: without %8s/s p99 %6s ms (%s other) CPU/1000 %s+%s ms | with %8s/s p99 %6s ms (%s other) CPU/1000 %s+%s+%s ms | lag p50 %s ms p99 %s ms, %s deliveries\n' \
        "$round" "$(rps "$WORK/without-$round")" "$(p99 "$WORK/without-$round")" "$(others "$WORK/without-$round")" \
        "$(cat "$WORK/cpu-without-$round")" "$(cat "$WORK/db-without-$round")" \
        "$(rps "$WORK/with-$round")" "$(p99 "$WORK/with-$round")" "$(others "$WORK/with-$round")" \
        "$(cat "$WORK/cpu-with-$round")" "$(cat "$WORK/db-with-$round")" "$(cat "$WORK/receiver-with-$round")" \
        "$(stat lagP50Ms)" "$(stat lagP99Ms)" "$(stat deliveries)"
    stat lagP50Ms >> "$WORK/lag-p50"
    stat lagP99Ms >> "$WORK/lag-p99"
done
median_of() { for f in "$WORK/$1"-[0-9]*; do "$2" "$f"; done | median; }
W_RPS=$(median_of with rps); O_RPS=$(median_of without rps)
W_P99=$(median_of with p99); O_P99=$(median_of without p99)
RATIO=$(awk -v a="$W_RPS" -v b="$O_RPS" 'BEGIN { printf "%.2f", a / b }')
echo
echo "medians of $ROUNDS rounds, ${RUN_SECONDS} s each, $CONNECTIONS connections, $(nproc) CPUs:"
printf '  tracking without an endpoint %10.0f requests/s   p99 %6.2f ms\n' "$O_RPS" "$O_P99"
printf '  tracking with one            %10.0f requests/s   p99 %6.2f ms\n' "$W_RPS" "$W_P99"
printf '  with / without               %10s x   (target: >= 0.9 x)\n' "$RATIO"
# Each round's phases run back to back, so their ratio sees the same load on a shared machine: pooled over runs, the
# median of these is the steadier figure (docs/performance.md).
ROUND_RATIOS=$(for round in $(seq 1 "$ROUNDS"); do
    awk -v a="$(rps "$WORK/with-$round")" -v b="$(rps "$WORK/without-$round")" 'BEGIN { printf "%.3f\n", a / b }'
done)
printf '  each round, with / without: median %s (%s)\n' "$(echo "$ROUND_RATIOS" | median)" "$(echo $ROUND_RATIOS)"
printf '  Herald CPU per 1,000 interactions: without %s ms, with %s ms (deliveries included)\n' \
    "$(cat "$WORK"/cpu-without-* | median)" "$(cat "$WORK"/cpu-with-* | median)"
printf '  MariaDB CPU per 1,000 interactions: without %s ms, with %s ms; the receiver'"'"'s, with: %s ms\n' \
    "$(cat "$WORK"/db-without-* | median)" "$(cat "$WORK"/db-with-* | median)" "$(cat "$WORK"/receiver-with-* | median)"
printf '  delivery lag, median of the rounds: p50 %s ms, p99 %s ms\n' "$(median < "$WORK/lag-p50")" "$(median < "$WORK/lag-p99")"
awk -v r="$RATIO" 'BEGIN { exit !(r >= 0.9) }' || MISSED+=("tracking with an endpoint $RATIO x without, under 0.9 x")

echo
echo "outage: the receiver answers 503 for $OUTAGE_SECONDS s while 4 connections track"
receiver reset post > /dev/null
touch "$DOWN"
OUTAGE_START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
wrk -t1 -c4 -d"${OUTAGE_SECONDS}s" -s bench/hotpaths.lua "$TRACK" -- 204 '{"type":"click"}' > "$WORK/outage" &
LOAD=$!
outbox_bytes() { sql -e "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables WHERE table_schema = '$DB' AND table_name LIKE '%outbox%'"; }
step=$(( OUTAGE_SECONDS / 10 > 0 ? OUTAGE_SECONDS / 10 : 1 ))
while kill -0 "$LOAD" 2>/dev/null; do
    printf '  %s  outbox tables %s bytes; %s\n' "$(date -u +%T)" "$(outbox_bytes)" "$(metrics | tr '\n' ' ' | cut -c1-300)"
    sleep "$step"
done
wait "$LOAD"
OUTAGE_ANSWERED=$(answered "$WORK/outage")
echo "  $OUTAGE_ANSWERED interactions answered 204 during the outage ($(rps "$WORK/outage")/s); the receiver got $(stat interactions)"
rm -f "$DOWN"
DRAIN_START=$SECONDS
admin POST "/webhooks/$ENDPOINT/replay" "{\"since\":\"$OUTAGE_START\"}" > /dev/null
if took=$(await_receiver "$OUTAGE_ANSWERED" 1800); then
    echo "  drained: the receiver had all $OUTAGE_ANSWERED interactions $took s after the replay ($(( OUTAGE_ANSWERED / (took > 0 ? took : 1) )) interactions/s), $(stat deliveries) deliveries"
else
    MISSED+=("the outage's interactions did not all reach the receiver within 30 min of the replay")
fi
echo "  after the drain: $(metrics | tr '\n' ' ' | cut -c1-300)"

if [ ${#MISSED[@]} -gt 0 ]; then
    printf 'TARGET MISSED: %s\n' "${MISSED[@]}"
    exit 1
fi
