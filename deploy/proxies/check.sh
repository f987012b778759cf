#!/usr/bin/env bash
# Herald behind nginx, Caddy and HAProxy, each terminating TLS with a self-signed certificate and each with its
# default protocol to Herald (nginx's proxy_pass speaks HTTP/1.0): the configurations in this directory, checked.
# Builds nothing: starts target/herald.jar (with target/libs), or the jar given, on H2 in a temporary directory,
# then for each proxy, over HTTPS: the console signs in (its cookie Secure) and a management call takes the
# cookie; the feed answers with a key; a tracking POST is answered 204 and stored; two clients are rate-limited
# apart (Herald sees the client through rate-limit.trusted-proxies, not the proxy). Then HAProxy's HTTP/1.0 health
# check marks Herald UP, and ApacheBench (HTTP/1.0 only) straight at Herald gets 200 answers without a failure.
# Ports 19000 to 19019 (PROXY_CHECK_PORT_BASE moves them). Exits 1 with one line on the first failure.
#   bash deploy/proxies/check.sh [path/to/herald.jar]
set -euo pipefail
cd "$(dirname "$0")/../.."

JAR=${1:-target/herald.jar}
BASE=${PROXY_CHECK_PORT_BASE:-19000}
HERALD_PORT=$BASE
OBSERVE_PORT=$((BASE + 1))
STATS_PORT=$((BASE + 9))
ADMIN_TOKEN=proxy-check-admin-token-0123456789abcdef
ALICE_TOKEN=proxy-check-alice-token-0123456789abcdef
RATE_LIMIT=5
STEP=""
PIDS=()

fail() {
    printf 'deploy/proxies/check.sh: FAILED at "%s": %s\n' "$STEP" "$1" >&2
    exit 1
}

WORK=$(mktemp -d)
# nginx's workers run as another user: they read the certificate and write their temporary files here.
chmod 755 "$WORK"
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

STEP="find the tools"
[ -f "$JAR" ] || fail "$JAR is missing: run mvn -q package -DskipTests first, or give the jar's path"
for tool in java curl openssl nginx caddy haproxy ab; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (Debian: nginx-light caddy haproxy apache2-utils)"
done

STEP="make a self-signed certificate"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$WORK/key.pem" -out "$WORK/cert.pem" >/dev/null 2>&1 || fail "openssl could not make one"
chmod 644 "$WORK/key.pem"
cat "$WORK/cert.pem" "$WORK/key.pem" > "$WORK/combined.pem"

# Waits until a URL answers anything over HTTP(S), or fails naming the log.
wait_for() {
    local url=$1 log=$2 pid=$3
    for _ in $(seq 1 120); do
        if curl -s -o /dev/null --max-time 2 --cacert "$WORK/cert.pem" "$url"; then
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || fail "it ended: $(tail -n 3 "$log" | tr '\n' ' ')"
        sleep 0.5
    done
    fail "no answer at $url within 60 s: $(tail -n 3 "$log" | tr '\n' ' ')"
}

STEP="start Herald"
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
cat > "$WORK/herald.yaml" <<EOF
server:
  host: 127.0.0.1
  port: $HERALD_PORT
observe:
  host: 127.0.0.1
  port: $OBSERVE_PORT
db:
  connection:
    url: "jdbc:h2:file:$WORK/data/herald"
    username: sa
    password: ""
admin:
  tokens: ["$ADMIN_TOKEN"]
  accounts:
    - name: alice
      role: editor
      token-sha256: "$(sha "$ALICE_TOKEN")"
rate-limit:
  requests: $RATE_LIMIT
  window: PT60S
  trusted-proxies: ["127.0.0.1/32"]
EOF
java -jar "$JAR" "$WORK/herald.yaml" > "$WORK/herald.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$OBSERVE_PORT/observe/health/ready" "$WORK/herald.log" "$!"
DIRECT=http://127.0.0.1:$HERALD_PORT/api/v1

# The value of a top-level string field of a JSON answer.
field() {
    sed -nE "s/.*\"$1\":\"([^\"]+)\".*/\1/p" <<<"$2"
}

