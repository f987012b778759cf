#!/usr/bin/env bash
# The outside review of issue 29, as its findings were reproduced: each finding checked from outside against a
# runtime image (jlink/build.sh) on MariaDB at 127.0.0.1:3306, as an operator runs it. Prints one line per check;
# docs/security.md says what each line must read. About 80 s (a minute of it waits out the failures window).
#   tools/review29/run.sh target/herald-image after
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
IMAGE=$(cd "$1" && pwd) LABEL=$2
PORT=19290; OBS=19291
DB=herald_r29_$LABEL
WORK=/tmp/r29-$LABEL; rm -rf $WORK; mkdir -p $WORK; cd $WORK
mariadb -h127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
ALICE_TOKEN=alice-$(head -c 24 /dev/urandom | base64 | tr -dc a-zA-Z0-9)
VIC_TOKEN=vic-$(head -c 24 /dev/urandom | base64 | tr -dc a-zA-Z0-9)
sha() { printf '%s' "$1" | sha256sum | cut -c1-64; }
export ALICE_TOKEN VIC_TOKEN
config() {  # config ALICE_SHA
cat > herald.yaml <<YAML
server: {port: $PORT, host: 127.0.0.1}
observe: {port: $OBS}
db:
  connection: {url: "jdbc:mariadb://127.0.0.1:3306/$DB", username: root, password: ""}
admin:
  tokens: ["r29-admin-token-0123456789abcdefghijklmnop"]
  accounts:
    - {name: alice, role: editor, token-sha256: "$1"}
    - {name: vic, role: viewer, token-sha256: "$(sha $VIC_TOKEN)"}
YAML
}
start() {
  "$IMAGE/bin/herald" herald.yaml > herald.log 2>&1 &
  PID=$!
  for _ in $(seq 120); do grep -q 'Herald listening' herald.log && return; kill -0 $PID 2>/dev/null || break; sleep 0.5; done
  echo "did not start:"; tail -5 herald.log; exit 1
}
stop() { kill $PID; wait $PID 2>/dev/null; }
py() { python3 "$HERE/checks.py" $PORT "$@"; }
q() { mariadb -h127.0.0.1 -uroot -N $DB -e "$1"; }
echo "== $LABEL: $IMAGE"
config "$(sha $ALICE_TOKEN)"; start
py 1; py 4; py 5
py 3a; stop
NEW=alice-new-$(head -c 16 /dev/urandom | base64 | tr -dc a-zA-Z0-9)
config "$(sha $NEW)"; start; WHAT="alice's token was replaced and Herald restarted" py 3b; stop
config "$(sha $ALICE_TOKEN)"; start; WHAT="alice was given her old token back" py 3b
py 7
sleep 61  # the failure window
before=$(q "SELECT COUNT(*) FROM admin_sessions")
py 8
after=$(q "SELECT COUNT(*) FROM admin_sessions")
echo "F8 sessions rows: $before before, $after after"
q "EXPLAIN SELECT * FROM admin_sessions WHERE last_seen_at < 1 OR created_at < 1" | head -2 | sed 's/^/F8 explain clean-up: /'
sel0=$(q "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
py 9
sel1=$(q "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
echo "F9 SELECTs on the server during the flood and the reads: $((sel1 - sel0))"
curl -s -o /dev/null -w "F9 readiness after: %{http_code}\n" http://127.0.0.1:$OBS/observe/health/ready
grep -c ' 500 \|INTERNAL' herald.log | sed 's/^/F9 log lines with 500: /'
stop
