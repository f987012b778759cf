#!/usr/bin/env bash
# Restores a backup of tools/backup.sh into a FRESH database, never over the one it came from, and prints the setting
# that starts Herald on it, quoted for a shell (docs/operations.md#restore-then-check).
#   tools/restore.sh mariadb FILE.sql[.gz] NEW_DATABASE   loads a mariadb-dump file into a database it creates
#   tools/restore.sh mariabackup DIRECTORY NEW_DATADIR     copies a prepared mariabackup into an empty data directory
#                                                          for a MariaDB server of its own (its start is printed)
#   tools/restore.sh h2 FILE.zip NEW_DIRECTORY             unzips an online backup of H2 (POST /api/v1/admin/backups)
# MariaDB: MARIADB_HOST (127.0.0.1), MARIADB_PORT (3306), MARIADB_USER (root), the password in MYSQL_PWD.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
die() { echo "restore: $*" >&2; exit 1; }
require_new() {
    if [ -e "$1" ] && [ -n "$(ls -A "$1")" ]; then die "$1 is not empty: name a new directory"; fi
}

[ $# -eq 3 ] || usage
case $1 in
mariadb)
    file=$2 database=$3
    [ -f "$file" ] || die "$file is not a file"
    [[ $database =~ ^[A-Za-z0-9_]{1,64}$ ]] || die "$database: a database name of letters, digits and _"
    args=(--protocol=tcp "--host=${MARIADB_HOST:-127.0.0.1}" "--port=${MARIADB_PORT:-3306}" "--user=${MARIADB_USER:-root}")
    # CREATE DATABASE without IF NOT EXISTS: an existing database is refused, so a restore never mixes two.
    mariadb "${args[@]}" -e "CREATE DATABASE \`$database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin" \
        || die "could not create database $database (does it exist already?)"
    case $file in
    *.gz) gzip -dc "$file" ;;
    *) cat "$file" ;;
    esac | mariadb "${args[@]}" --default-character-set=utf8mb4 "$database" \
        || die "loading $file into $database failed: drop $database before trying again"
    echo "restore: $file loaded into database $database; Herald's own user needs its rights on it first" \
         "(README, MariaDB): GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP ON \`$database\`.*" \
         "TO 'herald'@'%'; then start Herald on it with" >&2
    printf 'DB_CONNECTION_URL=%q\n' "jdbc:mariadb://${MARIADB_HOST:-127.0.0.1}:${MARIADB_PORT:-3306}/$database"
    ;;
mariabackup)
    backup=$2 datadir=$3
    [ -f "$backup/xtrabackup_checkpoints" ] || die "$backup is no mariabackup directory"
    grep -q '^backup_type = log-applied' "$backup/xtrabackup_checkpoints" \
        || die "$backup is not prepared: mariabackup --prepare --target-dir=$backup first"
    require_new "$datadir"
    mariabackup --copy-back --target-dir="$backup" --datadir="$datadir" > "$datadir.restore.log" 2>&1 \
        || die "mariabackup --copy-back failed; see $datadir.restore.log"
    # The copy belongs to whoever ran it; the server, started as root, runs as mysql and must own its files (an
    # operator's trial: the printed command failed with "Permission denied" on a directory root kept).
    owner=$(id -un)
    if [ "$(id -u)" = 0 ] && id mysql > /dev/null 2>&1; then
        chown -R mysql:mysql "$datadir" || die "could not give $datadir to the user mysql"
        owner=mysql
    fi
    echo "restore: $backup copied into $datadir (owned by $owner); start a MariaDB server of its own on it, e.g." >&2
    echo "mariadbd --no-defaults --datadir=$datadir --port=3307 --socket=$datadir/mariadb.sock --user=$owner"
    ;;
h2)
    file=$2 directory=$3
    [ -f "$file" ] || die "$file is not a file"
    require_new "$directory"
    # The database holds the session cookies' key and the token and session hashes: its owner's alone, as the
    # backup was (unzip gave it 0644, an operator's trial found).
    (umask 077 && mkdir -p "$directory" && unzip -q "$file" -d "$directory") || die "could not unzip $file"
    chmod -R go-rwx "$directory"
    database=$(find "$directory" -maxdepth 1 -name '*.mv.db' | head -n 1)
    [ -n "$database" ] || die "$file holds no H2 database (*.mv.db)"
    echo "restore: $file unzipped into $directory; start Herald on it with" >&2
    # Quoted for a shell (printf %q): the directory may hold a space or a quote, and the line is meant to be pasted.
    printf 'DB_CONNECTION_URL=%q\n' "jdbc:h2:file:$(cd "$directory" && pwd)/$(basename "$database" .mv.db)"
    ;;
*)
    usage
    ;;
esac
