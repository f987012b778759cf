#!/usr/bin/env bash
# One Herald instance on one MariaDB server against three instances on the local three-node Galera cluster
# (cluster/run.sh), in one run, on this machine (issue 21):
#   the feed (a cache hit) and tracking (simple clicks), wrk straight at each instance (three wrk at once for the
#   cluster: nginx hashes by client address and wrk has one), with the answers that were not the expected one;
#   commit latency: 500 one-row transactions, one after the other, on the server against a cluster node;
#   the CPU the machine has, since everything here shares it: on one machine the cluster measures its cost, not
#   its capacity (docs/scale-out.md).
# After the tracking runs, the clicks stored must be at least the 204s wrk counted (exit 1 otherwise; a few more are
# stored: those in flight when wrk stopped).
#   bench/cluster.sh [--no-build] [seconds per run, default 10] [connections in all, default 48]
# Warm-up: each route is loaded for at least CLUSTER_WARMUP_SECONDS (default 15), then in 5 s slices until the JIT has
# settled: the instances' compiler threads used less than CLUSTER_SETTLED_MS (default 20) ms of CPU a second each in
# the last slice, or CLUSTER_WARMUP_MAX_SECONDS (default 180) have passed; the table says how long each took.
# Tracking is then measured in CLUSTER_ROUNDS (default 3) rounds, each one run on the single instance and one on the
# cluster, the other set-up idle meanwhile: a round's two runs meet the same moment of a shared machine, and the
# table gives the medians and each round's ratio.
# TRACKING_MAX_IN_FLIGHT: the cluster instances' tracking.batch.max-in-flight (cluster/run.sh, default 8).
# Needs what cluster/run.sh needs, wrk, and a MariaDB root login without password on 127.0.0.1:3306.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=true
[ "${1:-}" = --no-build ] && { BUILD=false; shift; }
SECONDS_PER_RUN=${1:-10}
CONNECTIONS=${2:-48}
WARMUP_SECONDS=${CLUSTER_WARMUP_SECONDS:-15}
WARMUP_MAX_SECONDS=${CLUSTER_WARMUP_MAX_SECONDS:-180}
SETTLED_MS=${CLUSTER_SETTLED_MS:-20}
ROUNDS=${CLUSTER_ROUNDS:-3}
TOKEN=cluster-admin-token-0123456789abcdef0123456789
OUT=target/bench-cluster
export CLUSTER_DIR=$PWD/target/cluster-bench
# The limits that guard a public deployment would measure themselves here.
export RATE_DASH_LIMIT_REQUESTS=1000000000 TRACKING_METADATA_CLIENT_DASH_KIB=2000000000 \
       TRACKING_METADATA_PROJECT_DASH_KIB=2000000000
