#!/usr/bin/env bash
# The feed with user tokens against the anonymous feed, side by side in one run, on one Herald (the jar, the
# launcher's JVM flags, MariaDB):
#   one project with 30 notifications for everyone and 20 with an audience (plan, country, app version, a beta
#   flag, percentage rollouts), 10,000 distinct users with HS256 tokens (bench/MintTokens.java), each request as
#   the next user (bench/rotate.lua);
#   rounds alternating the anonymous feed and the feed with tokens; medians of requests/s and p99, their ratios
#   against the targets (tokens >= 0.7 x the anonymous requests/s, p99 <= 2 x);
#   then 100,000 distinct users once each: the heap after a full collection before and after, and the caches'
#   figures from /observe/metrics (verified tokens, feed answers).
# Prints TARGET MISSED lines (exit 1) when a target is not met: figures, not a test.
#   bench/users.sh [--no-build] [seconds per run, default 8] [connections, default 64] [rounds, default 3]
# Needs: a JDK >= 21, Maven, wrk, curl, jcmd, a MariaDB root login without password on 127.0.0.1:3306.
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
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $CONNECTIONS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] \
    || { usage >&2; exit 2; }
WARMUP_SECONDS=${USERS_WARMUP_SECONDS:-12}
USERS=10000
MANY_USERS=100000

DB=herald_users_bench
PORT=18850
TOKEN=UsersBenchAdminToken0123456789abcdefghijkl
KEY=UsersBenchKey0123456789abcdefghijklmnopq

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 javac
# shellcheck source=bench/common.sh
. bench/common.sh
for tool in wrk curl mariadb; do
    command -v $tool >/dev/null || { echo "$tool is missing"; exit 1; }
