#!/usr/bin/env bash
# Backup and restore, shown (docs/operations.md#backups): Herald (target/herald.jar) on a fresh MariaDB database is
# given projects, keys, a published announcement with a translation, a team member and tracked interactions; a
# backup is taken with tools/backup.sh while interactions keep arriving; tools/restore.sh restores it into another
# fresh database; a second Herald starts on that and must hold everything: the announcement as the first serves it,
# its key on the public feed in both languages, the member's sign-in, and stats equal to the restored rows, among
# them every interaction acknowledged before the backup began. Done for mariadb-dump, then for mariabackup (restored
# into a data directory of its own, served by a temporary mariadbd; not with BACKUP_CHECK_MARIABACKUP=0), then for
# embedded H2 and its online backup (POST /api/v1/admin/backups, through tools/backup.sh h2).
#   tools/backup-check.sh
# Needs: curl, mariadb-dump and mariabackup, MariaDB on 127.0.0.1:3306 with a root login without password, and root
# (mariabackup reads the server's data directory). Ports 19100-19199 (a second run at once is refused).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 java

# Chosen by the system: fixed ones were taken by other services on a shared machine.
read -r SOURCE_PORT RESTORED_PORT MARIADBD_PORT < <(python3 tools/free-ports.py 3)
TOKEN=backup-check-owner-token-0123456789abcdef
TOKEN_SHA256=$(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
RUN=$$
SOURCE_DB=herald_backup_check_$RUN
RESTORED_DB=herald_backup_check_restored_$RUN
WORK=$(mktemp -d -t herald-backup-check.XXXXXX)
SOURCE_PID=
RESTORED_PID=
TRACKER=
MARIADBD=
export MARIADB_HOST=127.0.0.1 MARIADB_PORT=3306 MARIADB_USER=root

log() { printf '[backup-check] %s\n' "$*"; }
fail() { printf '[backup-check] FAILED: %s\n' "$*" >&2; exit 1; }
sql() { mariadb --protocol=tcp -h127.0.0.1 -P"${SQL_PORT:-3306}" -uroot -N -B "$@"; }
cleanup() {
    [ -z "$TRACKER" ] || kill "$TRACKER" 2>/dev/null || true
    stop_herald "$SOURCE_PID"
    stop_herald "$RESTORED_PID"
    if [ -n "$MARIADBD" ]; then kill "$MARIADBD" 2>/dev/null || true; wait "$MARIADBD" 2>/dev/null || true; fi
    sql -e "DROP DATABASE IF EXISTS $SOURCE_DB; DROP DATABASE IF EXISTS $RESTORED_DB" || true
    rm -rf "$WORK"
}
trap cleanup EXIT

[ -n "$MARIADBD_PORT" ] || fail "no free ports (tools/free-ports.py needs python3)"
[ -f target/herald.jar ] || fail "target/herald.jar is missing: mvn -DskipTests package"

stop_herald() {
    if [ -n "$1" ]; then kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; fi
}

# start_herald NAME PORT JDBC_URL: one Herald, olive its owner; the rate limit out of the way of the tracking loop.
# Leaves its process id in HERALD_PID.
start_herald() {
    local name=$1 port=$2 url=$3 pid user=root
    # Embedded H2's own user, as Herald takes it unless told otherwise.
    [[ $url != jdbc:h2:* ]] || user=sa
    env DB_CONNECTION_URL="$url" DB_CONNECTION_USERNAME=$user DB_CONNECTION_PASSWORD='' SERVER_HOST=127.0.0.1 \
        SERVER_PORT="$port" OBSERVE_PORT=0 RATE_DASH_LIMIT_REQUESTS=1000000000 \
        DB_BACKUP_DIRECTORY="$WORK/h2/backups" ADMIN_ACCOUNTS_0_NAME=olive ADMIN_ACCOUNTS_0_ROLE=owner ADMIN_ACCOUNTS_0_TOKEN_DASH_SHA256="$TOKEN_SHA256" \
        java -jar target/herald.jar > "$WORK/$name.log" 2>&1 &
    pid=$!
    HERALD_PID=$pid
    for _ in $(seq 1 120); do
        grep -q "Herald listening" "$WORK/$name.log" && return
        kill -0 "$pid" 2>/dev/null || { tail -n 20 "$WORK/$name.log"; fail "$name Herald ended"; }
        sleep 0.5
    done
    tail -n 20 "$WORK/$name.log"; fail "$name Herald did not start"
}
# call PORT METHOD PATH [JSON]: the answer's body; fails on a status of 400 or more.
call() {
    local port=$1 method=$2 path=$3 body=${4:-}
    curl -sS --fail-with-body --max-time 10 -X "$method" -H "Authorization: Bearer $TOKEN" \
        -H 'Content-Type: application/json' ${body:+-d "$body"} "http://127.0.0.1:$port/api/v1$path" \
        || fail "$method $path on port $port"
}
field() { sed -nE "s/.*\"$1\":\"([^\"]+)\".*/\1/p" <<<"$2" | head -n 1; }
number() { sed -nE "s/^\{[^{]*\"$1\":([0-9]+).*/\1/p" <<<"$2" | head -n 1; }

seed() {
    local port=$1 doc
    doc() { printf '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"%s"}]}]}' "$1"; }
    PROJECT=$(field id "$(call "$port" POST /admin/projects '{"name":"Backup check"}')")
    KEY=$(field key "$(call "$port" POST "/admin/projects/$PROJECT/api-keys")")
    call "$port" POST "/admin/projects/$PROJECT/api-keys" > /dev/null
    NOTIFICATION=$(field id "$(call "$port" POST "/admin/projects/$PROJECT/notifications" \
        "{\"message\":$(doc 'Winter sale: -20%'),\"status\":\"DRAFT\"}")")
    call "$port" PUT "/admin/notifications/$NOTIFICATION/translations/fr" "{\"message\":$(doc 'Soldes d’hiver : -20 %')}" > /dev/null
    call "$port" PATCH "/admin/notifications/$NOTIFICATION" '{"status":"PUBLISHED"}' > /dev/null
    call "$port" POST "/admin/projects/$PROJECT/notifications" "{\"message\":$(doc 'A draft'),\"status\":\"DRAFT\"}" > /dev/null
    local secret
    secret=$(field secret "$(call "$port" POST /admin/accounts '{"name":"bob","role":"editor"}')")
    BOB_TOKEN=$(field token "$(call "$port" POST /admin/invites/accept "{\"secret\":\"$secret\"}")")
    [ -n "$BOB_TOKEN" ] || fail "bob's invitation gave no token"
    for _ in $(seq 1 20); do track_once "$port"; done
}

track() {
    curl -sS -o /dev/null -w '%{http_code}' --max-time 5 -X POST -H 'Content-Type: application/json' \
        -d '{"type":"impression"}' "http://127.0.0.1:$1/api/v1/public/track/$NOTIFICATION"
}

# One impression; a 204 is a line in $WORK/acknowledged with the moment the answer had arrived (ns). The file holds
# every interaction the source database was given.
track_once() {
    if [ "$(track "$1")" = 204 ]; then date +%s%N >> "$WORK/acknowledged"; fi
}

track_loop() {
    while true; do track_once "$1"; done
}

acknowledged_before() { awk -v t="$1" '$1 < t' "$WORK/acknowledged" | wc -l; }

# backup_while_tracking KIND: tools/backup.sh while interactions arrive; sets BEFORE (acknowledged before it began)
# and ALL (acknowledged by the time the tracking stopped).
backup_while_tracking() {
    track_loop "$SOURCE_PORT" &
    TRACKER=$!
    sleep 1
    local began
    began=$(date +%s%N)
    case $1 in
    mariadb) tools/backup.sh mariadb "$SOURCE_DB" "$WORK/dump.sql.gz"
        # It holds the session cookies' key and the token hashes: its owner's alone.
        [ "$(stat -c %a "$WORK/dump.sql.gz")" = 600 ] || fail "the dump is readable by others: $(ls -l "$WORK/dump.sql.gz")"
        # A dump that fails leaves nothing that looks like a backup, and says so.
        if tools/backup.sh mariadb "${SOURCE_DB}_missing" "$WORK/missing.sql.gz" 2> "$WORK/missing.err"; then
            fail "a dump of a missing database succeeded"
        fi
        ! ls "$WORK"/missing.sql.gz* > /dev/null 2>&1 || fail "a failed dump left $(ls "$WORK"/missing.sql.gz*)"
        grep -q "^backup: mariadb-dump of database ${SOURCE_DB}_missing failed" "$WORK/missing.err" \
            || fail "a failed dump did not say so: $(cat "$WORK/missing.err")" ;;
    mariabackup) tools/backup.sh mariabackup "$WORK/physical" ;;
    h2) H2_BACKUP=$(field file "$(HERALD_URL=http://127.0.0.1:$SOURCE_PORT HERALD_ADMIN_TOKEN=$TOKEN \
        HERALD_BACKUP_DIRECTORY="$WORK/h2/backups" tools/backup.sh h2)") ;;
    esac
    sleep 0.5
    kill "$TRACKER"; wait "$TRACKER" 2>/dev/null || true; TRACKER=
    BEFORE=$(acknowledged_before "$began")
    ALL=$(wc -l < "$WORK/acknowledged")
    [ "$BEFORE" -gt 0 ] && [ "$ALL" -gt "$BEFORE" ] || fail "no interactions arrived around the backup ($BEFORE, $ALL)"
    log "$1: $BEFORE interactions acknowledged before the backup began, $ALL by the time tracking stopped (in all)"
}

