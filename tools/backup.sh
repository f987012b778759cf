#!/usr/bin/env bash
# Backs up Herald's database while Herald runs and writes (docs/operations.md#backups).
#   tools/backup.sh mariadb DATABASE FILE.sql.gz   one InnoDB snapshot of the database, consistent across its tables
#                                                  (mariadb-dump --single-transaction), gzipped
#   tools/backup.sh mariabackup DIRECTORY          a physical copy of the whole server (mariabackup --backup, run
#                                                  where the server's data directory is), prepared (--prepare)
#   tools/backup.sh h2                             asks the running Herald for an online backup of its H2 database
#                                                  (POST /api/v1/admin/backups, an owner's token): the file stays on
#                                                  the server, in db.backup.directory; the answer names it. A long
#                                                  backup is answered 202 and goes on: with HERALD_BACKUP_DIRECTORY
#                                                  (db.backup.directory, when it is on this host) the script waits
#                                                  for the file, else it says where the file will appear
# MariaDB: MARIADB_HOST (127.0.0.1), MARIADB_PORT (3306), MARIADB_USER (root), the password in MYSQL_PWD; a Galera
# node is backed up as a single server is (docs/operations.md#galera). H2: HERALD_URL (http://127.0.0.1:8080),
# HERALD_ADMIN_TOKEN (an owner's; passed to curl on its standard input, never on a command line that ps shows),
# HERALD_BACKUP_DIRECTORY (optional), HERALD_BACKUP_WAIT (3600 s). Restore with tools/restore.sh.
set -euo pipefail
# A backup holds what the database holds (the session cookies' key, token and session hashes): readable by its owner
# alone, as Herald's own H2 backups are.
umask 077

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
die() { echo "backup: $*" >&2; exit 1; }
client_args() {
    printf '%s\n' --protocol=tcp "--host=${MARIADB_HOST:-127.0.0.1}" "--port=${MARIADB_PORT:-3306}" \
        "--user=${MARIADB_USER:-root}"
}

[ $# -ge 1 ] || usage
case $1 in
mariadb)
    [ $# -eq 3 ] || usage
    database=$2 file=$3
    [ ! -e "$file" ] || die "$file exists already: name a new file"
    mapfile -t args < <(client_args)
    # --single-transaction: one REPEATABLE READ snapshot of every InnoDB table, taken without a lock that would stop
    # Herald's writes. The file is written beside its name and moved into place whole, so that a failed dump never
    # leaves a file that looks like a backup.
    if ! mariadb-dump "${args[@]}" --single-transaction --routines --triggers --default-character-set=utf8mb4 \
        "$database" | gzip -1 > "$file.partial"; then
        rm -f "$file.partial"
        die "mariadb-dump of database $database failed (its words above); nothing written"
    fi
    mv "$file.partial" "$file"
    echo "backup: $file ($(du -h "$file" | cut -f1)) of database $database" >&2
    ;;
mariabackup)
    [ $# -eq 2 ] || usage
    directory=$2
    [ ! -e "$directory" ] || die "$directory exists already: name a new directory"
    mapfile -t args < <(client_args)
    mariabackup --backup "${args[@]}" --target-dir="$directory" > "$directory.log" 2>&1 \
        || die "mariabackup --backup failed; see $directory.log"
    # Until --prepare has applied the redo log copied with the files, the copy is not consistent.
    mariabackup --prepare --target-dir="$directory" >> "$directory.log" 2>&1 \
        || die "mariabackup --prepare failed; see $directory.log"
    echo "backup: $directory ($(du -sh "$directory" | cut -f1)), prepared; log $directory.log" >&2
    ;;
h2)
    [ $# -eq 1 ] || usage
    [ -n "${HERALD_ADMIN_TOKEN:-}" ] || die "HERALD_ADMIN_TOKEN is not set: an owner's token"
    url=${HERALD_URL:-http://127.0.0.1:8080}
    # The header comes from standard input (-H @-): a token on curl's command line is in every user's ps.
    answer=$(curl -sS --max-time 120 -X POST -H @- -w '\n%{http_code}' "$url/api/v1/admin/backups" <<EOF
Authorization: Bearer $HERALD_ADMIN_TOKEN
EOF
    ) || die "no answer from Herald at $url"
    status=${answer##*$'\n'} body=${answer%$'\n'*}
    echo "$body"
    case $status in
    201) ;;
    202)
        file=$(sed -n 's/.*"file":"\([^"]*\)".*/\1/p' <<< "$body")
        directory=${HERALD_BACKUP_DIRECTORY:-}
        if [ -z "$directory" ]; then
            echo "backup: still running; $file will appear in db.backup.directory on Herald's host, and Herald's log" \
                "says when (\"Backup … taken\")" >&2
            exit 0
        fi
        # Herald writes $file.partial and renames it whole: neither of them there means the backup failed.
        waited=0
        until [ -f "$directory/$file" ]; do
            [ -e "$directory/$file.partial" ] || die "$file failed (nothing of it in $directory): see Herald's log"
            [ "$waited" -lt "${HERALD_BACKUP_WAIT:-3600}" ] || die "$file not complete after ${waited}s; it may still be running"
            sleep 2
            waited=$((waited + 2))
        done
        echo "backup: $directory/$file ($(du -h "$directory/$file" | cut -f1)), complete about ${waited}s after the answer" >&2
        ;;
    *) die "Herald refused the backup ($status, above)" ;;
    esac
    ;;
*)
    usage
    ;;
esac
