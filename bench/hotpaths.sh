#!/usr/bin/env bash
# Herald's two hot paths against their ceilings on this machine, in one run:
#   the feed: a cache hit, the 304 answer and the cache turned off, against nginx serving the same bytes from a
#     file and a bare Helidon route (bench/BareRoute.java) sending them from memory;
#   tracking: simple, enhanced and with batching turned off, against the bare route parsing the body alone, with
#     what the interaction writer did in each run (transactions, interactions and time in each), the CPU the
#     server, MariaDB and wrk spent per request, and the bound of the cores for any server that stores each click;
#   a cache miss, timed after a change through the management API, for a key whose 50 current notifications sit
#     on top of 10,000 expired ones and for a key without that history;
#   resident memory after start and at its peak under the runs.
# It fails (exit 1, a line in capitals) when an interaction answered 204 is not stored, when more are stored than
# were answered plus those in flight, when the daily totals disagree with the interactions, or when the feed does
# not change after a change. Answers other than the expected one (Herald's 500s under load, say) are counted in the
# table and warned about, with the failures Herald logged: they are a finding, not a broken run.
#   bench/hotpaths.sh [--no-build] [--profile] [seconds per run, default 8] [connections, default 64]
# --profile: JFR on the "herald" process; prints where the recordings are and their hot methods, one recording
# for the feed-hit run alone and one for the two tracking runs.
# Needs: a JDK >= 21 (the source launcher runs BareRoute.java), Maven, wrk, nginx, curl, a MariaDB root login
# without password on 127.0.0.1:3306 (its sequence engine makes the rows).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
BUILD=true
PROFILE=false
POSITIONAL=()
for arg in "$@"; do
    case $arg in
        --no-build) BUILD=false ;;
        --profile)  PROFILE=true ;;
        -h|--help)  usage; exit 0 ;;
        -*)         echo "unknown option $arg" >&2; usage >&2; exit 2 ;;
        *)          POSITIONAL+=("$arg") ;;
    esac
done
RUN_SECONDS=${POSITIONAL[0]:-8}
CONNECTIONS=${POSITIONAL[1]:-64}
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $CONNECTIONS =~ ^[1-9][0-9]*$ ]] || { usage >&2; exit 2; }
# Before each route is measured, load on it for at least this long, then in 5 s slices until the JIT of the process
# that answers has settled (its compiler threads used under HOTPATHS_SETTLED_MS, default 20, ms of CPU a second in the
# last slice; at most HOTPATHS_WARMUP_MAX_SECONDS, default 120): C2 still compiled for half a core after 3 s and more
# than a tenth of one after 15 s of tracking load (per-thread CPU of C2_CompilerThread), and a run measured
# during that measures the compiler. The seconds each warm-up took are printed.
WARMUP_SECONDS=${HOTPATHS_WARMUP_SECONDS:-12}
WARMUP_MAX_SECONDS=${HOTPATHS_WARMUP_MAX_SECONDS:-120}
SETTLED_MS=${HOTPATHS_SETTLED_MS:-20}
MISS_SAMPLES=20

DB=herald_hotpaths
HERALD_PORT=18840
NAIVE_PORT=18841
BARE_PORT=18842
NGINX_PORT=18843
KEY_HISTORY=HotPathsHistoryKey0123456789abcdefghijkl
KEY_LEAN=HotPathsLeanKey0123456789abcdefghijklmno
TOKEN=HotPathsAdminToken0123456789abcdefghijkl
# One notification per tracking run, so that each run's stored interactions are counted apart; all are among the
# 50 current ones, as a client tracks what it was shown. The changes of the miss runs go to other ones.
TRACK_SIMPLE=h_cur_1
TRACK_ENHANCED=h_cur_2
TRACK_NAIVE=h_cur_3
TRACK_WARMUP=h_cur_4
CHANGE_HISTORY=h_cur_10
CHANGE_LEAN=l_cur_10

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
# javac: the source launcher compiles BareRoute.java; a JDK with it also has jcmd and jfr for --profile.
use_jdk 21 javac
for tool in wrk nginx curl mariadb; do
    command -v $tool >/dev/null || { echo "$tool is missing"; exit 1; }
done
# shellcheck source=bench/common.sh
. bench/common.sh   # before the definitions below, which are this script's own
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
die() { echo "ERROR: $*" >&2; exit 1; }

# The runtime image's launcher sets the memory of a production instance: the same flags make these figures that
# instance's. Read from the launcher, so that they follow it; every -X and -D option of its java command line.
LAUNCHER_FLAGS=$(sed -n '/^exec /,/\$AOT/p' jlink/herald | grep -oE -- '-[XD][^[:space:]\\]+' | tr '\n' ' ')
[[ $LAUNCHER_FLAGS == *-Xmx* && $LAUNCHER_FLAGS == *-XX:+UseSerialGC* ]] \
    || die "could not read the JVM flags from jlink/herald (got: '$LAUNCHER_FLAGS')"
