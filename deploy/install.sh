#!/usr/bin/env bash
# Installs or upgrades Herald on a systemd VM, as root:
#   deploy/install.sh [image directory, default target/herald-image]     (build it first: jlink/build.sh)
# Lays out /opt/herald-<stamp> with /opt/herald pointing at it (the previous one is kept: rolling back is pointing
# the link back), /etc/herald/herald.yaml and herald.env (created once, never overwritten), /var/lib/herald, and
# the systemd unit. Running it again upgrades; it changes nothing an operator wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE=${1:-target/herald-image}
[ "$(id -u)" = 0 ] || { echo "run as root"; exit 1; }
[ -x "$IMAGE/bin/herald" ] || { echo "no runtime image at $IMAGE: run jlink/build.sh first"; exit 1; }

if ! getent group herald >/dev/null; then
    groupadd --system herald
fi
if ! getent passwd herald >/dev/null; then
    useradd --system --gid herald --home-dir /var/lib/herald --no-create-home --shell /usr/sbin/nologin herald
fi

# A new directory per install, then the link moved in one rename: a running Herald keeps its files until restart.
TARGET=/opt/herald-$(date -u +%Y%m%d%H%M%S)
cp -a "$IMAGE" "$TARGET"
chown -R root:root "$TARGET"
ln -sfn "$TARGET" /opt/herald.new
mv -T /opt/herald.new /opt/herald
echo "installed $TARGET, /opt/herald points to it"

install -d -o root -g herald -m 0750 /etc/herald
if [ ! -e /etc/herald/herald.yaml ]; then
    install -o root -g herald -m 0640 config/prod.yaml /etc/herald/herald.yaml
    echo "created /etc/herald/herald.yaml from config/prod.yaml"
fi
if [ ! -e /etc/herald/herald.env ]; then
    install -o root -g root -m 0600 /dev/null /etc/herald/herald.env
    cat > /etc/herald/herald.env <<'ENV'
# Read by systemd (EnvironmentFile), not by Herald: secrets that must not live in herald.yaml.
#DB_CONNECTION_URL=jdbc:mariadb://db.internal:3306/herald
#DB_CONNECTION_USERNAME=herald
#DB_CONNECTION_PASSWORD=
#ADMIN_TOKENS=a-long-random-token
ENV
    echo "created /etc/herald/herald.env: fill in the secrets"
fi
install -d -o herald -g herald -m 0750 /var/lib/herald

install -o root -g root -m 0644 deploy/herald.service /etc/systemd/system/herald.service
systemctl daemon-reload

cat <<NEXT
Next:
  edit /etc/herald/herald.env (and /etc/herald/herald.yaml if needed)
  systemctl enable --now herald        (an upgrade: systemctl restart herald; migrations run at start)
  curl -fsS http://127.0.0.1:8080/observe/health/ready
  journalctl -u herald -f
Installed versions: $(ls -d /opt/herald-* | tr '\n' ' ')
NEXT
