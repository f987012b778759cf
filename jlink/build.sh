#!/usr/bin/env bash
# Builds target/herald-image/: a jlink runtime with Herald and its dependencies linked as modules, a launcher
# (bin/herald) and a start-up cache (lib/herald.aot) recorded from a training run.
#   jlink/build.sh [--skip-package]       (--skip-package: use target/herald.jar and target/libs as they are)
# Needs a JDK >= 25 (JAVA_HOME or /usr/lib/jvm): the image is that JDK's runtime, and its AOT cache needs 25.
# What is linked and why: docs/modules.md.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=target/herald-image
MODULES=target/jlink-modules
# The application module pulls in what it requires. The rest is found at run time through ServiceLoader, which
# jlink cannot see: the MariaDB driver (a java.sql.Driver), SLF4J's java.util.logging binding (HikariCP logs through
# SLF4J), and java.desktop, which SnakeYAML needs (java.beans) for Helidon's YAML config but requires only statically.
ADD_MODULES=dev.herald,org.mariadb.jdbc,org.slf4j.jul,java.desktop
# H2 is an automatic module (no module-info): jlink cannot link it, so it rides beside the image in lib/classpath
# (not lib/ext: the JVM refuses to start from a runtime that has one, a leftover of the extension mechanism).
BESIDE='h2-*.jar'

log() { printf '[image] %s\n' "$*"; }

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 25 jlink

if [ "${1:-}" != "--skip-package" ]; then
    mvn -B -q package -DskipTests
fi

rm -rf "$IMAGE" "$MODULES"
mkdir -p "$MODULES"
cp target/herald.jar "$MODULES/"
find target/libs -name '*.jar' ! -name "$BESIDE" -exec cp {} "$MODULES/" \;

log "linking $ADD_MODULES"
# java.desktop is here for java.beans alone: its native libraries (AWT, fonts, images, sound) are never loaded.
jlink --module-path "$MODULES" \
      --add-modules "$ADD_MODULES" \
      --strip-debug --no-header-files --no-man-pages --compress zip-9 \
      --exclude-files='glob:/java.desktop/lib/*' \
      --output "$IMAGE"
# The JDK's native libraries keep their symbol tables (5 MB of libjvm.so); only the dynamic symbols are needed
# to run. A crash report then names fewer native frames, which matters to JDK developers, not to operators.
if command -v strip >/dev/null; then
    find "$IMAGE/lib" -name '*.so' -exec strip --strip-unneeded {} \;
else
    log "no strip (binutils): the image keeps its native symbol tables, some 5 MB"
fi
mkdir -p "$IMAGE/lib/classpath"
find target/libs -name "$BESIDE" -exec cp {} "$IMAGE/lib/classpath/" \;
cp jlink/herald "$IMAGE/bin/herald"
chmod 755 "$IMAGE/bin/herald"
# Only the launcher and java are needed; keytool comes with java.base.
rm -f "$IMAGE/bin/keytool"

# The cache holds what the training run loaded: trained on MariaDB, the production database, its driver is in
# the cache (a start against MariaDB measured 80 ms faster); trained on H2, H2 is. HERALD_TRAINING_DB: "mariadb"
# (fails without one), "h2", or "auto" (default: MariaDB when one answers, else H2). The server is reached as
# HERALD_TRAINING_MARIADB_HOST/_PORT/_USER/_PASSWORD (default 127.0.0.1:3306, root, no password); the training
# database is created and dropped here.
TRAINING=$(mktemp -d)
TRAINING_SCHEMA=herald_training_$$
M_HOST=${HERALD_TRAINING_MARIADB_HOST:-127.0.0.1}
M_PORT=${HERALD_TRAINING_MARIADB_PORT:-3306}
M_USER=${HERALD_TRAINING_MARIADB_USER:-root}
training_sql() {
    MYSQL_PWD=${HERALD_TRAINING_MARIADB_PASSWORD:-} mariadb --protocol=tcp -h "$M_HOST" -P "$M_PORT" -u "$M_USER" \
        -N -B -e "$1" 2>/dev/null
}
cleanup() {
    rm -rf "$TRAINING"
    if [ "$TRAINING_DB" = mariadb ]; then
        training_sql "DROP DATABASE IF EXISTS $TRAINING_SCHEMA" || true
    fi
}
TRAINING_DB=${HERALD_TRAINING_DB:-auto}
if [ "$TRAINING_DB" != h2 ]; then
    if command -v mariadb >/dev/null && training_sql "SELECT 1" >/dev/null; then
        TRAINING_DB=mariadb
    elif [ "$TRAINING_DB" = mariadb ]; then
        log "HERALD_TRAINING_DB=mariadb, but no MariaDB answers on $M_HOST:$M_PORT as $M_USER (or no mariadb client)"
        exit 1
    else
        TRAINING_DB=h2
        log "no MariaDB answers on $M_HOST:$M_PORT: training on H2 (a start against MariaDB will be slower)"
    fi
