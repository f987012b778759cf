#!/usr/bin/env bash
# Starts the local Galera cluster afresh (cluster/run.sh: three nodes, three Herald instances started at the same
# moment on an empty database, nginx) and checks what must hold on it (issue 21), then stops it:
# - every instance started; exactly one applied the migrations, the others waited for it; the schema is the same
#   on every node and the migration lock was released;
# - a management write through one instance is read at once through each of the others;
# - interactions tracked through nginx (each client address hashed to one instance) are each stored once, on every
#   node, with daily totals equal to the rows;
# - management writes through the three instances at the same moment: none answers 500;
# - the per-client rate limit is exact through nginx: one address gets exactly its 1,000 requests a minute;
# - a rolling restart under tracking load (each instance out of nginx, restarted, back in: an upgrade) loses and
#   refuses nothing; it leaves each instance writing through a node of its own (FIRST_NODE), as after a failover;
# - so, with writers on three nodes: bursts of management writes through the three instances while tracking runs
#   through all three never answer 500 (certification conflicts), daily totals still equal the rows, a write
#   through one node is read at once through the others, and reaches their public feed within feed.max-staleness;
# - meanwhile a webhook endpoint hears of it all: the three instances' delivery workers, each claiming through its own
#   node, deliver each event once and every click once (issue 35);
# - per-user state written for the same users through the three instances at once: every write 204, one row per
#   user and notification with the first instant of each state, the same rows on every node.
# - an interaction sent again with its event id through the three instances, each on its own node, at once: every
#   answer 204, each id stored once (docs/api.md, Retrying a tracking request).
# - a backup of one node (mariadb-dump --single-transaction of node 3) while interactions arrive through all three
#   instances: none refused; restored into the single server, its daily totals equal its rows and it holds all node 3
#   held before (docs/operations.md#galera).
# A node killed under load: cluster/faults.sh.
# Exit 1 with a line in capitals on the first that does not hold. Needs what cluster/run.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."
NAME=check
# shellcheck source=cluster/common.sh
. cluster/common.sh
bash cluster/run.sh up

applied=0
for n in 1 2 3; do
    count=$(grep -c 'Applied schema migration' "$CLUSTER_DIR/herald$n/herald.log" || true)
    [ "$count" = 0 ] || applied=$((applied + 1))
done
[ "$applied" = 1 ] || fail "MIGRATIONS RAN ON $applied INSTANCES, NOT ONE"
# As many as the source declares: a new migration needs no edit here.
migrations=$(grep -c 'new Migration(' src/main/java/dev/herald/storage/Migrations.java)
for port in 13307 13308 13309; do
    [ "$(sql "$port" 'SELECT COUNT(*) FROM schema_migrations')" = "$migrations" ] \
        || fail "NODE $port DOES NOT HAVE THE $migrations MIGRATIONS"
    [ "$(sql "$port" 'SELECT COUNT(*) FROM schema_lock')" = 0 ] || fail "THE MIGRATION LOCK WAS NOT RELEASED ($port)"
    sql "$port" "SELECT table_name, column_name, column_type FROM information_schema.columns WHERE table_schema = 'herald' ORDER BY 1, 2" > "$CLUSTER_DIR/schema.$port"
done
cmp -s "$CLUSTER_DIR/schema.13307" "$CLUSTER_DIR/schema.13308" && cmp -s "$CLUSTER_DIR/schema.13307" "$CLUSTER_DIR/schema.13309" \
    || fail "THE SCHEMA DIFFERS BETWEEN NODES"
log "one instance migrated, the others waited; the schema is the same on the three nodes"