. tools/jdk.sh
use_jdk 21 java
# shellcheck source=bench/common.sh
. bench/common.sh   # before the definitions below, which are this script's own
log() { printf '[bench-cluster] %s\n' "$*"; }
die() { printf '[bench-cluster] %s\n' "$*" >&2; exit 1; }
admin() { curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$@"; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
for tool in wrk nginx mariadb curl; do command -v $tool > /dev/null || die "$tool is missing"; done
mkdir -p "$OUT"
$BUILD && mvn -B -q package -DskipTests
SINGLE_DB=herald_bench_cluster_single
single_pid=
cleanup() {
    [ -z "$single_pid" ] || kill "$single_pid" 2>/dev/null || true
    bash cluster/run.sh down > /dev/null 2>&1 || true
    mariadb -h127.0.0.1 -P3306 -uroot -e "DROP DATABASE IF EXISTS $SINGLE_DB" 2>/dev/null || true
}
trap cleanup EXIT

# fixture PORT: a project, its key and 20 notifications through instance PORT; prints "key first last": the warm-up
# clicks the first notification, the measured run the last, whose clicks are then counted alone.
fixture() {
    local project key notification first=
    project=$(admin -d '{"name":"bench"}' "http://127.0.0.1:$1/api/v1/admin/projects" | json '["id"]')
    key=$(admin -d '{}' "http://127.0.0.1:$1/api/v1/admin/projects/$project/api-keys" | json '["key"]')
    for i in $(seq 1 20); do
        notification=$(admin -d "{\"message\":\"Notification $i\",\"status\":\"PUBLISHED\"}" \
            "http://127.0.0.1:$1/api/v1/admin/projects/$project/notifications" | json '["id"]')
        first=${first:-$notification}
    done
    echo "$key $first $notification"
}

# run NAME PORTS PATH EXPECTED [BODY]: wrk at each port at once, the connections shared out; sums in $OUT/NAME.
run() {
    local name=$1 path=$3 expected=$4 body=${5:-} ports=($2) each pids=() port
    each=$((CONNECTIONS / ${#ports[@]}))
    for port in "${ports[@]}"; do
        wrk -t1 -c"$each" -d"${SECONDS_PER_RUN}s" --latency -s bench/hotpaths.lua "http://127.0.0.1:$port$path" -- \
            "$expected" ${body:+"$body"} > "$OUT/$name.$port" &
        pids+=($!)
    done
    wait "${pids[@]}"
    python3 - "$OUT/$name" "${ports[@]}" <<'PY' > "$OUT/$name"
import re, sys
prefix, ports = sys.argv[1], sys.argv[2:]
rate = other = 0.0
p50 = p99 = 0.0
def ms(v):
    n, unit = re.match(r'([\d.]+)(us|ms|s)', v).groups()
    return float(n) * {'us': 0.001, 'ms': 1, 's': 1000}[unit]
for port in ports:
    text = open(f"{prefix}.{port}").read()
    rate += float(re.search(r'Requests/sec:\s+([\d.]+)', text).group(1))
    other += int(re.search(r'other=(\d+)', text).group(1))
    p50 = max(p50, ms(re.search(r'\s50%\s+(\S+)', text).group(1)))
    p99 = max(p99, ms(re.search(r'\s99%\s+(\S+)', text).group(1)))
print(f"{rate:.0f} {p50:.2f} {p99:.2f} {other:.0f}")
PY
}

# answered NAME: the 204s wrk counted, all ports
answered() { cat "$OUT/$1".* | sed -n 's/^answers: [0-9]*=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }'; }

# commit_latency PORT DATABASE: ms per one-row transaction, 500 one after the other
commit_latency() {
    mariadb -h127.0.0.1 -P"$1" -uroot "$2" -e "CREATE TABLE IF NOT EXISTS bench_commits (id INT PRIMARY KEY)"
    local started ended
    started=$(date +%s%N)
    for i in $(seq 1 500); do echo "INSERT INTO bench_commits VALUES ($i);"; done | mariadb -h127.0.0.1 -P"$1" -uroot "$2"
    ended=$(date +%s%N)
    mariadb -h127.0.0.1 -P"$1" -uroot "$2" -e "DROP TABLE bench_commits"
    awk -v ns=$((ended - started)) 'BEGIN { printf "%.2f", ns / 500 / 1e6 }'
}

# warm NAME PORTS PATH EXPECTED [BODY]: the route's load until the JIT has settled (see the top); the seconds it took
# and the compilers' ms a second per instance in the last slice go to $OUT/NAME-warm.
warm() {
    warm_until_settled "$(listener_pids $2)" "$WARMUP_SECONDS" "$WARMUP_MAX_SECONDS" "$SETTLED_MS" run_for "$@"
    echo "$WARMED" > "$OUT/$1-warm"
}
run_for() { SECONDS_PER_RUN=$1 run "${@:2}" > /dev/null; }

cpu_snapshot() { # HERALD_PORTS DB_PORTS: "herald mariadb wrk" ms
    local herald db wrk
    herald=$(cpu_ms $(listener_pids $1)); db=$(cpu_ms $(listener_pids $2))
    children_cpu_ms "$OUT/times" > "$OUT/children"; wrk=$(cat "$OUT/children")
    SNAPSHOT="$herald $db $wrk"
}

# The interaction writers' transactions and interactions committed since start, summed over the instances.
writer_counts() { # OBSERVE_PORTS
    local port
    for port in $1; do curl -sf "http://127.0.0.1:$port/observe/metrics"; done | awk '
        $1 == "herald_tracking_batches_total" { b += $2 } $1 == "herald_tracking_written_total" { w += $2 }
        END { printf "%d %d\n", b, w }'
}

# prepare LABEL PORTS: the fixture, the feed warmed and measured, tracking warmed; the measured notification in
# $OUT/LABEL-notification.
prepare() {
    local label=$1 ports=$2 key warm_notification notification
    read -r key warm_notification notification < <(fixture "${ports%% *}")
    # Warm-up: the JIT compiles the hot paths before they are measured (docs/performance.md). Three instances each
    # see a third of the load and share the cores with three nodes, so each takes far longer to compile what one
    # instance does: 40 s of clicks before the compilers quietened, the clicks a second tripling meanwhile (2026-11-29).
    warm "$label-warm-feed" "$ports" "/api/v1/public/$key/notifications" 200
    run "$label-feed" "$ports" "/api/v1/public/$key/notifications" 200
    warm "$label-warm-track" "$ports" "/api/v1/public/track/$warm_notification" 204 '{"type":"click"}'
    echo "$notification" > "$OUT/$label-notification"
}

# track LABEL PORTS DB_PORTS ROUND: one measured run of clicks; its CPU per click in $OUT/LABEL-cpu-ROUND, the writers'
# transactions in $OUT/LABEL-writer-ROUND.
track() {
    local label=$1 ports=$2 db_ports=$3 round=$4 before writer_before observe
    observe=$(for port in $ports; do echo $((port + 100)); done)
    cpu_snapshot "$ports" "$db_ports"; before=$SNAPSHOT; writer_before=$(writer_counts "$observe")
    run "$label-track-$round" "$ports" "/api/v1/public/track/$(cat "$OUT/$label-notification")" 204 '{"type":"click"}'
    cpu_snapshot "$ports" "$db_ports"
    # Per click answered, µs: Herald's, MariaDB's (every node's), wrk's; and the cores all of it kept busy.
    awk -v b="$before" -v a="$SNAPSHOT" -v n="$(answered "$label-track-$round")" -v s="$SECONDS_PER_RUN" 'BEGIN {
        split(b, x, " "); split(a, y, " ")
        h = (y[1] - x[1]) * 1000 / n; d = (y[2] - x[2]) * 1000 / n; w = (y[3] - x[3]) * 1000 / n
        printf "%.1f %.1f %.1f %.1f %.2f\n", h, d, w, h + d + w, (y[1] + y[2] + y[3] - x[1] - x[2] - x[3]) / (s * 1000) }' \
        > "$OUT/$label-cpu-$round"
    awk -v b="$writer_before" -v a="$(writer_counts "$observe")" 'BEGIN { split(b, x, " "); split(a, y, " ")
        printf "%d %.1f\n", y[1] - x[1], (y[1] > x[1]) ? (y[2] - x[2]) / (y[1] - x[1]) : 0 }' > "$OUT/$label-writer-$round"
}

# The median over the rounds of field F (1-based) of the files LABEL-KIND-1 .. LABEL-KIND-ROUNDS.
over_rounds() { # LABEL KIND F
    local round
    for round in $(seq 1 "$ROUNDS"); do awk -v f="$3" '{ print $f }' "$OUT/$1-$2-$round"; done | median
}

log "one instance on one server ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
mariadb -h127.0.0.1 -P3306 -uroot -e "DROP DATABASE IF EXISTS $SINGLE_DB; CREATE DATABASE $SINGLE_DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
env DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$SINGLE_DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
    SERVER_HOST=127.0.0.1 SERVER_PORT=18081 OBSERVE_PORT=18181 ADMIN_TOKENS=$TOKEN \
    "$JAVA_HOME/bin/java" -XX:+UseSerialGC -Xmx80m -jar target/herald.jar config/prod.yaml > "$OUT/single.log" 2>&1 &
single_pid=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null http://127.0.0.1:18181/observe/health/ready && break; sleep 0.25; done
prepare single 18081
single_commit=$(commit_latency 3306 "$SINGLE_DB")

log "three instances on three Galera nodes (the single instance idle meanwhile)"
bash cluster/run.sh clean > /dev/null 2>&1 || true
bash cluster/run.sh up > "$OUT/cluster-up.log" 2>&1 || { cat "$OUT/cluster-up.log"; die "the cluster did not start"; }
prepare cluster "18091 18092 18093"
cluster_commit=$(commit_latency 13307 herald)

# Tracking, the two set-ups in turn, ROUNDS times: each round's pair met the same moment of a shared machine.
log "tracking: $ROUNDS rounds, one instance then the cluster, each idle while the other is measured"
for round in $(seq 1 "$ROUNDS"); do
    track single 18081 3306 "$round"
    track cluster "18091 18092 18093" "13307 13308 13309" "$round"
    printf '  round %s: single %s, cluster %s clicks/s\n' "$round" "$(cut -d' ' -f1 "$OUT/single-track-$round")" \
        "$(cut -d' ' -f1 "$OUT/cluster-track-$round")"
done
single_clicks=$(mariadb -h127.0.0.1 -P3306 -uroot -N -B "$SINGLE_DB" -e \
    "SELECT COUNT(*) FROM interactions WHERE notification_id = '$(cat "$OUT/single-notification")' AND type = 'click'")
cluster_clicks=$(mariadb -h127.0.0.1 -P13309 -uroot -N -B herald -e \
    "SELECT COUNT(*) FROM interactions WHERE notification_id = '$(cat "$OUT/cluster-notification")' AND type = 'click'")
kill "$single_pid"; wait "$single_pid" 2>/dev/null || true; single_pid=

for label in single cluster; do
    clicks_var=${label}_clicks answered_var=${label}_answered
    declare "$answered_var=$(for round in $(seq 1 "$ROUNDS"); do answered "$label-track-$round"; done | awk '{ s += $1 } END { print s }')"
    [ "${!clicks_var}" -ge "${!answered_var}" ] || die "$label: ${!answered_var} ANSWERED 204, ${!clicks_var} STORED"
done
read -r sf sfp50 sfp99 sfo < "$OUT/single-feed"; read -r cf cfp50 cfp99 cfo < "$OUT/cluster-feed"
for label in single cluster; do
    for round in $(seq 1 "$ROUNDS"); do cat "$OUT/$label-track-$round"; done > "$OUT/$label-tracks"
done
st=$(over_rounds single track 1); stp50=$(over_rounds single track 2); stp99=$(over_rounds single track 3)
ct=$(over_rounds cluster track 1); ctp50=$(over_rounds cluster track 2); ctp99=$(over_rounds cluster track 3)
sto=$(awk '{ s += $4 } END { print s }' "$OUT/single-tracks"); cto=$(awk '{ s += $4 } END { print s }' "$OUT/cluster-tracks")
ratios=$(for round in $(seq 1 "$ROUNDS"); do
    awk '{ print $1 }' "$OUT/single-track-$round" "$OUT/cluster-track-$round" | paste -sd' ' | awk '{ printf "%.2f\n", $2 / $1 }'
done)
warmed() { awk '{ printf "%s%s s (%s)", (NR > 1) ? "; " : "", $1, $2 }' "$OUT/$1-warm-feed-warm" "$OUT/$1-warm-track-warm"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
read -r shc sdc swc sac scores < <(for f in 1 2 3 4 5; do over_rounds single cpu $f; done | paste -sd' ')
read -r chc cdc cwc cac ccores < <(for f in 1 2 3 4 5; do over_rounds cluster cpu $f; done | paste -sd' ')
read -r sbatches ssize < <(for f in 1 2; do over_rounds single writer $f; done | paste -sd' ')
read -r cbatches csize < <(for f in 1 2; do over_rounds cluster writer $f; done | paste -sd' ')
cat <<TABLE

bench/cluster.sh $SECONDS_PER_RUN $CONNECTIONS, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs shared by everything below; at most ${TRACKING_MAX_IN_FLIGHT:-8} transactions in flight per cluster instance
| | one instance, one server | three instances, three Galera nodes | cluster / single |
|---|---|---|---|
| feed hit, requests/s | $sf | $cf | $(ratio "$cf" "$sf") |
| feed hit, p50 / p99 ms (worst instance) | $sfp50 / $sfp99 | $cfp50 / $cfp99 | |
| tracking, requests/s (median of $ROUNDS rounds) | $st | $ct | $(ratio "$ct" "$st") |
| tracking: each round's cluster / single, and their median | | $(echo $ratios) | $(echo "$ratios" | median) |
| tracking, p50 / p99 ms (worst instance, median of the rounds) | $stp50 / $stp99 | $ctp50 / $ctp99 | |
| answers not as expected | $((sfo + sto)) | $((cfo + cto)) | |
| clicks answered 204 / stored, all rounds | $single_answered / $single_clicks | $cluster_answered / $cluster_clicks | |
| commit of a one-row transaction, ms | $single_commit | $cluster_commit | $(ratio "$cluster_commit" "$single_commit") |
| tracking: CPU per click, µs: Herald + MariaDB + wrk = all (medians) | $shc + $sdc + $swc = $sac | $chc + $cdc + $cwc = $cac | $(ratio "$cac" "$sac") |
| tracking: cores busy (of $(nproc)) | $scores | $ccores | |
| tracking: transactions committed, interactions each (medians of the rounds) | $sbatches, $ssize | $cbatches, $csize | |
| warm-up: seconds (the compilers' ms a second per instance at its end), feed; tracking | $(warmed single) | $(warmed cluster) | |

If both tracking runs kept every core busy, the CPU per click alone would put the cluster at $(ratio "$sac" "$cac") x one
server (all per click, single / cluster); measured $(ratio "$ct" "$st") x. Fewer cores busy than there are: the run
waited on something other than the CPU (commit latency, certification).
TABLE
