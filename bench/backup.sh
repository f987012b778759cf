#!/usr/bin/env bash
# Backup and restore of 10 M interactions (issue 33): MariaDB holding N raw interactions (default 10,000,000) of one
# announcement, made with the sequence engine; then how long mariadb-dump --single-transaction takes and how large its
# file is, how long that file takes to load into a fresh database, and how long mariabackup takes to copy the server
# and --prepare the copy, and how large it is (docs/operations.md#backups).
#   bench/backup.sh [interactions, default 10000000]
# Needs: curl, mariadb-dump, mariabackup (run as root: it reads the server's data directory), a MariaDB root login
# without password on 127.0.0.1:3306, target/herald.jar (mvn -DskipTests package). Needs free disk of about three
# times the table (printed).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/common.sh
. bench/common.sh
COUNT=${1:-10000000}
DB=herald_backup_bench
RESTORED=herald_backup_bench_restored
TOKEN=BenchToken0123456789BenchToken0123456789
PORT=19190
log() { printf '[backup] %s\n' "$*"; }
OUT=$(mktemp -d -t herald-backup-bench.XXXXXX)
trap 'bench_stop_jar; sql -e "DROP DATABASE IF EXISTS $RESTORED" || true; rm -rf "$OUT"' EXIT
sql -e "DROP DATABASE IF EXISTS $RESTORED"

# Herald makes the schema, then stops: the rows go in with SQL.
bench_start_jar "" ""
kill -TERM "$PID"; wait "$PID" 2>/dev/null || true; PID=
NOW=$(($(date +%s) * 1000))
DAY=86400000
log "seeding $COUNT interactions over 400 days"
SECONDS=0
sql "$DB" -e "INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Bench', $NOW);
              INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, updated_at)
              VALUES ('bench_1', 'bench', 'PUBLISHED', 'Notification 1', 'NO_ACTION', 'default', $NOW, $NOW);
              INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint, locale)
              SELECT 'bench_1', 'bench', IF(seq % 10 = 0, 'click', 'view'), $NOW - (seq % 400) * $DAY - seq,
                     $NOW - (seq % 400) * $DAY - seq + 50, 'simple', 'en'
              FROM seq_1_to_$COUNT;
              INSERT INTO interaction_daily_totals (project_id, day_number, notification_id, type, writer, locale, total)
              SELECT 'bench', FLOOR(received_at / $DAY), 'bench_1', type, 0, 'en', COUNT(*) FROM interactions
              GROUP BY FLOOR(received_at / $DAY), type;"
log "seeded in ${SECONDS} s; $(sql -e "SELECT ROUND(SUM(data_length + index_length) / 1048576) FROM information_schema.tables WHERE table_schema = '$DB'") MiB of tables (data and indexes)"

log "mariadb-dump --single-transaction --routines --triggers $DB"
SECONDS=0
mariadb-dump --protocol=tcp -h127.0.0.1 -uroot --single-transaction --routines --triggers "$DB" > "$OUT/dump.sql"
log "dump: ${SECONDS} s, $(du -m "$OUT/dump.sql" | cut -f1) MiB"
SECONDS=0
gzip -1 < "$OUT/dump.sql" > "$OUT/dump.sql.gz"
log "gzip -1 of it: ${SECONDS} s, $(du -m "$OUT/dump.sql.gz" | cut -f1) MiB"

log "restore of the dump into a fresh database (tools/restore.sh)"
SECONDS=0
tools/restore.sh mariadb "$OUT/dump.sql.gz" "$RESTORED" > "$OUT/restore.log"
log "restore: ${SECONDS} s; rows: $(sql "$RESTORED" -e "SELECT COUNT(*) FROM interactions") interactions"
sql -e "DROP DATABASE $RESTORED"
rm -f "$OUT/dump.sql" "$OUT/dump.sql.gz"

log "mariabackup --backup of the whole server ($(du -sm "$(sql -e 'SELECT @@datadir')" | cut -f1) MiB data directory)"
SECONDS=0
mariabackup --backup --host=127.0.0.1 --user=root --target-dir="$OUT/physical" > "$OUT/mariabackup.log" 2>&1 \
    || { tail -n 20 "$OUT/mariabackup.log"; die "mariabackup --backup failed"; }
log "mariabackup --backup: ${SECONDS} s, $(du -sm "$OUT/physical" | cut -f1) MiB"
SECONDS=0
mariabackup --prepare --target-dir="$OUT/physical" > "$OUT/prepare.log" 2>&1 \
    || { tail -n 20 "$OUT/prepare.log"; die "mariabackup --prepare failed"; }
log "mariabackup --prepare: ${SECONDS} s"