# And its environment: every JVM here (and nginx and wrk, to which it makes no difference) runs with it.
MALLOC_ARENA_MAX=$(sed -n 's/^MALLOC_ARENA_MAX=\${MALLOC_ARENA_MAX:-\([0-9]*\)}$/\1/p' jlink/herald)
[ -n "$MALLOC_ARENA_MAX" ] || die "could not read MALLOC_ARENA_MAX from jlink/herald"
export MALLOC_ARENA_MAX

for port in $HERALD_PORT $NAIVE_PORT $BARE_PORT $NGINX_PORT; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is taken: another run?"; fi
done

# Processes by name, each started here and stopped by its own id.
declare -A PIDS=()
SAMPLER=
WORK=$(mktemp -d -t herald-hotpaths.XXXXXX)
# nginx's workers run as nobody when started by root: they must reach the feed file.
chmod 711 "$WORK"
mkdir -m 755 "$WORK/www"
FAILURES=()

alive() { local state; state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1; [[ $state != Z* ]]; }
# TERM (Herald finishes what is in flight, JFR writes its recording), KILL after 20 s.
stop_process() {
    local name=$1 pid=${PIDS[$1]:-}
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && { echo "$name did not stop: killed"; kill -KILL "$pid" 2>/dev/null || true; }
    wait "$pid" 2>/dev/null || true
    unset "PIDS[$name]"
}
cleanup() {
    local status=$?
    [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
    for name in "${!PIDS[@]}"; do stop_process "$name"; done
    sql -e "DROP DATABASE IF EXISTS $DB" || true
    rm -rf "$WORK"
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Records a failed check and goes on, so that the run still shows every figure; the exit status says it failed.
fail_check() {
    echo "FAIL: $*"
    FAILURES+=("$*")
}

await_line() {
    local name=$1 line=$2
    for _ in $(seq 1 120); do
        grep -q "$line" "$WORK/$name.log" && return 0
        alive "${PIDS[$name]}" || break
        sleep 0.5
    done
    tail -n 30 "$WORK/$name.log"
    die "$name did not log '$line'"
}

rss_mib() { echo $(( $(ps -o rss= -p "${PIDS[$1]}") / 1024 )); }
# The highest of the samples the sampler below took of one process.
peak() { awk -v n="$1" '$1 == n && $2 > max { max = $2 } END { printf "%d", max / 1024 }' "$WORK/rss"; }

# start_herald NAME PORT "JVM OPTIONS" [VARIABLE=value...]: one Herald from the jar, on loopback only.
start_herald() {
    local name=$1 port=$2 jvm_options=$3
    shift 3
    # shellcheck disable=SC2086  # the flag lists are meant to split into words
    env DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
        RATE_DASH_LIMIT_REQUESTS=1000000000 TRACKING_METADATA_CLIENT_DASH_KIB=2000000000 \
        TRACKING_METADATA_PROJECT_DASH_KIB=2000000000 ADMIN_TOKENS=$TOKEN SERVER_HOST=127.0.0.1 SERVER_PORT="$port" OBSERVE_PORT=0 "$@" \
        "$JAVA_HOME/bin/java" $LAUNCHER_FLAGS $jvm_options -jar target/herald.jar config/prod.yaml \
        > "$WORK/$name.log" 2>&1 &
    PIDS[$name]=$!
    await_line "$name" "Herald listening"
    OBSERVE_PORTS[$name]=$(sed -n 's/.*health, metrics and OpenAPI on http:.*:\([0-9]*\)$/\1/p' "$WORK/$name.log")
    [ -n "${OBSERVE_PORTS[$name]}" ] || die "$name logged no operations port"
}
declare -A OBSERVE_PORTS=()

# The writer's counters (transactions, interactions, seconds in committed transactions) from a Herald's metrics,
# and the most transactions in flight at once since start and the most allowed (none from a jar without them).
writer_counters() {
    curl -sS --max-time 10 "http://127.0.0.1:${OBSERVE_PORTS[$1]}/observe/metrics" | awk '
        $1 == "herald_tracking_batches_total" { b = $2 }
        $1 == "herald_tracking_written_total" { w = $2 }
        $1 == "herald_tracking_commit_seconds_total" { s = $2 }
        $1 == "herald_tracking_in_flight_peak" { p = $2 }
        $1 == "herald_tracking_in_flight_max" { m = $2 }
        END { printf "%d %d %s %s %s\n", b, w, s, p == "" ? "-" : p, m == "" ? "-" : m }'
}
# What the writer did between two readings: where a tracking request's time goes besides HTTP. A request waits
# for the transaction in progress, then for its own, so its latency is one to two of these plus the parse.
writer_delta() {
    local label=$1 before=$2 after=$3
    awk -v label="$label" -v before="$before" -v after="$after" 'BEGIN {
        split(before, b, " "); split(after, a, " ")
        n = a[1] - b[1]
        if (n <= 0) { printf "   writer: no transaction in %s\n", label; exit }
        line = sprintf("%-34s %9d transactions, %6.1f interactions and %5.2f ms each on average;" \
                       " at most %s in flight since start (of %s)", \
                       label, n, (a[2] - b[2]) / n, (a[3] - b[3]) * 1000 / n, a[4], a[5])
        print "   writer:" substr(line, 35)
        print line > "/dev/stderr"
    }' 2>> "$WORK/writer-lines"
}

# The schema as Herald makes it, then the rows. 50 current notifications with ~500-byte rich-text messages,
# images and links for both keys; the history key's project also has 10,000 expired ones, all created earlier,
# so that its newest-first scan meets the current ones first and then reads through the whole history.
seed() {
    local now day=86400000
    now=$(( $(date +%s) * 1000 ))
    sql "$DB" <<SQL
SET @open = '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"';
SET @close = '"}]}]}';
SET @filler = 'This release brings faster dashboards, saved filters, a CSV export for every report and more. ';
INSERT INTO projects (id, name, created_at) VALUES ('hot_history', 'Hot paths with history', $now), ('hot_lean', 'Hot paths', $now);
INSERT INTO api_keys (api_key, project_id, show_past, show_future, order_by, created_at, revoked_at) VALUES ('$KEY_HISTORY', 'hot_history', FALSE, FALSE, 'createdAt_desc', $now, NULL),
                            ('$KEY_LEAN', 'hot_lean', FALSE, FALSE, 'createdAt_desc', $now, NULL);
-- History first: older notifications also have the lower sequence numbers, as they would in use.
INSERT INTO notifications (id, project_id, status, message, image, action_type, action_url, action_target, preset,
                           start_at, end_at, created_at, updated_at)
SELECT CONCAT('h_old_', seq), 'hot_history', 'PUBLISHED',
       CONCAT(@open, RPAD(CONCAT('Archive ', seq, ': '), 500 - LENGTH(@open) - LENGTH(@close), @filler), @close),
       CONCAT('https://cdn.example.com/img/old-', seq, '.png'), 'LINK',
       CONCAT('https://example.com/news/old-', seq), '_blank', 'default',
       created, created + 7 * $day, created, created
FROM (SELECT seq, $now - 40 * $day - seq * 60000 AS created FROM seq_1_to_10000) AS history;
INSERT INTO notifications (id, project_id, status, message, image, action_type, action_url, action_target, preset,
                           start_at, end_at, created_at, updated_at)
SELECT CONCAT(prefix, seq), project, 'PUBLISHED',
       CONCAT(@open, RPAD(CONCAT('Update ', seq, ': '), 500 - LENGTH(@open) - LENGTH(@close), @filler), @close),
       CONCAT('https://cdn.example.com/img/', seq, '.png'), 'LINK',
       CONCAT('https://example.com/news/', seq), '_blank', 'default',
       $now - $day, $now + 30 * $day, $now - seq * 60000, $now - seq * 60000
FROM seq_1_to_50, (SELECT 'h_cur_' AS prefix, 'hot_history' AS project
                   UNION ALL SELECT 'l_cur_', 'hot_lean') AS projects
ORDER BY seq DESC, project;
SQL
    sql "$DB" -e "ANALYZE TABLE notifications" > /dev/null
}


# The rows of one notification once they stop changing: with batching, interactions answered just before wrk
# stopped, and those still in flight, commit a moment later. Sets STORED and COUNTED.
settled_counts() {
    local id=$1 previous='' current='' stable=0
    for _ in $(seq 1 60); do
        current=$(sql "$DB" -e "SELECT (SELECT COUNT(*) FROM interactions WHERE notification_id = '$id'),
                                       (SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = '$id')")
        if [ "$current" = "$previous" ]; then
            stable=$((stable + 1))
            [ $stable -ge 4 ] && break
        else
            stable=0
        fi
        previous=$current
        sleep 0.25
    done
    read -r STORED COUNTED <<< "$current"
}

feed_url() { echo "http://127.0.0.1:$1/api/v1/public/$2/notifications"; }
track_url() { echo "http://127.0.0.1:$HERALD_PORT/api/v1/public/track/$1"; }
track_body() { echo '{"type":"click"}'; }
# Close to now, as a browser SDK sends it: the enhanced endpoint refuses timestamps far from the server's time.
enhanced_body() {
    printf '{"type":"click","timestamp":"%s","metadata":{"sdk":"web","version":"1.2.3","page":"/pricing"}}' \
        "$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
}

# wrk with the run's settings: wrk_load SECONDS [wrk arguments...].
wrk_load() {
    local seconds=$1
    shift
    wrk -t2 -c"$CONNECTIONS" -d"${seconds}s" --latency "$@"
}
# warm_up [wrk arguments...]: see WARMUP_SECONDS; the process is the one listening on the URL's port.
warm_up() {
    local arg port
    for arg in "$@"; do [[ $arg == http://* ]] && { port=${arg#http://*:}; port=${port%%/*}; }; done
    warm_until_settled "$(listener_pids "$port")" "$WARMUP_SECONDS" "$WARMUP_MAX_SECONDS" "$SETTLED_MS" quiet_load "$@"
    echo "  (warm-up of port $port: ${WARMED% *} s, the JIT at ${WARMED#* } ms of CPU a second at its end)"
}
quiet_load() { wrk_load "$@" > /dev/null; }

# The runs in their order, for the table: id, label, and the status every answer must have.
RUN_IDS=()
declare -A RUN_LABELS=() RUN_EXPECTED=()
# MariaDB's server (none listening: its CPU counts as 0), whose CPU each POST run reads.
MARIADBD=$(listener_pids 3306)
# The CPU each party spent in a POST run, per request answered (µs): the server's, MariaDB's and wrk's. On two
# cores shared by all three, what a request costs in all is what bounds the requests a second.
declare -A RUN_CPU=()
cpu_snapshot() {
    children_cpu_ms "$WORK/times" > "$WORK/children-ms"
    SNAPSHOT="$(cpu_ms "$1") $(cpu_ms $MARIADBD) $(cat "$WORK/children-ms")"
}

# measure ID LABEL EXPECTED_STATUS [wrk arguments...]: one measured run; its output is kept for the table.
measure() {
    local id=$1 label=$2 expected=$3
    shift 3
    echo "== $label"
    local server=${RUN_SERVER:-} before=
    if [ -n "$server" ]; then cpu_snapshot "${PIDS[$server]}"; before=$SNAPSHOT; fi
    wrk_load "$RUN_SECONDS" "$@" > "$WORK/run-$id.out"
    if [ -n "$server" ]; then
        cpu_snapshot "${PIDS[$server]}"
        RUN_CPU[$id]=$(awk -v before="$before" -v after="$SNAPSHOT" \
            -v answered="$(awk '/ requests in / { print $1 }' "$WORK/run-$id.out")" 'BEGIN {
                split(before, b, " "); split(after, a, " ")
                printf "%.1f %.1f %.1f", (a[1] - b[1]) * 1000 / answered, (a[2] - b[2]) * 1000 / answered,
                                         (a[3] - b[3]) * 1000 / answered }')
    fi
    RUN_IDS+=("$id")
    RUN_LABELS[$id]=$label
    RUN_EXPECTED[$id]=$expected
    check_answers "$id"
}
# A tracking run: measure_post ID LABEL SERVER URL BODY (SERVER: the process answering, whose CPU is counted).
measure_post() {
    RUN_SERVER=$3 measure "$1" "$2" 204 -s bench/hotpaths.lua "$4" -- 204 "$5"
}

# Answers other than the one expected (errors, refusals) and requests wrk gave up on (2 s): the run's figures
# include them, so the table shows them. GET runs count with wrk's own non-2xx/3xx figure: no Lua in the way of
# the fastest runs. Sets RUN_ERRORS[ID].
declare -A RUN_ERRORS=()
check_answers() {
    local id=$1 out=$WORK/run-$1.out other timeouts
    grep -q '^Requests/sec' "$out" || { cat "$out"; die "no figures from wrk for '${RUN_LABELS[$id]}'"; }
    other=$(sed -n 's/^answers: [0-9]*=[0-9]* other=\([0-9]*\)$/\1/p' "$out")
    [ -n "$other" ] || other=$(sed -n 's/^ *Non-2xx or 3xx responses: *\([0-9]*\)/\1/p' "$out")
    timeouts=$(sed -n 's/.*timeout \([0-9]*\).*/\1/p' "$out")
    RUN_ERRORS[$id]=$(( ${other:-0} + ${timeouts:-0} ))
    [ "${RUN_ERRORS[$id]}" -eq 0 ] || echo "   WARNING: ${other:-0} answers other than ${RUN_EXPECTED[$id]}," \
        "${timeouts:-0} requests timed out"
}

# Every interaction answered 204 is stored, once, and counted in the daily totals. Stored may exceed answered by
# at most one request per connection, those in flight when wrk stopped counting, and by the answers other than 204
# (a commit that went through while the driver's socket time-out gave up on it answers 500).
check_stored() {
    local id=$1 notification=$2 answered other
    answered=$(sed -n 's/^answers: 204=\([0-9]*\) .*/\1/p' "$WORK/run-$id.out")
    other=$(sed -n 's/^answers: 204=[0-9]* other=\([0-9]*\)$/\1/p' "$WORK/run-$id.out")
    settled_counts "$notification"
    echo "   answered 204: ${answered:-none}, stored: $STORED, in the daily totals: $COUNTED"
    STORED_LINES+=("$(printf '%-34s answered 204: %7s   stored: %7s   in the daily totals: %7s' \
                      "${RUN_LABELS[$id]}" "${answered:-none}" "$STORED" "$COUNTED")")
    if [ -z "$answered" ] || [ "$answered" -eq 0 ]; then
        fail_check "NO 204 ANSWERS IN '${RUN_LABELS[$id]}'"
        return
    fi
    [ "$STORED" -ge "$answered" ] \
        || fail_check "LOST INTERACTIONS IN '${RUN_LABELS[$id]}': $((answered - STORED)) answered 204 but not stored"
    [ $((STORED - answered)) -le $((CONNECTIONS + ${other:-0})) ] \
        || fail_check "MORE STORED THAN ANSWERED IN '${RUN_LABELS[$id]}': $((STORED - answered)) extra, more than" \
                      "$CONNECTIONS connections in flight and ${other:-0} other answers explain"
    [ "$COUNTED" -eq "$STORED" ] \
        || fail_check "DAILY TOTALS DISAGREE IN '${RUN_LABELS[$id]}': $COUNTED counted, $STORED stored"
}
STORED_LINES=()

# wrk prints latencies as 812.00us, 1.23ms, 2.01s or 1.05m.
to_ms() {
    awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
           if (u == "us") v /= 1000; else if (u == "s") v *= 1000; else if (u == "m") v *= 60000
           printf "%.2f\n", v }'
}
rps() { awk '/^Requests\/sec/ { print $2 }' "$WORK/run-$1.out"; }
percentile_ms() { awk -v p="$2%" '$1 == p { print $2 }' "$WORK/run-$1.out" | to_ms; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3g", a / b; else print "n/a" }'; }

# The GET after a change misses the cache: miss_times LABEL KEY NOTIFICATION. Each change flips the notification's
# preset, so the feed's content, and with it its ETag, must change every time: a feed that does not was served
# from a cache the change did not reach.
miss_times() {
    local label=$1 key=$2 notification=$3 preset previous current answer code i stale=0 times=()
    previous=$(curl -sS --max-time 10 -o /dev/null -D - "$(feed_url $HERALD_PORT "$key")" | etag)
    for i in $(seq 1 $MISS_SAMPLES); do
        preset=default
        [ $((i % 2)) -eq 1 ] && preset=highlight
        code=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -X PATCH \
            -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{\"preset\":\"$preset\"}" \
            "http://127.0.0.1:$HERALD_PORT/api/v1/admin/notifications/$notification")
        [ "$code" = 200 ] || die "PATCH $notification answered $code"
        answer=$(curl -sS --max-time 10 -o /dev/null -D "$WORK/miss.headers" -w '%{http_code} %{time_total}' \
            "$(feed_url $HERALD_PORT "$key")")
        [ "${answer% *}" = 200 ] || die "the feed answered ${answer% *} after a change"
        current=$(etag < "$WORK/miss.headers")
        [ "$current" != "$previous" ] || stale=$((stale + 1))
        previous=$current
        times+=("${answer#* }")
    done
    printf '  %-46s %s\n' "$label" "$(printf '%s\n' "${times[@]}" | median_max_ms)"
    [ $stale -eq 0 ] || fail_check "STALE FEED: '$label' did not change after $stale of $MISS_SAMPLES changes"
}
# Every request misses on the naive instance: the same GET, timed alone.
naive_times() {
    local label=$1 key=$2 answer times=()
    curl -sS --max-time 10 -o /dev/null "$(feed_url $NAIVE_PORT "$key")"
    for _ in $(seq 1 $MISS_SAMPLES); do
        answer=$(curl -sS --max-time 10 -o /dev/null -w '%{http_code} %{time_total}' "$(feed_url $NAIVE_PORT "$key")")
        [ "${answer% *}" = 200 ] || die "the naive feed answered ${answer% *}"
        times+=("${answer#* }")
    done
    printf '  %-46s %s\n' "$label" "$(printf '%s\n' "${times[@]}" | median_max_ms)"
}
# The requests a Herald process answered 500, and why, from its log (gone with the temporary directory at exit).
logged_failures() {
    local name=$1 count
    count=$(grep -c 'Request failed' "$WORK/$name.log" || true)
    [ "$count" -eq 0 ] && return 0
    echo "WARNING: $name logged $count failed requests; the first:"
    # The log line, the exception and its causes: the stack trace runs until the next timestamped line. No head:
    # under pipefail, the writer it cuts off would end the script.
    awk 'on && /^[0-9]{4}-[0-9]{2}-[0-9]{2}T/ { exit }
         /Request failed/ { on = 1 }
         on && !/^[[:space:]]+at / && !/^[[:space:]]*\.\.\. [0-9]+ more/ && NF && shown++ < 8 {
             print "    " substr($0, 1, 200) }' "$WORK/$name.log"
}
etag() { sed -n 's/^etag: *//Ip' | tr -d '\r'; }
median_max_ms() {
    sort -g | awk '{ v[NR] = $1 * 1000 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "median %6.2f ms, max %6.2f ms", m, v[NR] }'
}

# JFR windows on the "herald" process, one per hot path, so that neither's profile hides the other's.
jfr_start() {
    $PROFILE || return 0
    "$JAVA_HOME/bin/jcmd" "${PIDS[herald]}" JFR.start name="$1" settings=profile filename="$PROFILE_DIR/$1.jfr" \
        > /dev/null
}
jfr_stop() {
    $PROFILE || return 0
    "$JAVA_HOME/bin/jcmd" "${PIDS[herald]}" JFR.stop name="$1" > /dev/null
}

# ---------------------------------------------------------------------------------------------------------------
$BUILD && mvn -B -q package -DskipTests
[ -f target/herald.jar ] && [ -d target/libs ] || die "no target/herald.jar: run without --no-build"

echo "hot paths: ${RUN_SECONDS} s per run, $CONNECTIONS connections, wrk -t2; $(nproc) cores; JVM flags: $LAUNCHER_FLAGS MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX"
$PROFILE && echo "profiling: JFR runs in the herald process, its figures include JFR's cost"
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
start_herald schema $HERALD_PORT ''
stop_process schema
SECONDS=0
seed
echo "seeded in ${SECONDS}s: $(sql "$DB" -e "SELECT GROUP_CONCAT(CONCAT(project_id, ' ', n) SEPARATOR ', ') FROM
    (SELECT project_id, COUNT(*) AS n FROM notifications GROUP BY project_id) AS c") notifications," \
     "messages of $(sql "$DB" -e "SELECT MIN(LENGTH(message)), MAX(LENGTH(message)) FROM notifications" | tr '\t' -) bytes"

HERALD_JVM=''
if $PROFILE; then
    PROFILE_DIR=$PWD/target/hotpaths-profile
    rm -rf "$PROFILE_DIR"
    mkdir -p "$PROFILE_DIR"
    HERALD_JVM="-XX:StartFlightRecording=filename=$PROFILE_DIR/whole-run.jfr,settings=profile"
fi
start_herald herald $HERALD_PORT "$HERALD_JVM"
start_herald naive $NAIVE_PORT '' FEED_CACHE_ENABLED=false TRACKING_BATCH_ENABLED=false

# The feed as Herald serves it: the bytes nginx and the bare route send.
curl -sS --max-time 10 -D "$WORK/feed.headers" -o "$WORK/www/feed" "$(feed_url $HERALD_PORT $KEY_HISTORY)"
chmod 644 "$WORK/www/feed"
grep -q '^HTTP/1.1 200' "$WORK/feed.headers" || { cat "$WORK/feed.headers"; die "the feed did not answer 200"; }
ETAG=$(etag < "$WORK/feed.headers")
ENTRIES=$(grep -o '"preset":' "$WORK/www/feed" | wc -l)
[ "$ENTRIES" -eq 50 ] || die "the feed has $ENTRIES notifications, not 50"
[ "$(grep -o '"preset":' <(curl -sS --max-time 10 "$(feed_url $HERALD_PORT $KEY_LEAN)") | wc -l)" -eq 50 ] \
    || die "the feed of the key without history does not have 50 notifications"
cmp -s "$WORK/www/feed" <(curl -sS --max-time 10 "$(feed_url $NAIVE_PORT $KEY_HISTORY)") \
    || die "the naive instance serves another feed"
echo "feed: $ENTRIES notifications, $(stat -c %s "$WORK/www/feed") bytes, ETag $ETAG"

cat > "$WORK/nginx.conf" <<NGINX
worker_processes auto;
daemon off;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    # As Debian's own configuration serves files; connections kept open as long as Helidon keeps them (nginx
    # closes one after 1,000 requests by default, and wrk would pay for reconnecting).
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    # Every temporary directory in ours: nginx creates them at start, and the system's are not its to fill.
    client_body_temp_path $WORK/nginx-body;
    proxy_temp_path $WORK/nginx-proxy;
    fastcgi_temp_path $WORK/nginx-fastcgi;
    uwsgi_temp_path $WORK/nginx-uwsgi;
    scgi_temp_path $WORK/nginx-scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/www;
        etag on;
        location = /feed {
            default_type application/json;
            add_header Cache-Control no-cache;
        }
    }
}
NGINX
nginx -p "$WORK" -e "$WORK/nginx-error.log" -c "$WORK/nginx.conf" > "$WORK/nginx.log" 2>&1 &
PIDS[nginx]=$!
# shellcheck disable=SC2086  # the flag lists are meant to split into words
"$JAVA_HOME/bin/java" $LAUNCHER_FLAGS -cp "target/libs/*" bench/BareRoute.java $BARE_PORT "$WORK/www/feed" \
    > "$WORK/bare.log" 2>&1 &
PIDS[bare]=$!
await_line bare "BareRoute listening"
for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/feed" && break; sleep 0.1; done
cmp -s "$WORK/www/feed" <(curl -sS --max-time 10 "http://127.0.0.1:$NGINX_PORT/feed") \
    || { cat "$WORK/nginx.log" "$WORK/nginx-error.log" 2>/dev/null; die "nginx does not serve the feed"; }
cmp -s "$WORK/www/feed" <(curl -sS --max-time 10 "http://127.0.0.1:$BARE_PORT/feed") \
    || die "the bare route does not serve the feed"

echo "resident memory after start: herald $(rss_mib herald) MiB, naive $(rss_mib naive) MiB, bare route $(rss_mib bare) MiB"
(
    while :; do
        for name in herald naive bare; do echo "$name $(ps -o rss= -p "${PIDS[$name]}")"; done
        sleep 0.5
    done
) > "$WORK/rss" 2>/dev/null &
SAMPLER=$!
echo

# The feed: ceilings first (nginx needs no warm-up), then Herald; the naive instance idles until its own run.
measure nginx "nginx, static feed" 200 "http://127.0.0.1:$NGINX_PORT/feed"
warm_up "http://127.0.0.1:$BARE_PORT/feed"
measure bare_get "bare route, GET" 200 "http://127.0.0.1:$BARE_PORT/feed"
warm_up "$(feed_url $HERALD_PORT $KEY_HISTORY)"
jfr_start feed-hit
measure hit "Herald feed (cache hit)" 200 "$(feed_url $HERALD_PORT $KEY_HISTORY)"
jfr_stop feed-hit
[ "$(curl -sS --max-time 10 -o /dev/null -w '%{http_code}' -H "If-None-Match: $ETAG" \
     "$(feed_url $HERALD_PORT $KEY_HISTORY)")" = 304 ] || die "Herald does not answer 304 to its own ETag $ETAG"
measure not_modified "Herald feed, 304" 304 -H "If-None-Match: $ETAG" "$(feed_url $HERALD_PORT $KEY_HISTORY)"
warm_up "$(feed_url $NAIVE_PORT $KEY_HISTORY)"
measure naive_feed "naive feed (cache off)" 200 "$(feed_url $NAIVE_PORT $KEY_HISTORY)"

# Tracking. The warm-ups track a notification of their own, outside every run's count.
warm_up -s bench/hotpaths.lua "http://127.0.0.1:$BARE_PORT/track" -- 204 "$(track_body)"
measure_post bare_post "bare route, POST" bare "http://127.0.0.1:$BARE_PORT/track" "$(track_body)"
warm_up -s bench/hotpaths.lua "$(track_url $TRACK_WARMUP)" -- 204 "$(track_body)"
warm_up -s bench/hotpaths.lua "$(track_url $TRACK_WARMUP)/enhanced" -- 204 "$(enhanced_body)"
jfr_start tracking
WRITER_BEFORE=$(writer_counters herald)
measure_post track_simple "Herald tracking, simple" herald "$(track_url $TRACK_SIMPLE)" "$(track_body)"
check_stored track_simple $TRACK_SIMPLE
WRITER_AFTER=$(writer_counters herald)
writer_delta "Herald tracking, simple" "$WRITER_BEFORE" "$WRITER_AFTER"
measure_post track_enhanced "Herald tracking, enhanced" herald "$(track_url $TRACK_ENHANCED)/enhanced" "$(enhanced_body)"
check_stored track_enhanced $TRACK_ENHANCED
writer_delta "Herald tracking, enhanced" "$WRITER_AFTER" "$(writer_counters herald)"
jfr_stop tracking
NAIVE_TRACK="http://127.0.0.1:$NAIVE_PORT/api/v1/public/track"
warm_up -s bench/hotpaths.lua "$NAIVE_TRACK/$TRACK_WARMUP" -- 204 "$(track_body)"
measure_post track_naive "naive tracking, simple (no batch)" naive "$NAIVE_TRACK/$TRACK_NAIVE" "$(track_body)"
check_stored track_naive $TRACK_NAIVE

echo
echo "cache miss: the GET after a change through the management API, $MISS_SAMPLES each (curl, time_total)"
miss_times "herald, key with 10,000 expired notifications" $KEY_HISTORY $CHANGE_HISTORY
miss_times "herald, key without history" $KEY_LEAN $CHANGE_LEAN
naive_times "naive (always a miss), with history" $KEY_HISTORY
naive_times "naive (always a miss), without history" $KEY_LEAN

kill "$SAMPLER" 2>/dev/null || true
wait "$SAMPLER" 2>/dev/null || true
SAMPLER=
echo
echo "peak resident memory under the runs (sampled every 0.5 s): herald $(peak herald) MiB," \
     "naive $(peak naive) MiB, bare route $(peak bare) MiB"
echo "(the bare route's figures include the source launcher's compiler, loaded to compile it at start)"

echo
printf '%-36s %12s %10s %10s %8s\n' run requests/s "p50 ms" "p99 ms" errors
for id in "${RUN_IDS[@]}"; do
    printf '%-36s %12s %10s %10s %8s\n' "${RUN_LABELS[$id]}" "$(rps "$id")" "$(percentile_ms "$id" 50)" \
        "$(percentile_ms "$id" 99)" "${RUN_ERRORS[$id]}"
done
echo "(errors: answers other than the run's expected status, plus requests wrk gave up on after 2 s)"
for name in herald naive; do logged_failures "$name"; done
echo
printf '%s\n' "${STORED_LINES[@]}"
echo
echo "the interaction writer during each run (transactions committed; interactions and time in each):"
cat "$WORK/writer-lines"
echo
echo "Herald feed hit / nginx:                  $(ratio "$(rps hit)" "$(rps nginx)") (requests/s)"
echo "Herald feed hit / bare GET:               $(ratio "$(rps hit)" "$(rps bare_get)") (requests/s)"
echo "tracking simple / naive tracking simple:  $(ratio "$(rps track_simple)" "$(rps track_naive)") (requests/s)"
echo "tracking simple p99 / bare POST p99:      $(ratio "$(percentile_ms track_simple 99)" "$(percentile_ms bare_post 99)")"
echo "tracking enhanced p99 / bare POST p99:    $(ratio "$(percentile_ms track_enhanced 99)" "$(percentile_ms bare_post 99)")"

echo
echo "CPU per request of the POST runs, µs (user + system; the server, MariaDB, wrk; requests wrk counted):"
for id in bare_post track_simple track_enhanced track_naive; do
    read -r server mariadb client <<< "${RUN_CPU[$id]}"
    printf '  %-34s server %7s   MariaDB %7s   wrk %6s   all %7s\n' "${RUN_LABELS[$id]}" "$server" "$mariadb" \
        "$client" "$(awk -v a="$server" -v b="$mariadb" -v c="$client" 'BEGIN { printf "%.1f", a + b + c }')"
done
# The most any server could track on these cores: one that costs what the bare POST costs (its own CPU and wrk's)
# and stores each interaction as Herald's writer does, at MariaDB's CPU per interaction of the simple run.
read -r bare_server _ bare_client <<< "${RUN_CPU[bare_post]}"
read -r _ track_db _ <<< "${RUN_CPU[track_simple]}"
CEILING=$(awk -v n="$(nproc)" -v s="$bare_server" -v c="$bare_client" -v d="$track_db" \
    'BEGIN { printf "%.0f", n * 1e6 / (s + c + d) }')
echo "bound of the cores for a bare POST that stores as Herald does ($(nproc) cores / (bare server + wrk + MariaDB" \
     "per interaction)): $CEILING/s = $(ratio "$CEILING" "$(rps bare_post)") x the bare POST;" \
     "Herald's tracking simple is $(ratio "$(rps track_simple)" "$CEILING") x that bound"

if $PROFILE; then
    # The whole-run recording is written when the process stops.
    stop_process herald
    for recording in feed-hit tracking; do
        echo
        echo "== hot methods, $recording window: $PROFILE_DIR/$recording.jfr"
        "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$PROFILE_DIR/$recording.jfr" > "$WORK/hot-methods"
        sed -n '1,30p' "$WORK/hot-methods"
    done
    echo
    echo "whole run (start, warm-ups, runs, misses): $PROFILE_DIR/whole-run.jfr"
fi

if [ ${#FAILURES[@]} -gt 0 ]; then
    echo
    echo "FAILED: ${#FAILURES[@]} check(s)"
    printf '  %s\n' "${FAILURES[@]}"
    exit 1
fi
