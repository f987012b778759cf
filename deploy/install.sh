#!/usr/bin/env bash
# Installs or upgrades Herald on a VM with systemd. Run as root from a checkout, after jlink/build.sh:
#   deploy/install.sh [runtime image directory]          (default: target/herald-image of this checkout)
# Installs the image as /opt/herald-<version>-<UTC time> and moves the link /opt/herald to it (previous installs are
# kept: a rollback is pointing the link back); creates /etc/herald/herald.yaml (from config/prod.yaml) and
# /etc/herald/herald.env only when they are missing; creates /var/lib/herald; installs the systemd unit.
# Running it again upgrades, and with the same image changes nothing. It never starts or restarts Herald.
set -euo pipefail
# The service user must be able to read what is installed, whatever root's umask is.
umask 022

die() { echo "install.sh: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root"
command -v systemctl >/dev/null || die "no systemctl: this installs a systemd service"
CHECKOUT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd -P)
IMAGE=${1:-$CHECKOUT/target/herald-image}
if [ ! -x "$IMAGE/bin/herald" ] || [ ! -x "$IMAGE/bin/java" ]; then
    die "no runtime image at $IMAGE: build it with jlink/build.sh (on a machine with a JDK 25 and Maven)"
fi
IMAGE=$(CDPATH='' cd -- "$IMAGE" && pwd -P)
for file in config/prod.yaml deploy/herald.service; do
    [ -f "$CHECKOUT/$file" ] || die "no $file in $CHECKOUT: run this script from a Herald checkout"
done
if [ -e /opt/herald ] && [ ! -L /opt/herald ]; then
    die "/opt/herald exists and is not a link: move it away first"
fi

if ! getent group herald >/dev/null; then
    groupadd --system herald
fi
if ! getent passwd herald >/dev/null; then
    useradd --system --gid herald --home-dir /var/lib/herald --no-create-home --shell /usr/sbin/nologin \
            --comment "Herald service" herald
fi

CURRENT=
if [ -L /opt/herald ]; then
    CURRENT=$(readlink -f /opt/herald)
fi
if [ -n "$CURRENT" ] && [ -d "$CURRENT" ] && diff -r -q "$IMAGE" "$CURRENT" >/dev/null 2>&1; then
    echo "/opt/herald -> $CURRENT already holds this image"
else
    # Also proves that the image runs on this host (architecture, C library) before anything points at it.
    VERSION=$("$IMAGE/bin/java" -XX:-UsePerfData --list-modules | sed -n 's/^dev\.herald@//p') \
        || die "the image's java does not run on this host"
    RELEASE=/opt/herald-${VERSION:+$VERSION-}$(date -u +%Y%m%dT%H%M%SZ)
    [ ! -e "$RELEASE" ] || die "$RELEASE exists already"
    # Copied beside, then renamed: an interrupted copy never looks like an install. cp without -a: the files
    # become root's, with this host's default SELinux labels, not the build user's.
    mkdir -p /opt
    STAGING=$(mktemp -d /opt/.herald-install.XXXXXX)
    trap 'rm -rf "$STAGING"' EXIT
    cp -R "$IMAGE/." "$STAGING/"
    chmod 0755 "$STAGING"
    mv -T "$STAGING" "$RELEASE"
    # A new link renamed over the old one: /opt/herald always points at a complete image. A running Herald keeps
    # the files it started from (the launcher resolves the link) until it is restarted.
    ln -sfn "$RELEASE" /opt/.herald-link
    mv -T /opt/.herald-link /opt/herald
    echo "installed $RELEASE; /opt/herald points to it${CURRENT:+ (previously $CURRENT)}"
fi

install -d -o root -g herald -m 0750 /etc/herald
# The operator's files from here on: created once, never overwritten.
if [ ! -e /etc/herald/herald.yaml ]; then
    install -o root -g herald -m 0640 "$CHECKOUT/config/prod.yaml" /etc/herald/herald.yaml
    echo "created /etc/herald/herald.yaml from config/prod.yaml"
fi
if [ ! -e /etc/herald/herald.env ]; then
    # umask 077 from the first byte: the secrets file is never readable by others, even briefly.
    (umask 077 && cat > /etc/herald/herald.env) <<'ENV'
# Herald's secrets, read by systemd (EnvironmentFile=) as root and given to the service as environment variables.
# Keep this file root:root 0600. One NAME=value a line; after a change: systemctl restart herald.
#DB_CONNECTION_URL=jdbc:mariadb://db.internal:3306/herald
#DB_CONNECTION_USERNAME=herald
#DB_CONNECTION_PASSWORD=
# Bearer tokens of the management API, comma-separated, each at least 32 characters (a shorter one stops Herald);
# make each with: openssl rand -hex 32
#ADMIN_TOKENS=
# More heap for a busy instance (the launcher's default is 80 MB):
#HERALD_JAVA_OPTS=-Xmx512m
ENV
    chown root:root /etc/herald/herald.env
    chmod 0600 /etc/herald/herald.env
    echo "created /etc/herald/herald.env: fill in the secrets"
fi
install -d -o herald -g herald -m 0750 /var/lib/herald

install -o root -g root -m 0644 "$CHECKOUT/deploy/herald.service" /etc/systemd/system/herald.service
if command -v restorecon >/dev/null; then
    restorecon -R /opt/herald /opt/herald-* /etc/herald /var/lib/herald /etc/systemd/system/herald.service
fi
systemctl daemon-reload

IN_USE=$(readlink -f /opt/herald)
INSTALLED=$(for release in /opt/herald-*; do
    if [ "$release" = "$IN_USE" ]; then echo "  $release (current)"; else echo "  $release"; fi
done)
if systemctl is-active --quiet herald; then
    START="systemctl restart herald               (Herald is running the image it started with)"
else
    START="systemctl enable --now herald"
fi
cat <<NEXT

Next:
  edit /etc/herald/herald.env (secrets) and, if needed, /etc/herald/herald.yaml
  $START
  curl -fsS http://127.0.0.1:8081/observe/health/ready
  journalctl -u herald -f
Installed images (roll back: ln -sfn /opt/herald-<older> /opt/.herald-link && mv -T /opt/.herald-link /opt/herald,
then systemctl restart herald; delete old ones when no longer needed):
$INSTALLED
NEXT
