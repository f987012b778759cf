#!/usr/bin/env bash
# A rolling upgrade on one MariaDB database, from outside (issue 33, point 3; docs/operations.md#upgrades-and-rolling-back):
# two instances of an older Herald serve feed reads and tracking POSTs; an instance of this build starts beside them
# and migrates the schema while they serve; then each old instance is taken out of the clients' list, stopped
# (SIGTERM) and replaced by one of this build. Checks: no answer other than 200, 204 or 304 through the whole upgrade,
# every acknowledged interaction stored exactly once, daily totals equal to the rows. Then a rollback under the same
# load: one new instance stopped and the old jar started on the upgraded schema, and what it does is printed.
#   mvn -q package -DskipTests && tools/rolling-upgrade.sh
# Needs MariaDB on 127.0.0.1:3306 (root, empty password), git history back to OLD_COMMIT, python3 and curl. Uses a block
# of twenty ports free at its start, from 19200 up (BASE+1..+9 public, BASE+11..+19 operations), a database of its own
# that it drops, and a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 javac

# The last commit at schema version 20, before migrations 21 and 22 (languages) and 23 (compatible_from): the
# upgrade runs 20 -> the newest. It predates the refusal of a newer schema (commit f7a801f) too.
OLD_COMMIT=b61436c
TOKEN=rolling-upgrade-admin-token-0123456789abcdef
DATABASE=herald_rolling_$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/herald-rolling.XXXXXX")
PIDS=()
declare -A PID=()

log() { printf '[rolling-upgrade] %s\n' "$*"; }
fail() { printf '[rolling-upgrade] FAILED: %s\n' "$*" >&2; exit 1; }
sql() { mariadb --protocol=tcp -h127.0.0.1 -P3306 -uroot -N -B "$@"; }

cleanup() {
    touch "$WORK/stop"
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    sql -e "DROP DATABASE IF EXISTS $DATABASE" || true
    rm -rf "$WORK"
}
trap cleanup EXIT

[ -f target/herald.jar ] || fail "target/herald.jar is missing: run mvn -q package -DskipTests first"
mariadb-admin --protocol=tcp -h127.0.0.1 -P3306 -uroot ping >/dev/null || fail "no MariaDB on 127.0.0.1:3306"

# The jars side by side, copied: a rebuild must not change the classes under a running instance.
mkdir -p "$WORK/new" "$WORK/old-src"
cp -r target/herald.jar target/libs "$WORK/new/"
# The clients all come from 127.0.0.1: a rate limit they never reach.
sed 's/^  requests: 1000$/  requests: 100000000/' config/prod.yaml > "$WORK/new/prod.yaml"
git cat-file -e "$OLD_COMMIT^{commit}" 2>/dev/null \
    || fail "commit $OLD_COMMIT is not in this clone (a shallow one?): git fetch --unshallow"
log "building the jar of $OLD_COMMIT ($(git log -1 --format=%s "$OLD_COMMIT" | cut -c1-70)...)"
git archive "$OLD_COMMIT" | tar -x -C "$WORK/old-src"
started=$SECONDS
# maven.test.skip: not even the tests compiled, the build's slowest half. Offline first: the local repository
# usually holds what an older build needs.
(cd "$WORK/old-src" && { mvn -B -o -q -Dmaven.test.skip=true package || mvn -B -q -Dmaven.test.skip=true package; } \
    > "$WORK/old-build.log" 2>&1) \
    || fail "the old jar did not build: $(tail -5 "$WORK/old-build.log")"
mkdir -p "$WORK/old"
cp -r "$WORK/old-src/target/herald.jar" "$WORK/old-src/target/libs" "$WORK/old/"
sed 's/^  requests: 1000$/  requests: 100000000/' "$WORK/old-src/config/prod.yaml" > "$WORK/old/prod.yaml"
for yaml in "$WORK/old/prod.yaml" "$WORK/new/prod.yaml"; do
    grep -q '^  requests: 100000000$' "$yaml" || fail "no rate-limit.requests of 1000 in $yaml to raise"
done
log "built in $((SECONDS - started)) s"

sql -e "CREATE DATABASE $DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

