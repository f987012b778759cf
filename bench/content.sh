#!/usr/bin/env bash
# What the content allow-list costs the feed (issue 22): the feed's pass runs when an answer is built, so it shows
# where every request builds one, with the cache off. Two builds side by side on one MariaDB database, the one
# before the pass (a jar directory given) and this one, each serving a project of 50 published notifications of
# ~500 bytes (25 rich-text documents, 25 HTML messages), both with feed.cache.enabled false; wrk on one then the
# other, three rounds each, alternating, so that the machine's noise falls on both.
#   bench/content.sh BEFORE_DIR [seconds per round, default 8] [connections, default 64]
# BEFORE_DIR holds herald.jar and libs/ of the build to compare with (git worktree add /tmp/before <commit>, then
# mvn -q package -DskipTests there). Needs: wrk, curl, a MariaDB root login without password on 127.0.0.1:3306.
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=${1:?a directory with the herald.jar and libs/ to compare with}
SECONDS_PER_ROUND=${2:-8}
CONNECTIONS=${3:-64}
DB=herald_content_bench
TOKEN=content-bench-token-0123456789abcdefghij
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
log() { printf '[content] %s\n' "$*"; }
[ -f target/herald.jar ] || mvn -B -q package -DskipTests
WORK=$(mktemp -d)
declare -A PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    sql -e "DROP DATABASE IF EXISTS $DB" || true
    rm -rf "$WORK"
}
trap cleanup EXIT
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

# start NAME JAR_DIR PORT: Herald with the cache off, on the shared database.
start() {
    DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
        SERVER_PORT=$3 OBSERVE_PORT=$(($3 + 1)) ADMIN_TOKENS=$TOKEN FEED_CACHE_ENABLED=false \
        RATE_DASH_LIMIT_REQUESTS=1000000000 \
        java -jar "$2/herald.jar" config/prod.yaml > "$WORK/$1.log" 2>&1 &
    PIDS[$1]=$!
    for _ in $(seq 1 300); do
        curl -s -o /dev/null "http://127.0.0.1:$(($3 + 1))/observe/health/ready" && return
        sleep 0.1
    done
    cat "$WORK/$1.log"; exit 1
}
admin() { curl -sS -f -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data "$2" \
              "http://127.0.0.1:18881/api/v1/admin$1"; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

start after target 18881
start before "$BEFORE" 18883
PROJECT=$(admin /projects '{"name":"content bench"}' | field id)
KEY=$(admin "/projects/$PROJECT/api-keys" '{}' | field key)
FILLER='This release brings faster dashboards, saved filters, a CSV export for every report and more. '
TEXT=$(printf '%s' "$FILLER$FILLER$FILLER$FILLER" | cut -c1-380)
for i in $(seq 1 25); do
    admin "/projects/$PROJECT/notifications" "{\"status\":\"PUBLISHED\",\"message\":{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"Release $i: \"},{\"type\":\"text\",\"text\":\"notes\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"https://example.com/notes/$i\"}}]},{\"type\":\"text\",\"text\":\" $TEXT\"}]}]}}" > /dev/null
    admin "/projects/$PROJECT/notifications" "{\"status\":\"PUBLISHED\",\"message\":\"<p>Release $i: <a href=\\\"https://example.com/notes/$i\\\">notes</a> <b>saved filters</b> &amp; more. $TEXT</p>\"}" > /dev/null
done
URL_PATH="/api/v1/public/$KEY/notifications"
for port in 18881 18883; do
    curl -sS -f "http://127.0.0.1:$port$URL_PATH" > "$WORK/feed-$port.json"
done
log "feed: 50 notifications, $(wc -c < "$WORK/feed-18881.json") bytes; the same answer from both: $(cmp -s "$WORK/feed-18881.json" "$WORK/feed-18883.json" && echo yes || echo no)"

declare -A TOTAL=([before]=0 [after]=0)
for round in 1 2 3; do
    for name in before after; do
        port=$([ "$name" = after ] && echo 18881 || echo 18883)
        # Warm-up first: the JIT must have compiled the path before it is measured.
        wrk -t2 -c"$CONNECTIONS" -d3s "http://127.0.0.1:$port$URL_PATH" > /dev/null
        out=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_ROUND}s" --latency "http://127.0.0.1:$port$URL_PATH")
        rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
        p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
        errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
        printf '[content] round %d  %-6s  %10s requests/s  p50 %8s  non-200: %s\n' "$round" "$name" "$rps" "$p50" "${errors:-0}"
        TOTAL[$name]=$(echo "${TOTAL[$name]} + $rps" | bc)
    done
done
log "mean: before $(echo "scale=1; ${TOTAL[before]} / 3" | bc) requests/s, after $(echo "scale=1; ${TOTAL[after]} / 3" | bc); after / before $(echo "scale=3; ${TOTAL[after]} / ${TOTAL[before]}" | bc)"
for name in before after; do
    if grep -q "SEVERE\|WARNING" "$WORK/$name.log"; then
        log "$name logged:"; grep "SEVERE\|WARNING" "$WORK/$name.log" | sort | uniq -c | sort -rn | head -5
    fi
done