fi
trap cleanup EXIT
# Two ports for the two listeners, chosen by the system (tools/free-ports.py; a fixed pair without python3).
read -r PORT OBSERVE_PORT < <(python3 tools/free-ports.py 2 2>/dev/null || echo 18899 18900)
if [ "$TRAINING_DB" = mariadb ]; then
    training_sql "CREATE DATABASE $TRAINING_SCHEMA CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
    DB_SETTINGS="url: \"jdbc:mariadb://$M_HOST:$M_PORT/$TRAINING_SCHEMA\", username: \"$M_USER\""
else
    DB_SETTINGS="url: \"jdbc:h2:file:$TRAINING/data/herald\""
fi
log "recording the start-up cache (training run on $TRAINING_DB)"
# Herald refuses tokens under 32 characters.
TRAINING_TOKEN=training-token-0123456789abcdef0123456789
cat > "$TRAINING/training.yaml" <<YAML
server: {port: $PORT, host: 127.0.0.1}
observe: {port: $OBSERVE_PORT}
db:
  connection: {$DB_SETTINGS}
# Train.java sends one wrong token a round: it must stay a 401 however many rounds, so no sign-in throttle here.
admin: {tokens: ["$TRAINING_TOKEN"], auth-failures: {limit: 1000000}}
YAML
# The cache keeps the classes loaded and linked, not the training run's method profiles: with them, the JIT
# compiles at start what the training run found hot, and on two cores that costs the start more than it saves
# (measured: 30 ms slower to the first served request, and a 2.5 MB larger cache). A diagnostic flag of HotSpot:
# the image is built and run by the same JDK, which the cache requires anyway.
# A clean environment: Herald reads its settings from it, and the builder's DB_CONNECTION_URL is not for training.
# exec: $HERALD is the JVM itself, so SIGTERM below reaches it and wait returns once the cache is written.
(cd "$TRAINING" && exec env -i PATH="$PATH" LANG=C.UTF-8 HERALD_AOT=record \
    HERALD_JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining" \
    DB_CONNECTION_PASSWORD="${HERALD_TRAINING_MARIADB_PASSWORD:-}" \
    "$OLDPWD/$IMAGE/bin/herald" "$TRAINING/training.yaml" > "$TRAINING/herald.log" 2>&1) &
HERALD=$!
if ! java -Drounds="${TRAIN_ROUNDS:-3}" jlink/Train.java "$PORT" "$TRAINING_TOKEN" "$OBSERVE_PORT"; then
    kill "$HERALD" 2>/dev/null || true
    cat "$TRAINING/herald.log"
    exit 1
fi
# The JVM writes the cache as it exits.
kill -TERM "$HERALD"
wait "$HERALD" || true
[ -s "$IMAGE/lib/herald.aot" ] || { cat "$TRAINING/herald.log"; log "no start-up cache was written"; exit 1; }
# What the cache skipped (proxies, JFR events) is expected; a failure to write it is caught above.
grep -q "AOTCache creation is complete" "$TRAINING/herald.log" || { cat "$TRAINING/herald.log"; exit 1; }

log "done: $IMAGE ($(du -sh "$IMAGE" | cut -f1), of which start-up cache $(du -sh "$IMAGE/lib/herald.aot" | cut -f1))"
