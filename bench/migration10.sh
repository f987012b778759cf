#!/usr/bin/env bash
# Migration 10 on a database of years (issue 22): MariaDB holding N notifications (default 100,000, some 137 a day
# for two years) of ~500 bytes each, a tenth of them HTML with handlers, a script and a javascript: link, the rest
# rich-text documents, as a previous version stored them. Herald's runtime image then starts once: its log line
# says how many messages it brought into the content allow-list and in how long, and the start's wall time is
# printed beside a second start on the migrated database (nothing left to do) in the same run.
#   bench/migration10.sh [notifications, default 100000]
# Needs: curl, a MariaDB root login without password on 127.0.0.1:3306 (its sequence engine makes the rows), the
# image (jlink/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-100000}
DB=herald_migration10_bench
PORT=18871
OBSERVE=18872
IMAGE=target/herald-image
sql() { mariadb --protocol=tcp -h127.0.0.1 -uroot -N -B "$@"; }
log() { printf '[migration10] %s\n' "$*"; }
export DB_CONNECTION_URL="jdbc:mariadb://127.0.0.1:3306/$DB" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD=''
export SERVER_PORT=$PORT OBSERVE_PORT=$OBSERVE
WORK=$(mktemp -d)
PID=
trap '[ -z "$PID" ] || kill "$PID" 2>/dev/null; sql -e "DROP DATABASE IF EXISTS $DB" || true; rm -rf "$WORK"' EXIT
sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"

# Leaves the seconds from launch to ready in $WORK/took.
start() {
    local begin
    begin=$(date +%s.%N)
    "$IMAGE/bin/herald" config/prod.yaml > "$WORK/herald.log" 2>&1 &
    PID=$!
    for _ in $(seq 1 6000); do
        if curl -s -o /dev/null "http://127.0.0.1:$OBSERVE/observe/health/ready"; then
            echo "$(date +%s.%N) - $begin" | bc > "$WORK/took"
            return
        fi
        sleep 0.1
    done
    cat "$WORK/herald.log"; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=; }

start
stop
NOW=$(($(date +%s) * 1000))
log "seeding $COUNT notifications as a previous version stored them"
SECONDS=0
sql "$DB" <<SQL
SET @filler = 'This release brings faster dashboards, saved filters, a CSV export for every report and more. ';
INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Migration bench', $NOW);
INSERT INTO notifications (id, project_id, status, message, image, action_type, action_url, action_target, preset,
                           start_at, end_at, created_at, updated_at)
SELECT CONCAT('n_', LPAD(seq, 7, '0')), 'bench', 'PUBLISHED',
       IF(seq % 10 = 0,
          CONCAT('<p onclick="track()" style="color:red">Release ', seq, ': <a href="javascript:go()">notes</a>',
                 '<script>steal()</script> ', LEFT(REPEAT(@filler, 5), 380), '</p>'),
          CONCAT('{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Release ', seq, ': ',
                 LEFT(REPEAT(@filler, 5), 420), '"}]}]}')),
       NULL, 'NO_ACTION', NULL, NULL, 'default', NULL, NULL, $NOW - seq * 60000, $NOW - seq * 60000
FROM seq_1_to_$COUNT;
DELETE FROM schema_migrations WHERE version = 10;
SQL
log "seeded in ${SECONDS} s: $(sql "$DB" -e "SELECT COUNT(*), ROUND(AVG(LENGTH(message))) FROM notifications" | tr '\t' ' ') (count, mean bytes)"

log "first start of this version: migration 10 runs"
start
FIRST=$(cat "$WORK/took")
grep "Migration 10: " "$WORK/herald.log" | sed 's/.*Migration 10/Migration 10/' | cut -c1-160
stop
log "second start, nothing to migrate"
start
SECOND=$(cat "$WORK/took")
stop
log "start to ready: $FIRST s with migration 10, $SECOND s without"
log "left with a script or a handler: $(sql "$DB" -e "SELECT COUNT(*) FROM notifications WHERE message LIKE '%<script%' OR message LIKE '%onclick%' OR message LIKE '%javascript:%'")"
