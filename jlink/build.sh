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

log "recording the start-up cache (training run on embedded H2)"
TRAINING=$(mktemp -d)
trap 'rm -rf "$TRAINING"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
       || echo 18899)
cat > "$TRAINING/training.yaml" <<YAML
server: {port: $PORT, host: 127.0.0.1}
db:
  connection:
    url: "jdbc:h2:file:$TRAINING/data/herald"
admin: {tokens: ["training-token"]}
YAML
# exec: $HERALD is the JVM itself, so SIGTERM below reaches it and wait returns once the cache is written.
(cd "$TRAINING" && HERALD_AOT=record exec "$OLDPWD/$IMAGE/bin/herald" "$TRAINING/training.yaml" \
    > "$TRAINING/herald.log" 2>&1) &
HERALD=$!
if ! java -Drounds="${TRAIN_ROUNDS:-20}" jlink/Train.java "$PORT" training-token; then
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
