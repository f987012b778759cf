#!/usr/bin/env bash
# Checks the runtime image as an operator runs it: bin/herald with config/prod.yaml and secrets from the
# environment, against MariaDB. It must start, report ready, serve the public API (a notification created through
# the management API, fetched with its key, a click tracked and counted), report metrics on the operations port
# (and not on the public one), start without a line from the JVM itself (a warning about its start-up cache, say),
# answer an HTTP/1.0 request as a 1.1 server (nginx's default proxy_pass), take a changed configuration file on
# SIGHUP (a CORS origin added), and stop cleanly on SIGTERM.
#   jlink/check.sh            (after jlink/build.sh; needs curl and MariaDB on 127.0.0.1:3306, root, no password)
# HERALD_IMAGE: another build of the image to check (default target/herald-image).
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${HERALD_IMAGE:-target/herald-image}
# Chosen by the system (tools/free-ports.py): a fixed pair was taken by other services on a shared machine.
read -r PORT OBSERVE_PORT < <(python3 tools/free-ports.py 2)
DB=herald_image_check_$$
TOKEN=check-token-0123456789abcdef0123456789   # Herald refuses tokens under 32 characters
BASE="http://127.0.0.1:$PORT"
OBSERVE="http://127.0.0.1:$OBSERVE_PORT"
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
fail() { echo "[image check] FAILED: $*"; echo "--- Herald's log:"; cat "$LOG"; exit 1; }

[ -x "$IMAGE/bin/herald" ] || { echo "[image check] no $IMAGE: run jlink/build.sh first"; exit 1; }
IMAGE=$(cd "$IMAGE" && pwd -P)
sql -e "CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
LOG=$(mktemp)
# A copy of config/prod.yaml the check edits while Herald runs; readable by the user Herald runs as.
CONFIG=$(mktemp --suffix=.yaml)
cp config/prod.yaml "$CONFIG"
chmod 644 "$CONFIG"
HERALD=
trap 'kill -9 $HERALD 2>/dev/null || true; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -f "$LOG" "$CONFIG"' EXIT

# From another directory, and as an unprivileged user when we are root, as systemd or a container would run it:
# nothing may depend on the checkout or on writing to the image. setpriv execs (no child), so $HERALD is the JVM.
AS_USER=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
    AS_USER=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
(cd /tmp && DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root \
    DB_CONNECTION_PASSWORD='' ADMIN_TOKENS=$TOKEN SERVER_PORT=$PORT OBSERVE_PORT=$OBSERVE_PORT \
    exec "${AS_USER[@]}" "$IMAGE/bin/herald" "$CONFIG" > "$LOG" 2>&1) &
HERALD=$!
for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$OBSERVE/observe/health/ready")" = 200 ] && break
    kill -0 "$HERALD" 2>/dev/null || fail "Herald exited at start"
    sleep 0.1
done
[ "$(curl -s "$OBSERVE/observe/health/ready")" = '{"status":"UP","checks":[{"name":"database","status":"UP"}]}' ] \
    || fail "not ready"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/observe/metrics")" = 404 ] || fail "metrics on the public port"
grep -q "AOTCache\|AOT cache" "$LOG" && fail "the start-up cache was rejected"
# The JVM's own log lines ([0.154s][warning][aot] ...): an operator reads each as something wrong, so a start
# prints none (the adapters of the start-up cache, jlink/herald).
grep -E '^\[[0-9.]+s\]\[' "$LOG" && fail "the JVM logged at start"

admin() { curl -sS -f -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
              ${3:+--data "$3"} "$BASE/api/v1/admin$2"; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }
PROJECT=$(admin POST /projects '{"name":"image check"}' | field id)
KEY=$(admin POST "/projects/$PROJECT/api-keys" '{}' | field key)
# HTML with a handler and a named reference: the content allow-list (jsoup, its entity tables) works in the image.
NOTIFICATION=$(admin POST "/projects/$PROJECT/notifications" \
                     '{"message":"<p onclick=\"x()\">Hello from the <b>image</b> &eacute;</p>","status":"PUBLISHED"}' | field id)
[ -n "$PROJECT" ] && [ -n "$KEY" ] && [ -n "$NOTIFICATION" ] || fail "management API"

FEED=$(curl -sS -f "$BASE/api/v1/public/$KEY/notifications")
echo "$FEED" | grep -q "\"id\":\"$NOTIFICATION\"" || fail "feed without the notification: $FEED"
echo "$FEED" | grep -q '"message":"<p>Hello from the <b>image</b> é</p>"' || fail "feed message: $FEED"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: text/plain' --data '{"type":"click"}' \
      "$BASE/api/v1/public/track/$NOTIFICATION")" = 204 ] || fail "tracking"
admin GET "/notifications/$NOTIFICATION/stats" | grep -q '"click":1' || fail "the click is not counted"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v1/public/$KEY/nope")" = 404 ] || fail "unknown route"

# HTTP/1.0, as nginx's default proxy_pass sends it: answered as a 1.1 server answers, with a length, then closed.
ANSWER=$(curl -sS --http1.0 -D - -o /dev/null "$BASE/api/v1/public/$KEY/notifications")
echo "$ANSWER" | grep -q '^HTTP/1.1 200 ' || fail "HTTP/1.0: $ANSWER"
echo "$ANSWER" | grep -qi '^Content-Length: [0-9]' || fail "HTTP/1.0 without a length: $ANSWER"
echo "$ANSWER" | grep -qi '^Transfer-Encoding' && fail "HTTP/1.0 answered chunked: $ANSWER"

# The configuration file changed and SIGHUP: a CORS origin added applies without a restart.
preflight() { curl -s -o /dev/null -w '%{http_code} %header{access-control-allow-origin}' -X OPTIONS \
                   -H 'Origin: https://app.example' -H 'Access-Control-Request-Method: GET' \
                   "$BASE/api/v1/public/$KEY/notifications"; }
printf '\ncors:\n  allowed-origins: ["https://app.example"]\n' >> "$CONFIG"
kill -HUP "$HERALD"
for _ in $(seq 1 50); do
    [ "$(preflight)" = "204 https://app.example" ] && break
    sleep 0.1
done
[ "$(preflight)" = "204 https://app.example" ] || fail "CORS origin not taken on SIGHUP: $(preflight)"
grep -q 'Configuration reloaded: cors.allowed-origins' "$LOG" || fail "no reload line in the log"
kill -0 "$HERALD" 2>/dev/null || fail "Herald exited on SIGHUP"

METRICS=$(curl -sS -f "$OBSERVE/observe/metrics")
echo "$METRICS" | grep -q '^herald_interactions_stored_total{endpoint="simple"} 1$' || fail "metrics: $METRICS"
echo "$METRICS" | grep -q '^herald_db_pool_connections [1-9]' || fail "no pool figures in the image: $METRICS"

kill -TERM "$HERALD"
STATUS=0
timeout 15 tail --pid="$HERALD" -f /dev/null || fail "Herald did not stop within 15 s of SIGTERM"
wait "$HERALD" || STATUS=$?
HERALD=
grep -q "Herald stopped" "$LOG" || fail "no clean stop in the log"
# 143 = 128 + SIGTERM: the JVM ran its shutdown hooks and exited on the signal.
[ "$STATUS" = 0 ] || [ "$STATUS" = 143 ] || fail "exit status $STATUS"
echo "[image check] passed: started without a JVM line, ready, served the public API against MariaDB (HTTP/1.0 too), took a new CORS origin on SIGHUP, stopped on SIGTERM"