STEP="create a project, a key and a notification"
AUTH="Authorization: Bearer $ADMIN_TOKEN"
JSON="Content-Type: application/json"
PROJECT=$(field id "$(curl -sS --fail-with-body -X POST "$DIRECT/admin/projects" -H "$AUTH" -H "$JSON" \
    -d '{"name":"Proxies"}')") || fail "no project"
KEY=$(field key "$(curl -sS --fail-with-body -X POST "$DIRECT/admin/projects/$PROJECT/api-keys" -H "$AUTH")") \
    || fail "no key"
NOTIFICATION=$(field id "$(curl -sS --fail-with-body -X POST "$DIRECT/admin/projects/$PROJECT/notifications" \
    -H "$AUTH" -H "$JSON" -d '{"message":{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text",
    "text":"Behind a proxy"}]}]},"status":"PUBLISHED"}')") || fail "no notification"
[ -n "$PROJECT" ] && [ -n "$KEY" ] && [ -n "$NOTIFICATION" ] || fail "an answer without its id or key"

# Fills in a configuration of this directory for a proxy listening on $1.
render() {
    sed -e "s|@DIR@|$WORK|g" -e "s|@PORT@|$2|g" -e "s|@HERALD_PORT@|$HERALD_PORT|g" \
        -e "s|@OBSERVE_PORT@|$OBSERVE_PORT|g" -e "s|@STATS_PORT@|$STATS_PORT|g" \
        "deploy/proxies/$1" > "$WORK/$1"
}

TRACKED=0

# The checks over HTTPS through the proxy on port $2; its clients come from 127.0.$3.1, .2 and .3 (every
# 127.x.y.z is this machine), so that the proxy, not curl, writes the X-Forwarded-For Herald reads.
check_through() {
    local name=$1 port=$2 net=$3 url answer status
    url=https://localhost:$port
    # Every curl: the certificate checked against the one made above, localhost on IPv4, from a chosen address.
    https() {
        local from=$1
        shift
        curl -sS --max-time 10 --cacert "$WORK/cert.pem" --resolve "localhost:$port:127.0.0.1" \
            --interface "127.0.$net.$from" "$@"
    }

    STEP="$name: sign in to the console"
    https 1 "$url/console/" -o /dev/null -w '%{http_code}' | grep -qx 200 || fail "the console page is not 200"
    answer=$(https 1 -D "$WORK/$name-signin.head" -c "$WORK/$name-cookies" -H "$JSON" \
        -d "{\"name\":\"alice\",\"token\":\"$ALICE_TOKEN\"}" -w '\n%{http_code}' "$url/api/v1/admin/session") \
        || fail "curl failed"
    [ "$(tail -n 1 <<<"$answer")" = 201 ] || fail "sign-in answered $(tr '\n' ' ' <<<"$answer")"
    grep -qi '^set-cookie: __Host-herald-session=.*; Secure' "$WORK/$name-signin.head" \
        || fail "no Secure session cookie: $(grep -i '^set-cookie' "$WORK/$name-signin.head" | tr -d '\r')"
    # curl keeps a Secure cookie only from an HTTPS answer, and sends it only over HTTPS: TRUE in the fourth column.
    awk -F'\t' '$4 == "TRUE" && $6 == "__Host-herald-session" {found = 1} END {exit !found}' "$WORK/$name-cookies" \
        || fail "curl did not keep the session cookie as Secure"
    status=$(https 1 -b "$WORK/$name-cookies" -o /dev/null -w '%{http_code}' "$url/api/v1/admin/projects")
    [ "$status" = 200 ] || fail "a management call with the session cookie answered $status"

    STEP="$name: the feed with a key"
    answer=$(https 1 --fail-with-body "$url/api/v1/public/$KEY/notifications") || fail "$answer"
    grep -qF "\"id\":\"$NOTIFICATION\"" <<<"$answer" || fail "the notification is not in the feed: $answer"

    STEP="$name: a tracking POST"
    status=$(https 1 -o /dev/null -w '%{http_code}' -H "$JSON" -d '{"type":"impression"}' \
        "$url/api/v1/public/track/$NOTIFICATION")
    [ "$status" = 204 ] || fail "answered $status"
    TRACKED=$((TRACKED + 1))
    for _ in $(seq 1 20); do
        answer=$(curl -sS "$DIRECT/admin/notifications/$NOTIFICATION/stats" -H "$AUTH")
        grep -q "\"impression\":$TRACKED," <<<"$answer" && break
        sleep 0.25
    done
    grep -q "\"impression\":$TRACKED," <<<"$answer" || fail "not stored: $TRACKED impressions expected, $answer"

    STEP="$name: two clients are rate-limited apart"
    for _ in $(seq 1 "$RATE_LIMIT"); do
        status=$(https 2 -o /dev/null -w '%{http_code}' "$url/api/v1/public/$KEY/notifications")
        [ "$status" = 200 ] || fail "client 127.0.$net.2 answered $status within its limit"
    done
    status=$(https 2 -o /dev/null -w '%{http_code}' "$url/api/v1/public/$KEY/notifications")
    [ "$status" = 429 ] || fail "client 127.0.$net.2 answered $status past its limit of $RATE_LIMIT, not 429"
    status=$(https 3 -o /dev/null -w '%{http_code}' "$url/api/v1/public/$KEY/notifications")
    [ "$status" = 200 ] || fail "client 127.0.$net.3 answered $status after another client's 429: the limit is the proxy's"
    echo "$name: sign-in, feed, tracking and per-client rate limit over HTTPS passed"
}

