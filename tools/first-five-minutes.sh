#!/usr/bin/env bash
# The README's first five minutes: starts Herald from target/herald.jar with config/dev.yaml (embedded H2, admin
# token dev-admin-token), then creates a project, an API key and a notification, fetches the feed as a client
# would, records an impression and a click and reads the stats. Stops at the first step that fails and says which.
# Herald keeps running afterwards (its process id in herald.pid, its log in herald.log): kill "$(cat herald.pid)".
#   SERVER_PORT=18080 OBSERVE_PORT=18081 tools/first-five-minutes.sh     (other ports than 8080 and 8081; 0: any)
# The same steps against a Herald that runs already (the container image in .ci/container), started elsewhere:
#   HERALD_URL=http://127.0.0.1:8080 HERALD_ADMIN_TOKEN=... tools/first-five-minutes.sh
set -euo pipefail
cd "$(dirname "$0")/.."

AUTH="Authorization: Bearer ${HERALD_ADMIN_TOKEN:-dev-admin-token}"
JSON="Content-Type: application/json"
STEP=""

fail() {
    printf 'FAILED at step "%s": %s\n' "$STEP" "$1" >&2
    exit 1
}

# Runs curl for the step; prints the answer; fails the step on a refused connection or a status of 400 or more.
call() {
    local answer
    if ! answer=$(curl -sS --fail-with-body --max-time 10 "$@" 2>&1); then
        fail "$answer"
    fi
    printf '%s\n' "$answer"
}

# The value of a top-level string field of a JSON answer (no jq needed for these answers).
field() {
    sed -nE "s/.*\"$1\":\"([^\"]+)\".*/\1/p" <<<"$2"
}

start_herald() {
    STEP="find the jar"
    [ -f target/herald.jar ] || fail "target/herald.jar is missing: run mvn -q package -DskipTests first"
    STEP="start Herald"
    # A second run would overwrite the pid file and cut the log of the first Herald, still writing to it (an
    # operator's trial: kill "$(cat herald.pid)" then found no such process, and the log held NUL bytes).
    if [ -f herald.pid ] && kill -0 "$(cat herald.pid)" 2>/dev/null; then
        fail "a Herald this script started runs already (pid $(cat herald.pid), log herald.log): stop it first \
with kill \"\$(cat herald.pid)\", or try it again with HERALD_URL and HERALD_ADMIN_TOKEN set"
    fi
    java -jar target/herald.jar config/dev.yaml > herald.log 2>&1 &
    echo $! > herald.pid
    for _ in $(seq 1 120); do
        grep -q "Herald listening" herald.log && break
        kill -0 "$(cat herald.pid)" 2>/dev/null || fail "Herald ended: $(grep -E 'SEVERE|Error' herald.log | tail -1)"
        sleep 0.5
    done
    grep -q "Herald listening" herald.log || fail "no 'Herald listening' line in herald.log within 60 s"
    # SERVER_PORT=0 lets the system choose: the start-up line says which port it is.
    PORT=$(sed -nE 's|.*Herald listening on http://[^:]+:([0-9]+);.*|\1|p' herald.log | head -1)
    BASE=http://localhost:$PORT/api/v1
    echo "Herald runs (pid $(cat herald.pid), log herald.log)"
}

command -v curl >/dev/null || fail "curl is not installed"
if [ -n "${HERALD_URL:-}" ]; then
    BASE=$HERALD_URL/api/v1
else
    start_herald
fi

STEP="create a project"
PROJECT=$(field id "$(call -X POST "$BASE/admin/projects" -H "$AUTH" -H "$JSON" -d '{"name":"Web shop"}')")
[ -n "$PROJECT" ] || fail "no id in the answer"
echo "project $PROJECT"

STEP="create an API key"
KEY=$(field key "$(call -X POST "$BASE/admin/projects/$PROJECT/api-keys" -H "$AUTH")")
[ -n "$KEY" ] || fail "no key in the answer"
echo "key $KEY"

STEP="publish a notification"
NOTIFICATION=$(field id "$(call -X POST "$BASE/admin/projects/$PROJECT/notifications" -H "$AUTH" -H "$JSON" -d '{
    "message": {"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Winter sale: -20%"}]}]},
    "status": "PUBLISHED",
    "action": {"type":"LINK","data":{"url":"https://example.com/sale","target":"_blank"}}
  }')")
[ -n "$NOTIFICATION" ] || fail "no id in the answer"
echo "notification $NOTIFICATION"

STEP="fetch the notifications as a client"
FEED=$(call "$BASE/public/$KEY/notifications")
echo "$FEED"
grep -qF "\"id\":\"$NOTIFICATION\"" <<<"$FEED" || fail "the notification is not in the feed"

STEP="record an impression"
call -X POST "$BASE/public/track/$NOTIFICATION" -H "$JSON" -d '{"type":"impression"}'
STEP="record a click"
call -X POST "$BASE/public/track/$NOTIFICATION" -H "$JSON" -d '{"type":"click"}'

STEP="read the stats"
STATS=$(call "$BASE/admin/notifications/$NOTIFICATION/stats" -H "$AUTH")
echo "$STATS"
grep -q '"impression":1,"click":1' <<<"$STATS" || fail "the stats do not show one impression and one click"

if [ -n "${HERALD_URL:-}" ]; then
    echo "All steps passed."
else
    STEP="sign in to the console"
    CONSOLE=${BASE%/api/v1}/console/
    call "$CONSOLE" > /dev/null
    call -X POST "$BASE/admin/session" -H "$JSON" -d '{"name":"dev","token":"dev-console-token"}' > /dev/null
    echo "All steps passed. Now open $CONSOLE and sign in as dev with the token dev-console-token:"
    echo "project $PROJECT, its key, the notification and its numbers are there. Stop Herald with: kill \$(cat herald.pid)"
fi