# Twenty ports in a row that are free now: on a shared machine a fixed block was taken by another user's Herald.
BASE=$(python3 - <<'PY'
import socket
for base in range(19200, 29000, 20):
    held = []
    try:
        for port in range(base, base + 20):
            s = socket.socket()
            held.append(s)
            s.bind(("127.0.0.1", port))
        print(base)
        break
    except OSError:
        pass
    finally:
        for s in held:
            s.close()
PY
)
[ -n "$BASE" ] || fail "no block of twenty free ports from 19200 to 29000"
log "ports $((BASE + 1))-$((BASE + 9)) (public) and $((BASE + 11))-$((BASE + 19)) (operations)"

# start_herald NAME old|new N: the instance on ports BASE+N (API) and BASE+10+N (operations), its log in $WORK/NAME.log.
start_herald() {
    local name=$1 jar=$2 n=$3
    (cd "$WORK/$jar" && exec env SERVER_PORT=$((BASE + n)) OBSERVE_PORT=$((BASE + 10 + n)) \
        DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DATABASE" DB_CONNECTION_USERNAME=root \
        DB_CONNECTION_PASSWORD= ADMIN_TOKENS=$TOKEN \
        java -jar herald.jar prod.yaml > "$WORK/$name.log" 2>&1) &
    PIDS+=($!)
    PID[$name]=$!
}

# wait_ready NAME N: until its readiness answers 200; fails if it ends first.
wait_ready() {
    local name=$1 n=$2 pid=${PID[$1]}
    for _ in $(seq 1 240); do
        curl -s -o /dev/null -f "http://127.0.0.1:$((BASE + 10 + n))/observe/health/ready" && return 0
        kill -0 "$pid" 2>/dev/null || fail "$name ended: $(grep -E 'SEVERE|ERROR|did not start' "$WORK/$name.log" | tail -1)"
        sleep 0.25
    done
    fail "$name not ready within 60 s"
}

# The clients' list of instances, read by the load several times a second: a balancer's pool.
serve() { printf '%s\n' "$@" > "$WORK/live.tmp" && mv "$WORK/live.tmp" "$WORK/live"; }

# stop_herald NAME N: out of the clients' list first, then SIGTERM once the requests in flight are answered.
stop_herald() {
    local n=$2 pid=${PID[$1]}
    serve $(grep -vx "$((BASE + n))" "$WORK/live")
    sleep 1
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
}

log "two instances of $OLD_COMMIT on the empty database $DATABASE"
start_herald old1 old 1
start_herald old2 old 2
wait_ready old1 1
wait_ready old2 2
log "schema at version $(sql "$DATABASE" -e 'SELECT MAX(version) FROM schema_migrations')"

admin() { curl -sS -f -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$@"; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
project=$(admin -d '{"name":"Rolling upgrade"}' http://127.0.0.1:$((BASE + 1))/api/v1/admin/projects | json '["id"]')
key=$(admin -X POST "http://127.0.0.1:$((BASE + 1))/api/v1/admin/projects/$project/api-keys" | json '["key"]')
notification=$(admin -d '{"message":"Served through the upgrade","status":"PUBLISHED"}' \
    "http://127.0.0.1:$((BASE + 1))/api/v1/admin/projects/$project/notifications" | json '["id"]')

# Four clients, each a feed read then an interaction with a metadata id of its own, on the next instance of the list;
# every answer counted, every acknowledged (204) id kept.
serve $((BASE + 1)) $((BASE + 2))
python3 - "$WORK" "$key" "$notification" > "$WORK/load.out" 2>&1 <<'PY' &
import collections, http.client, json, os, sys, threading, time
work, key, notification = sys.argv[1:4]
live, counts, acked, lock = open(work + "/live").read().split(), collections.Counter(), [], threading.Lock()

def follow():
    global live
    while not os.path.exists(work + "/stop"):
        with open(work + "/live") as f:
            live = f.read().split() or live
        time.sleep(0.05)

def request(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
    try:
        connection.request(method, path, body, {"Content-Type": "application/json"} if body else {})
        answer = connection.getresponse()
        answer.read()
        return str(answer.status)
    except OSError as e:
        return type(e).__name__
    finally:
        connection.close()

def client(c):
    i = 0
    while not os.path.exists(work + "/stop"):
        i += 1
        ports = live
        port = ports[i % len(ports)]
        status = request(port, "GET", f"/api/v1/public/{key}/notifications")
        with lock:
            counts["feed " + status] += 1
        n = f"{c}-{i}"
        status = request(port, "POST", f"/api/v1/public/track/{notification}/enhanced",
                         json.dumps({"type": "click", "metadata": {"n": n}}))
        with lock:
            counts["track " + status] += 1
            if status == "204":
                acked.append(n)

threading.Thread(target=follow, daemon=True).start()
clients = [threading.Thread(target=client, args=(c,)) for c in range(4)]
for t in clients: t.start()
for t in clients: t.join()
with open(work + "/acked", "w") as f:
    f.write("\n".join(acked) + "\n")
print(json.dumps(dict(sorted(counts.items()))))
PY
LOAD=$!
PIDS+=($LOAD)
sleep 2

log "a new instance starts beside them and migrates while they serve"
start_herald new3 new 3
wait_ready new3 3
grep -h "schema migration" "$WORK/new3.log" | sed 's/^/    /' | cut -c1-160
serve $((BASE + 1)) $((BASE + 2)) $((BASE + 3))
sleep 2
log "old1 replaced by new4"
stop_herald old1 1
start_herald new4 new 4
wait_ready new4 4
serve $(cat "$WORK/live") $((BASE + 4))
sleep 2
log "old2 replaced by new5"
stop_herald old2 2
start_herald new5 new 5
wait_ready new5 5
serve $(cat "$WORK/live") $((BASE + 5))
sleep 2

log "rollback: new3 stopped, the jar of $OLD_COMMIT started on the schema at version $(sql "$DATABASE" -e 'SELECT MAX(version) FROM schema_migrations')"
stop_herald new3 3
start_herald old6 old 6
wait_ready old6 6
serve $(cat "$WORK/live") $((BASE + 6))
sleep 2
log "what the old jar logged at its start (it predates the check of a newer schema):"
grep " dev.herald" "$WORK/old6.log" | head -8 | cut -c1-200 | sed 's/^/    /'
grep -qi "schema" "$WORK/old6.log" || log "not a word of the schema: it found its 20 migrations applied and served"
old6_served=$(curl -s http://127.0.0.1:$((BASE + 16))/observe/metrics | sed -n 's/^herald_tracking_written_total \(.*\)/\1/p')

touch "$WORK/stop"
wait "$LOAD" || fail "the load ended badly: $(tail -3 "$WORK/load.out")"
counts=$(tail -1 "$WORK/load.out")
log "answers through the upgrade and the rollback: $counts"
python3 -c "import json,sys; c=json.loads(sys.argv[1]); bad={k:v for k,v in c.items() if k.split()[1] not in ('200','204','304')}; sys.exit(1 if bad else 0)" "$counts" \
    || fail "answers other than 200, 204 or 304: $counts"

acked=$(grep -c . "$WORK/acked" || true)
stored=$(sql "$DATABASE" -e "SELECT COUNT(*) FROM interactions WHERE notification_id = '$notification'")
twice=$(sql "$DATABASE" -e "SELECT COUNT(*) FROM (SELECT metadata FROM interactions WHERE notification_id = '$notification' GROUP BY metadata HAVING COUNT(*) > 1) AS t")
sql "$DATABASE" -e "SELECT JSON_VALUE(metadata, '$.n') FROM interactions WHERE notification_id = '$notification'" | sort > "$WORK/stored"
missing=$(sort "$WORK/acked" | comm -23 - "$WORK/stored" | grep -c . || true)
totals=$(sql "$DATABASE" -e "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = '$notification'")
[ "$acked" -gt 0 ] || fail "no interaction was acknowledged"
[ "$missing" = 0 ] || fail "$missing of $acked acknowledged interactions not stored"
[ "$twice" = 0 ] || fail "$twice interactions stored more than once"
[ "$stored" = "$acked" ] || fail "$acked acknowledged, $stored stored"
[ "$totals" = "$stored" ] || fail "daily totals of $totals for $stored interactions"
log "$acked interactions acknowledged, each stored once; daily totals $totals; the old jar after the rollback wrote ${old6_served:-?} of them"
log "interactions in no language (written by the old instances, which know no locale column): $(sql "$DATABASE" -e "SELECT COUNT(*) FROM interactions WHERE locale IS NULL")"
log "schema_migrations: $(sql "$DATABASE" -e "SELECT GROUP_CONCAT(CONCAT(version, ':', COALESCE(compatible_from, '-')) ORDER BY version) FROM schema_migrations WHERE version > 19")"
