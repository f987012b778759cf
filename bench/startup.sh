#!/usr/bin/env bash
# Start-up against its ceiling: Herald's runtime image (target/herald-image, against MariaDB with config/prod.yaml)
# and a bare Helidon route (bench/bare-start) linked into a runtime image the same way: the same jlink options,
# the same launcher (jlink/herald) and a start-up cache recorded the same way. Starts them in turn, ROUNDS each,
# from the command to the first 200 of the feed's path (bench/first-answer.py), with the CPU time the JVM had used
# by then (user + system: less sensitive than the wall clock to a machine shared with other work), then resident
# memory 1 s later.
#   bench/startup.sh [rounds, default 10]
# Needs: what jlink/build.sh needs (run it first, or this does), python3, curl, a MariaDB root login without password.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-10}
PORT=18840
DB=herald_startup_bench
KEY=BenchKey0123456789BenchKey0123456789ABCD
IMAGE=${HERALD_IMAGE:-target/herald-image}   # HERALD_IMAGE: another build of it, to compare
BARE=target/bare-image
WORK=$(mktemp -d)
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
log() { printf '[startup] %s\n' "$*"; }

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
# shellcheck source=bench/common.sh
. bench/common.sh
use_jdk 25 jlink
[ -x "$IMAGE/bin/herald" ] || bash jlink/build.sh

PID=
# Whether the process runs (a zombie does not).
alive() { local state; state=$(ps -o stat= -p "$1") || return 1; [[ $state != Z* ]]; }
# Started by first-answer.py, the JVM is the poller's child, not ours: wait for it by polling.
stop() {
    kill -TERM "$PID"
    for _ in $(seq 1 300); do alive "$PID" || break; sleep 0.05; done
    PID=
}
trap '[ -z "$PID" ] || kill -9 $PID 2>/dev/null; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -rf "$WORK"' EXIT
FEED="http://127.0.0.1:$PORT/api/v1/public/$KEY/notifications"
ELAPSED=
CPU=
TICKS=$(getconf CLK_TCK)
start() {
    local result
    result=$(python3 bench/first-answer.py "$FEED" "$WORK/log" "$@") || { cat "$WORK/log"; exit 1; }
    ELAPSED=${result% *}
    PID=${result#* }
    CPU=$(awk -v t="$TICKS" '{print int(($14 + $15) * 1000 / t)}' "/proc/$PID/stat")
}
bytes() { du -s --apparent-size -B1 "$1" | cut -f1; }

log "linking the bare route into $BARE"
rm -rf "$BARE" "$WORK/modules" && mkdir -p "$WORK/classes" "$WORK/modules"
javac -q -p target/libs -d "$WORK/classes" $(find bench/bare-start -name '*.java') 2>/dev/null \
    || javac -p target/libs -d "$WORK/classes" $(find bench/bare-start -name '*.java')
jar --create --file "$WORK/modules/bare.jar" -C "$WORK/classes" .
find target/libs -name '*.jar' ! -name 'h2-*.jar' -exec cp {} "$WORK/modules/" \;
# The options of jlink/build.sh.
jlink --module-path "$WORK/modules" --add-modules bench.bare \
      --strip-debug --no-header-files --no-man-pages --compress zip-9 --output "$BARE"
find "$BARE/lib" -name '*.so' -exec strip --strip-unneeded {} \;
rm -f "$BARE/bin/keytool"
mkdir -p "$BARE/lib/classpath"
sed 's|dev.herald/dev.herald.Main|bench.bare/bench.bare.BareStart|' jlink/herald > "$BARE/bin/herald"
chmod 755 "$BARE/bin/herald"
# The cache is recorded as jlink/build.sh records Herald's: classes loaded and linked by a run that serves its
# route, no method profiles.
log "recording the bare route's start-up cache"
start env HERALD_AOT=record HERALD_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining" \
    "$BARE/bin/herald" "$PORT"
for _ in 1 2 3; do curl -s -o /dev/null "$FEED"; curl -s -o /dev/null "http://127.0.0.1:$PORT/nope"; done
stop
grep -q "AOTCache creation is complete" "$WORK/log" || { cat "$WORK/log"; log "no cache for the bare route"; exit 1; }

# Herald's database: a first start creates the schema; then one key and 20 current notifications to serve.
export DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD=''
export SERVER_PORT=$PORT OBSERVE_PORT=0
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
"$IMAGE/bin/herald" config/prod.yaml > "$WORK/log" 2>&1 &
PID=$!
for _ in $(seq 1 100); do grep -q "Herald listening" "$WORK/log" && break; sleep 0.1; done
stop
bench_feed_sql "$KEY" | sql "$DB"

log "$ROUNDS rounds, herald then bare; load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
    for variant in herald bare; do
        case $variant in
            herald) start "$IMAGE/bin/herald" config/prod.yaml ;;
            bare)   start "$BARE/bin/herald" "$PORT" ;;
        esac
        grep -q "AOTCache\|AOT cache" "$WORK/log" && { cat "$WORK/log"; log "$variant: its cache was rejected"; exit 1; }
        grep -qE '^\[[0-9.]+s\]\[' "$WORK/log" && { cat "$WORK/log"; log "$variant: the JVM logged at start"; exit 1; }
        sleep 1
        echo "$ELAPSED $(( $(ps -o rss= -p "$PID") / 1024 )) $CPU" >> "$WORK/$variant"
        stop
    done
    printf '  round %s: herald %s ms (CPU %s ms), bare %s ms (CPU %s ms)\n' "$round" \
           "$(tail -n1 "$WORK/herald" | cut -d' ' -f1)" "$(tail -n1 "$WORK/herald" | cut -d' ' -f3)" \
           "$(tail -n1 "$WORK/bare" | cut -d' ' -f1)" "$(tail -n1 "$WORK/bare" | cut -d' ' -f3)"
done
log "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

HERALD_MS=$(cut -d' ' -f1 "$WORK/herald" | median)
BARE_MS=$(cut -d' ' -f1 "$WORK/bare" | median)
for variant in herald bare; do
    dir=$IMAGE; [ "$variant" = bare ] && dir=$BARE
    printf '%-7s start to first 200: median %s ms (%s); JVM CPU by then: median %s ms; resident 1 s after: median %s MiB;' \
        "$variant" "$(cut -d' ' -f1 "$WORK/$variant" | median)" "$(cut -d' ' -f1 "$WORK/$variant" | sort -n | tr '\n' ' ' | sed 's/ $//')" \
        "$(cut -d' ' -f3 "$WORK/$variant" | median)" "$(cut -d' ' -f2 "$WORK/$variant" | median)"
    printf ' image %s bytes (cache %s)\n' "$(bytes "$dir")" "$(stat -c %s "$dir/lib/herald.aot")"
done
echo "herald / bare: $(awk -v h="$HERALD_MS" -v b="$BARE_MS" 'BEGIN {printf "%.2f", h / b}'), herald - bare: $(awk -v h="$HERALD_MS" -v b="$BARE_MS" 'BEGIN {print h - b}') ms;" \
     "CPU herald / bare: $(awk -v h="$(cut -d' ' -f3 "$WORK/herald" | median)" -v b="$(cut -d' ' -f3 "$WORK/bare" | median)" 'BEGIN {printf "%.2f", h / b}')"
