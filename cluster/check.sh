#!/usr/bin/env bash
# Starts the local Galera cluster afresh (cluster/run.sh: three nodes, three Herald instances started at the same
# moment on an empty database, nginx) and checks what must hold on it (issue 21), then stops it:
# - every instance started; exactly one applied the migrations, the others waited for it; the schema is the same
#   on every node and the migration lock was released;
# - a management write through one instance is read at once through each of the others;
# - interactions tracked through nginx (each client address hashed to one instance) are each stored once, on every
#   node, with daily totals equal to the rows;
# - management writes through the three instances at the same moment: none answers 500;
# - the per-client rate limit is exact through nginx: one address gets exactly its 1,000 requests a minute.
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
for port in 13307 13308 13309; do
    [ "$(sql "$port" 'SELECT COUNT(*) FROM schema_migrations')" = 8 ] || fail "NODE $port DOES NOT HAVE THE 8 MIGRATIONS"
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

log "passed"