# restored_counts KIND URL: the interactions and the sum of the daily totals in the restored database, as
# "ROWS TOTALS", read before a Herald opens it (an embedded H2 file is one process's at a time).
restored_counts() {
    local kind=$1 url=$2 query="SELECT COUNT(*) FROM interactions; SELECT SUM(total) FROM interaction_daily_totals"
    case $kind in
    h2) local part
        for part in "${query%%;*}" "${query#*; }"; do
            java -cp "$(ls target/libs/h2-*.jar)" org.h2.tools.Shell -url "$url;DATABASE_TO_LOWER=TRUE" -user sa \
                -password '' -sql "$part" | grep -E '^[0-9]+$'
        done | tr '\n' ' ' ;;
    *) local port=${url#jdbc:mariadb://127.0.0.1:} database=${url##*/}
       SQL_PORT=${port%%/*} sql "$database" -e "$query" | tr '\n' ' ' ;;
    esac
}

# compare KIND RESTORED_URL: a second Herald on the restored database, compared with the first through the API.
compare() {
    local kind=$1 url=$2 rows totals stats
    read -r rows totals <<<"$(restored_counts "$kind" "$url")"
    start_herald "restored-$kind" "$RESTORED_PORT" "$url"
    RESTORED_PID=$HERALD_PID
    [ "$(call "$RESTORED_PORT" GET "/admin/projects/$PROJECT/notifications")" \
        = "$(call "$SOURCE_PORT" GET "/admin/projects/$PROJECT/notifications")" ] \
        || fail "the restored announcements differ from the source's"
    [ "$(call "$RESTORED_PORT" GET "/admin/projects/$PROJECT/api-keys")" \
        = "$(call "$SOURCE_PORT" GET "/admin/projects/$PROJECT/api-keys")" ] || fail "the restored keys differ"
    curl -sS --fail "http://127.0.0.1:$RESTORED_PORT/api/v1/public/$KEY/notifications" | grep -q "Winter sale" \
        || fail "the key does not serve the announcement from the restored database"
    curl -sS --fail -H 'Accept-Language: fr' "http://127.0.0.1:$RESTORED_PORT/api/v1/public/$KEY/notifications" \
        | grep -q "Soldes" || fail "the French translation is not served from the restored database"
    curl -sS --fail-with-body -o /dev/null -X POST -H 'Content-Type: application/json' \
        -d "{\"name\":\"bob\",\"token\":\"$BOB_TOKEN\"}" "http://127.0.0.1:$RESTORED_PORT/api/v1/admin/session" \
        || fail "bob cannot sign in on the restored database"
    stats=$(number impression "$(call "$RESTORED_PORT" GET "/admin/notifications/$NOTIFICATION/stats")")
    log "$kind restored: $rows interactions, daily totals $totals, stats $stats"
    [ "$rows" = "$totals" ] && [ "$stats" = "$rows" ] || fail "the totals disagree with the restored rows"
    [ "$rows" -ge "$BEFORE" ] || fail "interactions acknowledged before the backup are missing"
    # The tracking loop has at most one request in flight: committed, perhaps, but not yet acknowledged.
    [ "$rows" -le $((ALL + 1)) ] || fail "more interactions than were ever tracked"
    stop_herald "$RESTORED_PID"
    RESTORED_PID=
}

log "Herald on a fresh MariaDB database $SOURCE_DB"
sql -e "CREATE DATABASE $SOURCE_DB CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
start_herald source "$SOURCE_PORT" "jdbc:mariadb://127.0.0.1:3306/$SOURCE_DB"
SOURCE_PID=$HERALD_PID
: > "$WORK/acknowledged"
seed "$SOURCE_PORT"
log "seeded project $PROJECT, two keys, an announcement in two languages, a draft, bob and 20 interactions"

backup_while_tracking mariadb
url=$(tools/restore.sh mariadb "$WORK/dump.sql.gz" "$RESTORED_DB" 2> /dev/null | sed -n 's/^DB_CONNECTION_URL=//p')
compare mariadb "$url"
log "mariadb-dump: the restored database holds everything"

if [ "${BACKUP_CHECK_MARIABACKUP:-1}" = 1 ]; then
    backup_while_tracking mariabackup
    # The server runs as the user the restore names (mysql, as root), as an operator would start it: the work
    # directory must let that user reach its data directory, where its socket and pid file go too.
    chmod 755 "$WORK"
    owner=$(tools/restore.sh mariabackup "$WORK/physical" "$WORK/datadir" 2> /dev/null \
                | sed -n 's/^mariadbd .*--user=\([^ ]*\)$/\1/p')
    [ -n "$owner" ] || fail "tools/restore.sh mariabackup printed no mariadbd command"
    mariadbd --no-defaults --datadir="$WORK/datadir" --port=$MARIADBD_PORT --bind-address=127.0.0.1 \
        --socket="$WORK/datadir/mariadbd.sock" --pid-file="$WORK/datadir/mariadbd.pid" --user="$owner" \
        --skip-grant-tables --innodb-buffer-pool-size=64M > "$WORK/mariadbd.log" 2>&1 &
    MARIADBD=$!
    for _ in $(seq 1 60); do SQL_PORT=$MARIADBD_PORT sql -e "SELECT 1" > /dev/null 2>&1 && break; sleep 0.5; done
    SQL_PORT=$MARIADBD_PORT sql -e "SELECT 1" > /dev/null || { tail -n 20 "$WORK/mariadbd.log"; fail "mariadbd did not start"; }
    # The copy holds the whole server: there, the source database is the restored one.
    compare mariabackup "jdbc:mariadb://127.0.0.1:$MARIADBD_PORT/$SOURCE_DB"
    kill "$MARIADBD"; wait "$MARIADBD" 2>/dev/null || true; MARIADBD=
    log "mariabackup: the restored server holds everything"
fi

log "Herald on a fresh embedded H2 database"
stop_herald "$SOURCE_PID"
start_herald source-h2 "$SOURCE_PORT" "jdbc:h2:file:$WORK/h2/herald"
SOURCE_PID=$HERALD_PID
: > "$WORK/acknowledged"
seed "$SOURCE_PORT"
backup_while_tracking h2
url=$(tools/restore.sh h2 "$WORK/h2/backups/$H2_BACKUP" "$WORK/h2-restored" 2> /dev/null | sed -n 's/^DB_CONNECTION_URL=//p')
for restored in "$WORK/h2-restored"/*.mv.db; do
    [ "$(stat -c %a "$restored")" = 600 ] || fail "the restored H2 file is readable by others: $(ls -l "$restored")"
done
compare h2 "$url"
log "H2 (POST /api/v1/admin/backups): the restored database holds everything"
log "passed"