done
MISSED=()
cleanup() {
    local status=$?
    bench_stop_jar
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if $BUILD; then
    mvn -B -q -DskipTests package
fi
bench_start_jar "${USERS_BENCH_ENV:-}" "${USERS_BENCH_JVM:-}"
admin() { bench_admin "$@"; }
field() { json_field "$@"; }

PROJECT=$(admin POST /projects '{"name":"Users bench"}' | field id)
admin POST "/projects/$PROJECT/api-keys" "{\"key\":\"$KEY\"}" > /dev/null
SIGNING=$(admin POST "/projects/$PROJECT/token-keys" '{"algorithm":"HS256"}')
KID=$(field kid <<< "$SIGNING")
SECRET=$(field secret <<< "$SIGNING")
[ -n "$KID" ] && [ -n "$SECRET" ] || die "no token key: $SIGNING"

message() {
    printf '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"%s: faster dashboards, saved filters and a CSV export for every report."}]}]}' "$1"
}
for i in $(seq 1 30); do
    admin POST "/projects/$PROJECT/notifications" \
        "{\"status\":\"PUBLISHED\",\"message\":$(message "For everyone $i"),\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/news/$i\",\"target\":\"_blank\"}}}" > /dev/null
done
AUDIENCES=(
    '{"attribute":"plan","operator":"equals","value":"pro"}'
    '{"attribute":"plan","operator":"in","value":["pro","team"]}'
    '{"attribute":"plan","operator":"notEquals","value":"free"}'
    '{"attribute":"country","operator":"equals","value":"DE"}'
    '{"attribute":"country","operator":"in","value":["FR","ES","BR"]}'
    '{"attribute":"country","operator":"notIn","value":["US","GB"]}'
    '{"attribute":"appVersion","operator":"versionAtLeast","value":"2.3.0"}'
    '{"attribute":"appVersion","operator":"versionBelow","value":"2.2.0"}'
    '{"attribute":"beta","operator":"equals","value":true}'
    '{"attribute":"beta","operator":"exists"}'
    '{"rollout":25}'
    '{"rollout":50}'
    '{"all":[{"attribute":"plan","operator":"equals","value":"team"},{"attribute":"country","operator":"equals","value":"US"}]}'
    '{"any":[{"attribute":"plan","operator":"equals","value":"free"},{"attribute":"beta","operator":"equals","value":true}]}'
    '{"not":{"attribute":"plan","operator":"equals","value":"free"}}'
    '{"all":[{"attribute":"appVersion","operator":"versionAtLeast","value":"2.1.0"},{"rollout":10}]}'
    '{"attribute":"country","operator":"startsWith","value":"G"}'
    '{"any":[{"attribute":"country","operator":"equals","value":"JP"},{"attribute":"country","operator":"equals","value":"IN"}]}'
    '{"all":[{"attribute":"plan","operator":"in","value":["pro","team"]},{"not":{"attribute":"country","operator":"equals","value":"FR"}}]}'
    '{"attribute":"plan","operator":"equals","value":"enterprise"}'
)
for i in "${!AUDIENCES[@]}"; do
    admin POST "/projects/$PROJECT/notifications" \
        "{\"status\":\"PUBLISHED\",\"message\":$(message "Targeted $i"),\"audience\":${AUDIENCES[$i]}}" > /dev/null
done

"$JAVA_HOME/bin/java" bench/MintTokens.java "$KID" "$SECRET" "$PROJECT" $USERS "$WORK/tokens"
"$JAVA_HOME/bin/java" bench/MintTokens.java "$KID" "$SECRET" "$PROJECT" $MANY_USERS "$WORK/many-tokens"
URL="http://127.0.0.1:$PORT/api/v1/public/$KEY/notifications"
first=$(head -n 1 "$WORK/tokens")
anonymous_items=$(curl -sS "$URL" | grep -o '"id":' | wc -l)
user_items=$(curl -sS -H "Authorization: Bearer $first" "$URL" | grep -o '"id":' | wc -l)
echo "feed: $anonymous_items notifications anonymous, $user_items for user-0 (plan free, DE, 2.0.0, beta)"
[ "$anonymous_items" -eq 30 ] || die "the anonymous feed has $anonymous_items notifications, not 30"
[ "$user_items" -gt 30 ] || die "user-0's feed has no targeted notification: $user_items"

wrk_run() { wrk -t2 -c"$CONNECTIONS" -d"$1s" --latency "${@:2}"; }
anonymous() { wrk_run "$1" -s bench/hotpaths.lua "$URL" -- 200; }
with_tokens() { wrk_run "$1" -s bench/rotate.lua "$URL" -- Authorization "$2" "Bearer "; }
anonymous "$WARMUP_SECONDS" > /dev/null
with_tokens "$WARMUP_SECONDS" "$WORK/tokens" > /dev/null

rps() { awk '/^Requests\/sec/ { print $2 }' "$1"; }
p99() { awk '$1 == "99%" { print $2 }' "$1" | awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
           if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.2f\n", v }'; }
others() { sed -n 's/^answers: [0-9]*=[0-9]* other=\([0-9]*\)$/\1/p' "$1"; }
for round in $(seq 1 "$ROUNDS"); do
    anonymous "$RUN_SECONDS" > "$WORK/anonymous-$round"
    with_tokens "$RUN_SECONDS" "$WORK/tokens" > "$WORK/tokens-$round"
    printf 'round %d: anonymous %8s/s p99 %6s ms (%s other) | tokens %8s/s p99 %6s ms (%s other)\n' "$round" \
        "$(rps "$WORK/anonymous-$round")" "$(p99 "$WORK/anonymous-$round")" "$(others "$WORK/anonymous-$round")" \
        "$(rps "$WORK/tokens-$round")" "$(p99 "$WORK/tokens-$round")" "$(others "$WORK/tokens-$round")"
    for run in anonymous tokens; do
        [ "$(others "$WORK/$run-$round")" = 0 ] || MISSED+=("answers other than 200 in the $run run of round $round")
    done
done
median_of() { for f in "$WORK/$1"-*; do "$2" "$f"; done | median; }
A_RPS=$(median_of anonymous rps); T_RPS=$(median_of tokens rps)
A_P99=$(median_of anonymous p99); T_P99=$(median_of tokens p99)
RPS_RATIO=$(awk -v a="$T_RPS" -v b="$A_RPS" 'BEGIN { printf "%.2f", a / b }')
P99_RATIO=$(awk -v a="$T_P99" -v b="$A_P99" 'BEGIN { printf "%.2f", a / b }')
echo
echo "medians of $ROUNDS rounds, ${RUN_SECONDS} s each, $CONNECTIONS connections, $(nproc) CPUs:"
printf '  anonymous feed        %10.0f requests/s   p99 %6.2f ms\n' "$A_RPS" "$A_P99"
printf '  feed with %d tokens %10.0f requests/s   p99 %6.2f ms\n' "$USERS" "$T_RPS" "$T_P99"
printf '  tokens / anonymous    %10s x            p99 %6s x   (targets: >= 0.7 x, <= 2 x)\n' "$RPS_RATIO" "$P99_RATIO"
awk -v r="$RPS_RATIO" 'BEGIN { exit !(r >= 0.7) }' || MISSED+=("requests/s with tokens $RPS_RATIO x the anonymous feed's, under 0.7 x")
awk -v r="$P99_RATIO" 'BEGIN { exit !(r <= 2) }' || MISSED+=("p99 with tokens $P99_RATIO x the anonymous feed's, over 2 x")

metric() { curl -sS --max-time 10 "http://127.0.0.1:$OBSERVE/observe/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
heap_after_gc() {
    jcmd "$PID" GC.run > /dev/null
    sleep 1
    curl -sS --max-time 10 "http://127.0.0.1:$OBSERVE/observe/metrics" \
        | awk '$1 ~ /^jvm_memory_used_bytes\{area="heap"/ { printf "%.1f", $2 / 1048576 }'
}
echo
HEAP_BEFORE=$(heap_after_gc)
# Each of the 100,000 once at least: two threads, each through the whole file from its own place.
with_tokens $((RUN_SECONDS * 3)) "$WORK/many-tokens" > "$WORK/many"
HEAP_AFTER=$(heap_after_gc)
echo "100,000 users: $(rps "$WORK/many") requests/s over $((RUN_SECONDS * 3)) s ($(others "$WORK/many") other)"
echo "  heap after a full collection: $HEAP_BEFORE MiB before, $HEAP_AFTER MiB after"
curl -sS --max-time 10 "http://127.0.0.1:$OBSERVE/observe/metrics" \
    | grep -E "^herald_(user_token|feed_cache)[a-z_]* " | sed 's/^/  /'

if [ ${#MISSED[@]} -gt 0 ]; then
    printf 'TARGET MISSED: %s\n' "${MISSED[@]}"
    exit 1
fi