project=$(admin -d '{"name":"cluster"}' http://127.0.0.1:18091/api/v1/admin/projects | json '["id"]')
key=$(admin -d '{}' "http://127.0.0.1:18092/api/v1/admin/projects/$project/api-keys" | json '["key"]')
notification=$(admin -d '{"message":"on three nodes","status":"PUBLISHED"}' \
    "http://127.0.0.1:18093/api/v1/admin/projects/$project/notifications" | json '["id"]')
for port in 18091 18092 18093; do
    [ "$(admin -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/admin/notifications/$notification")" = 200 ] \
        || fail "A WRITE WAS NOT READ AT ONCE THROUGH $port"
done
log "writes through each instance were read at once through the others"

clients=20
per_client=50
for c in $(seq 1 $clients); do
    for _ in $(seq 1 $per_client); do
        curl -s -o /dev/null -w '%{http_code}\n' --interface "127.0.3.$c" -X POST -H 'Content-Type: application/json' \
            -d '{"type":"click"}' "http://127.0.0.1:18090/api/v1/public/track/$notification"
    done &
done > "$CLUSTER_DIR/statuses"
wait
answered=$(grep -c '^204$' "$CLUSTER_DIR/statuses" || true)
[ "$answered" = $((clients * per_client)) ] || fail "ONLY $answered OF $((clients * per_client)) INTERACTIONS ANSWERED 204: $(sort "$CLUSTER_DIR/statuses" | uniq -c | tr '\n' ' ')"
for port in 13307 13308 13309; do
    stored=$(sql "$port" "SELECT COUNT(*) FROM interactions WHERE notification_id = '$notification'")
    totals=$(sql "$port" "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = '$notification'")
    [ "$stored" = "$answered" ] || fail "NODE $port STORED $stored INTERACTIONS FOR $answered ANSWERED 204"
    [ "$totals" = "$answered" ] || fail "NODE $port HAS DAILY TOTALS OF $totals FOR $answered INTERACTIONS"
done
served=$(for n in 1 2 3; do curl -s "http://127.0.0.1:1819$n/observe/metrics" \
    | sed -n 's/^herald_tracking_written_total \(.*\)/\1/p'; done | tr '\n' ' ')
log "$answered interactions through nginx from $clients addresses, each stored once on every node; written per instance: $served"
# Management writes through the three instances at once: a certification conflict would surface as a 500.
for port in 18091 18092 18093; do
    for i in $(seq 1 10); do
        admin -o /dev/null -w '%{http_code}\n' -d "{\"message\":\"at once $i\"}" \
            "http://127.0.0.1:$port/api/v1/admin/projects/$project/notifications" &
    done
done > "$CLUSTER_DIR/writes"
wait
[ "$(grep -c '^201$' "$CLUSTER_DIR/writes")" = 30 ] || fail "CONCURRENT MANAGEMENT WRITES: $(sort "$CLUSTER_DIR/writes" | uniq -c | tr '\n' ' ')"
log "30 management writes through the three instances at once: all 201"

# The rate limit through the balancer: 1,010 requests from one new address, 1,000 served and 10 refused.
for _ in $(seq 1 1010); do
    curl -s -o /dev/null -w '%{http_code}\n' --interface 127.0.4.1 "http://127.0.0.1:18090/api/v1/public/$key/notifications"
done > "$CLUSTER_DIR/limited"
[ "$(grep -c '^200$' "$CLUSTER_DIR/limited")" = 1000 ] && [ "$(grep -c '^429$' "$CLUSTER_DIR/limited")" = 10 ] \
    || fail "THE RATE LIMIT THROUGH NGINX IS NOT EXACT: $(sort "$CLUSTER_DIR/limited" | uniq -c | tr '\n' ' ')"
log "one address through nginx: exactly 1,000 requests served in the minute, the 10 after them 429"

# A rolling restart under load, which also leaves each instance writing through its own node.
before=$(sql 13307 "SELECT COUNT(*) FROM interactions WHERE notification_id = '$notification'")
for c in $(seq 1 $clients); do
    for _ in $(seq 1 150); do
        curl -s -o /dev/null -w '%{http_code}\n' --interface "127.0.3.$c" -X POST -H 'Content-Type: application/json' \
            -d '{"type":"impression"}' "http://127.0.0.1:18090/api/v1/public/track/$notification"
    done &
done > "$CLUSTER_DIR/rolling"
for n in 1 2 3; do FIRST_NODE=$n bash cluster/run.sh restart-herald $n > /dev/null; done
wait
answered=$(grep -c '^204$' "$CLUSTER_DIR/rolling" || true)
stored=$(( $(sql 13307 "SELECT COUNT(*) FROM interactions WHERE notification_id = '$notification'") - before ))
[ "$answered" = $((clients * 150)) ] || fail "A ROLLING RESTART REFUSED REQUESTS: $(sort "$CLUSTER_DIR/rolling" | uniq -c | tr '\n' ' ')"
[ "$stored" = "$answered" ] || fail "A ROLLING RESTART: $answered ANSWERED 204, $stored STORED"
log "rolling restart of the three instances under load: $answered of $answered answered 204 and stored"

# Writers on three nodes: Galera certifies each commit, and one of two that changed the same row fails.
# A webhook endpoint hears of it all (issue 35): the three instances' delivery workers, each on its own node, claim
# from one outbox; each event must reach the receiver once (bench/webhook-receiver.py counts deliveries and ids).
# Started from a subshell, so that the step's `wait` for its clients does not wait for the receiver too.
(python3 bench/webhook-receiver.py 18096 > "$CLUSTER_DIR/receiver.log" 2>&1 & echo $! > "$CLUSTER_DIR/receiver.pid")
trap 'kill "$(cat "$CLUSTER_DIR/receiver.pid")" 2> /dev/null; bash cluster/run.sh down > /dev/null 2>&1 || true' EXIT
for _ in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:18096/stats && break; sleep 0.1; done
endpoint=$(admin -d '{"url":"http://127.0.0.1:18096/hook","eventTypes":["notification.created","interaction.click"]}' \
    "http://127.0.0.1:18092/api/v1/admin/projects/$project/webhooks" | json '["id"]')
[ -n "$endpoint" ] || fail "NO WEBHOOK ENDPOINT"
hot=$(admin -d '{"message":"hot","status":"PUBLISHED"}' "http://127.0.0.1:18091/api/v1/admin/projects/$project/notifications" | json '["id"]')
# 30 clients of 50 clicks each, spread over the three instances: one curl making them 30 at a time, not 1,500
# processes, whose start-up took the two cores from the cluster it was meant to load (the management writes then
# waited more than 10 s on a machine slower to fork, before issue 31's changes as after them).
for _ in $(seq 1 50); do
    for c in $(seq 1 30); do
        printf 'next\nurl = "http://127.0.0.1:1809%d/api/v1/public/track/%s"\nheader = "Content-Type: application/json"\n' \
            $((c % 3 + 1)) "$hot"
        printf 'header = "X-Forwarded-For: 10.9.%d.1"\ndata = "{\\"type\\":\\"click\\"}"\noutput = /dev/null\n' "$c"
        printf 'write-out = "track %%{http_code}\\n"\n'
    done
done | tail -n +2 > "$CLUSTER_DIR/clicks.curl"
curl -s --parallel --parallel-max 30 -K "$CLUSTER_DIR/clicks.curl" > "$CLUSTER_DIR/conflicts" 2> "$CLUSTER_DIR/clicks.err" &
for burst in 1 2 3; do
    for i in $(seq 1 30); do
        admin -o /dev/null -w 'admin %{http_code} %{time_total}\n' -d "{\"message\":\"burst $burst $i\"}" \
            "http://127.0.0.1:1809$((i % 3 + 1))/api/v1/admin/projects/$project/notifications" &
    done
    sleep 2
done > "$CLUSTER_DIR/bursts"
wait
[ "$(grep -c '^admin 201' "$CLUSTER_DIR/bursts")" = 90 ] && [ "$(grep -c '^track 204$' "$CLUSTER_DIR/conflicts")" = 1500 ] \
    || fail "WRITERS ON THREE NODES: $(cut -d' ' -f1,2 "$CLUSTER_DIR/conflicts" "$CLUSTER_DIR/bursts" | sort | uniq -c | tr '\n' ' ')"
slowest=$(cut -d' ' -f3 "$CLUSTER_DIR/bursts" | sort -n | tail -1)
for port in 13307 13308 13309; do
    stored=$(sql "$port" "SELECT COUNT(*) FROM interactions WHERE notification_id = '$hot'")
    totals=$(sql "$port" "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = '$hot'")
    [ "$stored" = 1500 ] && [ "$totals" = 1500 ] || fail "WRITERS ON THREE NODES: NODE $port HAS $stored ROWS, TOTALS $totals, FOR 1500"
done
conflicts=$(for port in 13307 13308 13309; do sql "$port" "SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'" | cut -f2; done | awk '{ s += $1 } END { print s }')
log "writers on three nodes: 90 management writes in bursts of 30 all 201 (slowest ${slowest} s), 1,500 interactions all 204 and stored once; $conflicts certification failures retried"
receiver() { curl -s http://127.0.0.1:18096/stats | json "[\"$1\"]"; }
for _ in $(seq 1 90); do
    [ "$(receiver interactions)" -ge 1500 ] && [ "$(receiver distinctIds)" -ge 91 ] && break
    sleep 1
done
sleep 3 # a delivery sent twice would arrive by now: the lease is 30 s, but a second claim is a race, not a wait
[ "$(receiver interactions)" = 1500 ] || fail "WEBHOOKS ON THREE NODES: THE RECEIVER GOT $(receiver interactions) INTERACTIONS, NOT 1,500 ONCE EACH"
[ "$(receiver deliveries)" = "$(receiver distinctIds)" ] \
    || fail "WEBHOOKS ON THREE NODES: $(receiver deliveries) DELIVERIES OF $(receiver distinctIds) EVENTS: SOME SENT TWICE"
[ "$(receiver distinctIds)" -ge 91 ] || fail "WEBHOOKS ON THREE NODES: $(receiver distinctIds) EVENTS, NOT THE 91 NOTIFICATIONS CREATED AND THEIR CLICKS"
sent=$(for n in 1 2 3; do curl -s "http://127.0.0.1:1819$n/observe/metrics" \
    | sed -n 's/^herald_webhook_deliveries_total \(.*\)/\1/p'; done | tr '\n' ' ')
log "webhooks on three nodes: $(receiver distinctIds) events (91 notifications created, 1,500 clicks in events) each delivered once; sent per instance: $sent"

# Per-user state written for the same users through the three instances, each on its own node, at once (issue 31):
# the first instant of each state kept, one row per user and notification, the same rows on every node, no 500.
signing=$(admin -d '{"algorithm":"HS256"}' "http://127.0.0.1:18091/api/v1/admin/projects/$project/token-keys")
kid=$(json '["kid"]' <<< "$signing")
secret=$(json '["secret"]' <<< "$signing")
# HS256 with the standard library alone: the cluster needs no JOSE package.
python3 - "$kid" "$secret" "$project" > "$CLUSTER_DIR/user-tokens" <<'PY'
import base64, hashlib, hmac, json, sys, time
kid, secret, project = sys.argv[1:4]
key = base64.urlsafe_b64decode(secret + '=' * (-len(secret) % 4))
part = lambda value: base64.urlsafe_b64encode(json.dumps(value, separators=(',', ':')).encode()).rstrip(b'=').decode()
now = int(time.time())
for user in range(10):
    signing_input = part({"alg": "HS256", "kid": kid}) + '.' + part(
        {"sub": "cluster-user-%d" % user, "aud": project, "iat": now, "exp": now + 3600})
    signature = hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    print(signing_input + '.' + base64.urlsafe_b64encode(signature).rstrip(b'=').decode())
PY
state() {
    curl -s -o /dev/null -w 'state %{http_code}\n' -X POST -H 'Content-Type: application/json' \
        -H "Authorization: Bearer $1" -d "$3" "http://127.0.0.1:$2/api/v1/public/$key/users/me/$4"
}
while read -r user_token; do
    for port in 18091 18092 18093; do
        {
            state "$user_token" $port "{\"notificationId\":\"$notification\",\"state\":\"seen\"}" state
            state "$user_token" $port "{\"events\":[{\"notificationId\":\"$hot\",\"state\":\"read\"},{\"notificationId\":\"$notification\",\"state\":\"dismissed\"}]}" state
            state "$user_token" $port "{\"ids\":[\"$notification\",\"$hot\"]}" read-all
        } &
    done
done < "$CLUSTER_DIR/user-tokens" > "$CLUSTER_DIR/states"
wait
[ "$(grep -c '^state 204$' "$CLUSTER_DIR/states")" = 90 ] \
    || fail "USER STATE ON THREE NODES: $(sort "$CLUSTER_DIR/states" | uniq -c | tr '\n' ' ')"
for port in 13307 13308 13309; do
    sql "$port" "SELECT user_key, notification_id, seen_at, read_at, dismissed_at, archived_at FROM user_notification_states
                 WHERE project_id = '$project' ORDER BY 1, 2" > "$CLUSTER_DIR/states.$port"
    [ "$(wc -l < "$CLUSTER_DIR/states.$port")" = 20 ] \
        || fail "USER STATE ON THREE NODES: NODE $port HAS $(wc -l < "$CLUSTER_DIR/states.$port") ROWS FOR 10 USERS AND 2 NOTIFICATIONS"
    [ "$(awk -F'\t' -v n="$notification" '$3 == "NULL" || $4 == "NULL" || ($2 == n) != ($5 != "NULL")' \
          "$CLUSTER_DIR/states.$port" | wc -l)" = 0 ] \
        || fail "USER STATE ON THREE NODES: NODE $port HAS A ROW NOT SEEN, NOT READ, OR DISMISSED WRONGLY"
done
cmp -s "$CLUSTER_DIR/states.13307" "$CLUSTER_DIR/states.13308" && cmp -s "$CLUSTER_DIR/states.13307" "$CLUSTER_DIR/states.13309" \
    || fail "USER STATE ON THREE NODES: THE ROWS DIFFER BETWEEN NODES"
first=$(head -n 1 "$CLUSTER_DIR/user-tokens")
summaries=$(for port in 18091 18092 18093; do
    curl -s -H "Authorization: Bearer $first" "http://127.0.0.1:$port/api/v1/public/$key/users/me/state" | md5sum
done | sort -u | wc -l)
[ "$summaries" = 1 ] || fail "USER STATE ON THREE NODES: THE INSTANCES ANSWER $summaries DIFFERENT STATES FOR ONE USER"
log "per-user state: 90 writes for 10 users through three nodes at once all 204; 20 rows, the same on every node, each seen and read; one answer from every instance"

# A client that sends an interaction again through a balancer may reach another instance, writing through another
# node: each of 100 event ids sent through the three instances at the same moment (with and without a tag, through
# both endpoints), and again a second later. Two nodes inserting the same id certify one transaction and fail the
# other whole, batch and all; it must be written again without the repeat: every answer 204, each id stored once.
retried=$(admin -d '{"message":"sent again","status":"PUBLISHED"}' \
    "http://127.0.0.1:18091/api/v1/admin/projects/$project/notifications" | json '["id"]')
for round in 1 2; do
    for i in $(seq 1 100); do
        for port in 18091 18092 18093; do
            if [ $((i % 2)) = 0 ]; then
                path=$retried; body="{\\\"type\\\":\\\"click\\\",\\\"eventId\\\":\\\"galera-$i\\\"}"
            else
                path=$retried/enhanced
                body="{\\\"type\\\":\\\"conversion\\\",\\\"eventId\\\":\\\"galera-$i\\\",\\\"metadata\\\":{\\\"n\\\":$i}}"
            fi
            printf 'next\nurl = "http://127.0.0.1:%d/api/v1/public/track/%s"\nheader = "Content-Type: application/json"\n' \
                "$port" "$path"
            printf 'header = "X-Forwarded-For: 10.8.%d.%d"\ndata = "%s"\noutput = /dev/null\n' "$i" "$round" "$body"
            printf 'write-out = "track %%{http_code}\\n"\n'
        done
    done | tail -n +2 > "$CLUSTER_DIR/retried.curl"
    curl -s --parallel --parallel-max 30 -K "$CLUSTER_DIR/retried.curl" >> "$CLUSTER_DIR/retried" 2>> "$CLUSTER_DIR/retried.err"
    sleep 1
done
[ "$(grep -c '^track 204$' "$CLUSTER_DIR/retried")" = 600 ] \
    || fail "EVENT IDS ON THREE NODES: $(sort "$CLUSTER_DIR/retried" | uniq -c | tr '\n' ' ')"
for port in 13307 13308 13309; do
    stored=$(sql "$port" "SELECT COUNT(*) FROM interactions WHERE notification_id = '$retried'")
    totals=$(sql "$port" "SELECT COALESCE(SUM(total), 0) FROM interaction_daily_totals WHERE notification_id = '$retried'")
    ids=$(sql "$port" "SELECT COUNT(*) FROM interaction_event_ids WHERE project_id = '$project' AND event_id LIKE 'galera-%'")
    [ "$stored" = 100 ] && [ "$totals" = 100 ] && [ "$ids" = 100 ] \
        || fail "EVENT IDS ON THREE NODES: NODE $port HAS $stored ROWS, TOTALS $totals AND $ids IDS FOR 100 IDS SENT SIX TIMES"
done
log "event ids on three nodes: 100 ids each sent through the three instances at once, twice: 600 answers 204, 100 interactions stored once on every node"

# Read-your-writes across nodes (wsrep_sync_wait), and the public feed of the other instances within its bound.
fresh=$(admin -d '{"message":"just now","status":"PUBLISHED"}' "http://127.0.0.1:18091/api/v1/admin/projects/$project/notifications" | json '["id"]')
written_at=$(date +%s%N)
for port in 18092 18093; do
    [ "$(admin -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/admin/notifications/$fresh")" = 200 ] \
        || fail "A WRITE THROUGH NODE 1 WAS NOT READ AT ONCE THROUGH $port"
done
for port in 18092 18093; do
    until curl -s "http://127.0.0.1:$port/api/v1/public/$key/notifications" | grep -qF -e "$fresh"; do
        [ $(( ($(date +%s%N) - written_at) / 1000000 )) -lt 2000 ] || fail "THE FEED OF $port DID NOT SHOW A WRITE THROUGH NODE 1 WITHIN 2 S"
        sleep 0.02
    done
done
log "a write through node 1 was read at once through nodes 2 and 3, and in their feeds after $(( ($(date +%s%N) - written_at) / 1000000 )) ms (feed.max-staleness 1 s)"


# A backup from one node while writes go on (docs/operations.md#galera): mariadb-dump --single-transaction of node 3
# while interactions arrive through nginx at all three instances, restored by tools/restore.sh into a fresh database
# of the single server on 127.0.0.1:3306. Its daily totals equal its rows (one snapshot), it holds every interaction
# node 3 held before the dump began, and no interaction was refused meanwhile.
restored=herald_galera_backup_$$
before=$(sql 13309 "SELECT COUNT(*) FROM interactions")
for c in 1 2 3; do
    for _ in $(seq 1 100); do
        curl -s -o /dev/null -w '%{http_code}\n' --interface "127.0.4.$c" -X POST -H 'Content-Type: application/json' \
            -d '{"type":"click"}' "http://127.0.0.1:18090/api/v1/public/track/$notification"
    done > "$CLUSTER_DIR/backup-tracking.$c" &
done
sleep 0.5
MARIADB_PORT=13309 tools/backup.sh mariadb herald "$CLUSTER_DIR/node3.sql.gz"
wait
answers=$(cat "$CLUSTER_DIR"/backup-tracking.* | sort | uniq -c | tr '\n' ' ')
[ "$(cat "$CLUSTER_DIR"/backup-tracking.* | grep -c '^204$')" = 300 ] || fail "A BACKUP OF NODE 3 STOPPED WRITES: $answers"
tools/restore.sh mariadb "$CLUSTER_DIR/node3.sql.gz" "$restored" > /dev/null 2>&1 \
    || fail "THE BACKUP OF NODE 3 DID NOT RESTORE INTO THE SINGLE SERVER"
rows=$(mariadb --protocol=tcp -h127.0.0.1 -P3306 -uroot -N -B "$restored" -e "SELECT COUNT(*) FROM interactions")
totals=$(mariadb --protocol=tcp -h127.0.0.1 -P3306 -uroot -N -B "$restored" -e "SELECT SUM(total) FROM interaction_daily_totals")
mariadb --protocol=tcp -h127.0.0.1 -P3306 -uroot -e "DROP DATABASE $restored"
[ "$rows" = "$totals" ] || fail "THE BACKUP OF NODE 3 HOLDS $rows INTERACTIONS BUT DAILY TOTALS OF $totals"
[ "$rows" -ge "$before" ] || fail "THE BACKUP OF NODE 3 LACKS INTERACTIONS IT HELD BEFORE ($rows < $before)"
log "a dump of node 3 while 300 interactions arrived through the three instances (all 204): restored into the single server, $rows interactions ($before before the dump), daily totals equal"

log "passed"
