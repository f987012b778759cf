# shellcheck shell=bash
# Sourced by cluster/check.sh and cluster/faults.sh, with NAME set: what both need to start the local cluster afresh,
# talk to it, and stop it however they end.
export CLUSTER_DIR=${CLUSTER_DIR:-target/cluster-$NAME}
TOKEN=cluster-admin-token-0123456789abcdef0123456789
log() { printf '[cluster-%s] %s\n' "$NAME" "$*"; }
fail() { printf '[cluster-%s] %s\n' "$NAME" "$*" >&2; exit 1; }
sql() { mariadb --protocol=tcp -h127.0.0.1 -P"$1" -uroot -N -B herald -e "$2"; }
admin() { curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$@"; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }

trap 'bash cluster/run.sh down > /dev/null 2>&1 || true' EXIT
bash cluster/run.sh clean > /dev/null 2>&1 || true
