# shellcheck shell=bash
# Sourced by the benches: what they share (the feed of image.sh and startup.sh; one jar on a fresh MariaDB database
# for users.sh and languages.sh; the median).

# The SQL of one project, its key $1 and 20 current notifications: the feed both benches start against.
bench_feed_sql() {
    local key=$1 now
    now=$(($(date +%s) * 1000))
    echo "INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Bench', $now);"
    echo "INSERT INTO api_keys (api_key, project_id, show_past, show_future, order_by, created_at, revoked_at) VALUES ('$key', 'bench', FALSE, FALSE, 'createdAt_desc', $now, NULL);"
    for i in $(seq 1 20); do
        echo "INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, updated_at)"\
             "VALUES ('bench_$i', 'bench', 'PUBLISHED', 'Notification $i', 'NO_ACTION', 'default', $now, $now);"
    done
}

# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
die() { echo "ERROR: $*" >&2; exit 1; }

# One Herald (target/herald.jar with the launcher's JVM flags, jlink/herald) on a fresh MariaDB database $DB, listening
# on 127.0.0.1:$PORT with the admin token $TOKEN, the rate limit out of the way; $1: more environment settings
# (words), $2: more JVM flags. Sets WORK (a temporary directory, its log in herald.log), PID and OBSERVE (the
# operations port); bench_stop_jar, from the caller's exit trap, stops it and drops the database.
bench_start_jar() {
    local launcher_flags
    launcher_flags=$(sed -n '/^exec /,/\$AOT/p' jlink/herald | grep -oE -- '-[XD][^[:space:]\\]+' | tr '\n' ' ')
    [[ $launcher_flags == *-Xmx* ]] || die "could not read the JVM flags from jlink/herald"
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then die "port $PORT is taken: another run?"; fi
    [ -f target/herald.jar ] || die "target/herald.jar is missing: run without --no-build"
    WORK=$(mktemp -d -t herald-bench.XXXXXX)
    sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
    # shellcheck disable=SC2086  # the flags are meant to split into words
    env DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
        RATE_DASH_LIMIT_REQUESTS=1000000000 ADMIN_TOKENS=$TOKEN SERVER_HOST=127.0.0.1 SERVER_PORT=$PORT OBSERVE_PORT=0 $1 \
        "$JAVA_HOME/bin/java" $launcher_flags $2 -jar target/herald.jar config/prod.yaml > "$WORK/herald.log" 2>&1 &
    PID=$!
    for _ in $(seq 1 120); do grep -q "Herald listening" "$WORK/herald.log" && break; sleep 0.5; done
    grep -q "Herald listening" "$WORK/herald.log" || { tail -n 30 "$WORK/herald.log"; die "Herald did not start"; }
    OBSERVE=$(sed -n 's/.*health, metrics and OpenAPI on http:.*:\([0-9]*\)$/\1/p' "$WORK/herald.log")
}

bench_stop_jar() {
    if [ -n "${PID:-}" ]; then kill -TERM "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
    sql -e "DROP DATABASE IF EXISTS $DB" || true
    if [ -n "${WORK:-}" ]; then rm -rf "$WORK"; fi
}

# A management API call to the jar bench_start_jar started: METHOD PATH [JSON BODY]; its answer on standard output.
bench_admin() {
    local method=$1 path=$2 body=${3:-}
    curl -sS --fail-with-body --max-time 10 -X "$method" -H "Authorization: Bearer $TOKEN" \
        -H 'Content-Type: application/json' ${body:+-d "$body"} "http://127.0.0.1:$PORT/api/v1/admin$path"
}

# A string member of the JSON on standard input (the first such).
json_field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p" | head -n 1; }

# CPU time (user and system, ms) since they started, of the processes given, summed.
cpu_ms() {
    local pid
    for pid in "$@"; do awk '{ print $14 + $15 }' "/proc/$pid/stat"; done \
        | awk -v t="$(getconf CLK_TCK)" '{ s += $1 } END { print s * 1000 / t }'
}
# CPU time (ms) of the calling shell's finished children (the wrk runs), through FILE: `times` in a subshell counts
# from 0, so call it in the shell that ran them, its output redirected, never inside $(...).
children_cpu_ms() {
    times > "$1"
    awk 'NR == 2 { ms = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); ms += (p[1] * 60 + p[2]) * 1000 }
        print ms }' "$1"
}
# The process listening on each TCP port given.
listener_pids() {
    local port
    for port in "$@"; do ss -Hltnp "sport = :$port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1; done
}
# The CPU (ms) the JIT's compiler threads of the given processes have used.
compilers_ms() {
    local pid task
    for pid in "$@"; do
        for task in /proc/"$pid"/task/*; do
            case $(cat "$task/comm" 2>/dev/null) in C1\ Compiler*|C2\ Compiler*) awk '{ print $14 + $15 }' "$task/stat" ;; esac
        done
    done | awk -v t="$(getconf CLK_TCK)" '{ s += $1 } END { print s * 1000 / t }'
}
# warm_until_settled "PIDS" MIN_SECONDS MAX_SECONDS SETTLED_MS LOAD [args...]: runs `LOAD SECONDS args...` for
# MIN_SECONDS, then for 5 s at a time until the JIT compiler threads of PIDS used under SETTLED_MS ms of CPU a second
# each in the last 5 s, or MAX_SECONDS have passed; WARMED is then "seconds ms-a-second". A run measured while the
# compilers still work measures them (docs/performance.md).
warm_until_settled() {
    local pids=$1 min=$2 max=$3 settled=$4 load=$5 elapsed before rate
    shift 5
    "$load" "$min" "$@"
    elapsed=$min
    while :; do
        before=$(compilers_ms $pids)
        "$load" 5 "$@"
        elapsed=$((elapsed + 5))
        rate=$(awk -v a="$before" -v b="$(compilers_ms $pids)" -v n="$(wc -w <<< "$pids")" \
            'BEGIN { printf "%.0f", (b - a) / 5 / n }')
        [ "$rate" -ge "$settled" ] && [ "$elapsed" -lt "$max" ] || break
    done
    WARMED="$elapsed $rate"
}