STEP="start nginx"
render nginx.conf $((BASE + 2))
nginx -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon off;' > "$WORK/nginx.log" 2>&1 &
PIDS+=($!)
wait_for "https://127.0.0.1:$((BASE + 2))/console/" "$WORK/nginx.log" "$!"
check_through nginx $((BASE + 2)) 1

STEP="start Caddy"
render Caddyfile $((BASE + 3))
mkdir -p "$WORK/caddy"
HOME="$WORK/caddy" XDG_DATA_HOME="$WORK/caddy/data" XDG_CONFIG_HOME="$WORK/caddy/config" \
    caddy run --config "$WORK/Caddyfile" --adapter caddyfile > "$WORK/caddy.log" 2>&1 &
PIDS+=($!)
wait_for "https://127.0.0.1:$((BASE + 3))/console/" "$WORK/caddy.log" "$!"
check_through caddy $((BASE + 3)) 2

STEP="start HAProxy"
render haproxy.cfg $((BASE + 4))
haproxy -db -f "$WORK/haproxy.cfg" > "$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
HAPROXY=$!
STEP="HAProxy's HTTP/1.0 health check"
for _ in $(seq 1 40); do
    state=$(curl -s "http://127.0.0.1:$STATS_PORT/stats;csv" | awk -F, '$1 == "herald" && $2 == "herald" {print $18}' || true)
    [ "$state" = UP ] && break
    kill -0 "$HAPROXY" 2>/dev/null || fail "HAProxy ended: $(tail -n 3 "$WORK/haproxy.log" | tr '\n' ' ')"
    sleep 0.25
done
[ "${state:-}" = UP ] || fail "the server is ${state:-not listed}, not UP: $(tail -n 2 "$WORK/haproxy.log" | tr '\n' ' ')"
echo "haproxy: its HTTP/1.0 health check marks Herald UP"
check_through haproxy $((BASE + 4)) 3

STEP="ApacheBench (HTTP/1.0) straight at Herald"
ab -q -n 200 -c 4 "http://127.0.0.1:$HERALD_PORT/console/" > "$WORK/ab.txt" 2>&1 || fail "$(tail -n 1 "$WORK/ab.txt")"
grep -q '^Complete requests: *200$' "$WORK/ab.txt" || fail "$(grep -i 'complete' "$WORK/ab.txt")"
grep -q '^Failed requests: *0$' "$WORK/ab.txt" || fail "$(grep -i 'failed' "$WORK/ab.txt")"
! grep -q '^Non-2xx responses' "$WORK/ab.txt" || fail "$(grep '^Non-2xx' "$WORK/ab.txt")"
echo "ab: 200 requests, none failed, all 2xx"
echo "All proxy checks passed."
