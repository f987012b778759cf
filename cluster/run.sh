#!/usr/bin/env bash
# Herald on a three-node MariaDB Galera cluster, all on this machine's loopback (issue 21):
#   cluster/run.sh up      three Galera nodes (MariaDB ports 13307-13309), three Herald instances (18091-18093,
#                          operations 18191-18193) each given all three nodes, nginx in front (18090); waits until
#                          every part answers, then prints where each is
#   cluster/run.sh down    stops everything it started, and only that
#   cluster/run.sh status  what runs
#   cluster/run.sh kill-node N    kills Galera node N at once (SIGKILL), as a crash or a lost host would
#   cluster/run.sh start-node N   starts node N again; it rejoins by incremental state transfer
#   cluster/run.sh isolate-node N cuts node N off from the other two (Galera's gmcast.isolate), as a network
#                                 partition would; rejoin-node N ends that
#   cluster/run.sh restart-nodes  stops the three nodes cleanly and starts the cluster again (the last one stopped
#                                 bootstraps it), as after a power cut or a maintenance of all hosts
#   cluster/run.sh kill-herald N  kills Herald instance N at once (SIGKILL); start-herald N starts it again
#   cluster/run.sh restart-herald N   takes instance N out of nginx, stops it (SIGTERM, it drains), starts it from
#                                 the current target/herald.jar, waits until it is ready and puts it back: one
#                                 step of a rolling upgrade.
#                                 FIRST_NODE=k lists node k first in its URL (it then writes through node k); with
#                                 start-herald, ONLY_NODE=k gives it node k alone (N may be 4: outside nginx)
#                                 TRACKING_MAX_WAIT (default PT15S) is each instance's tracking.batch.max-wait:
#                                 longer than a failover, so that a batch it delays is answered 204 late, not 500
#                                 TRACKING_MAX_IN_FLIGHT (default 8) is each instance's tracking.batch.max-in-flight,
#                                 TRACKING_LINGER (default PT0.001S) its tracking.batch.linger (docs/scale-out.md)
# CLUSTER_DIR (default target/cluster): data directories, configuration and logs; `down` keeps them, `clean` removes
# them. Herald runs from a copy of target/herald.jar and target/libs/ taken by `up` and `restart-herald` (mvn -q package -DskipTests
# first): a rebuild must not change the classes under a running instance. Needs: mariadb-server and galera-4
# (Debian), rsync (state transfer), nginx; a JDK >= 21.
# The topology and why: docs/scale-out.md. Production: deploy/ (compose and Kubernetes) shows the same with real hosts.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(realpath -m "${CLUSTER_DIR:-target/cluster}")
NODES=(1 2 3)
GALERA_LIB=${GALERA_LIB:-/usr/lib/galera/libgalera_smm.so}
# Fixed ports below Linux's ephemeral range (32768-60999): one there can be taken by any outgoing connection, and a
# node that cannot listen for its state transfer aborts (seen: IST port 45683 in use, the node gone).
DB_PORT() { echo $((13306 + $1)); }
GCOMM_PORT() { echo $((14570 + $1)); }
IST_PORT() { echo $((14580 + $1)); }
SST_PORT() { echo $((14590 + $1)); }
HERALD_PORT() { echo $((18090 + $1)); }
OBSERVE_PORT() { echo $((18190 + $1)); }
BALANCER_PORT=18090
TOKEN=cluster-admin-token-0123456789abcdef0123456789
log() { printf '[cluster] %s\n' "$*"; }
die() { printf '[cluster] %s\n' "$*" >&2; exit 1; }

. tools/jdk.sh
use_jdk 21 java

# As root, the nodes run as mysql: the rsync daemon of a state transfer, started by root, would write as nobody.
if [ "$(id -u)" = 0 ]; then DB_USER=mysql; else DB_USER=$(id -un); fi

sql() { local node=$1; shift; mariadb --protocol=tcp -h127.0.0.1 -P"$(DB_PORT "$node")" -uroot -N -B "$@"; }
pid_of() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null && cat "$1"; }

node_config() {
    local n=$1
    local members
    members=$(for m in "${NODES[@]}"; do printf '127.0.0.1:%s,' "$(GCOMM_PORT "$m")"; done)
    cat > "$DIR/node$n.cnf" <<CNF
[mariadbd]
datadir=$DIR/node$n/data
socket=$DIR/node$n/mysqld.sock
pid-file=$DIR/node$n/mysqld.pid
port=$(DB_PORT "$n")
bind-address=127.0.0.1
log-error=$DIR/node$n/error.log
skip-name-resolve
innodb_buffer_pool_size=128M
innodb_log_file_size=48M
character-set-server=utf8mb4
collation-server=utf8mb4_bin
# Galera: row-based replication, InnoDB, interleaved auto-increments (each node steps its own).
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
wsrep_on=ON
wsrep_provider=$GALERA_LIB
wsrep_cluster_name=herald_local
wsrep_cluster_address=gcomm://${members%,}
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$(GCOMM_PORT "$n")
wsrep_provider_options=gmcast.listen_addr=tcp://127.0.0.1:$(GCOMM_PORT "$n");ist.recv_addr=127.0.0.1:$(IST_PORT "$n");gcache.size=64M
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(SST_PORT "$n")
CNF
}

start_node() {
    local n=$1 bootstrap=${2:-}
    mkdir -p "$DIR/node$n/data"
    node_config "$n"
    [ "$(id -u)" != 0 ] || chown -R "$DB_USER" "$DIR/node$n"
    if [ -n "$bootstrap" ] && [ ! -d "$DIR/node$n/data/mysql" ]; then
        mariadb-install-db --defaults-file="$DIR/node$n.cnf" --user="$DB_USER" --auth-root-authentication-method=normal \
            > "$DIR/node$n/install.log" 2>&1 || { cat "$DIR/node$n/install.log"; die "node$n: install failed"; }
    fi
    # shellcheck disable=SC2086  # $bootstrap is one option or none
    mariadbd --defaults-file="$DIR/node$n.cnf" --user="$DB_USER" $bootstrap > "$DIR/node$n/stdout.log" 2>&1 &
    echo $! > "$DIR/node$n/mariadbd.pid"
    wait_until "node$n" "$DIR/node$n/mariadbd.pid" "$DIR/node$n/error.log" 240 0.5 "2 minutes" node_synced "$n"
    log "node$n synced: 127.0.0.1:$(DB_PORT "$n")"
}

node_synced() { [ "$(sql "$1" -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2)" = Synced ]; }
herald_ready() { curl -s -o /dev/null -f "http://127.0.0.1:$(OBSERVE_PORT "$1")/observe/health/ready"; }

# wait_until NAME PIDFILE LOG TRIES PAUSE WITHIN CHECK...: runs CHECK until it succeeds; stops the script with the
# log's tail when the process exits first or the tries run out.
wait_until() {
    local name=$1 pidfile=$2 logfile=$3 tries=$4 pause=$5 within=$6
    shift 6
    for _ in $(seq 1 "$tries"); do
        "$@" && return
        kill -0 "$(cat "$pidfile")" 2>/dev/null || { tail -30 "$logfile"; die "$name exited"; }
        sleep "$pause"
    done
    tail -30 "$logfile"
    die "$name not ready within $within"
}

jdbc_url() {
    local first=${1:-1} hosts
    if [ -n "${ONLY_NODE:-}" ]; then echo "jdbc:mariadb://127.0.0.1:$(DB_PORT "$ONLY_NODE")/herald"; return; fi
    hosts=$(for m in "${NODES[@]}"; do printf '127.0.0.1:%s,' "$(DB_PORT $(( (first + m - 2) % ${#NODES[@]} + 1 )))"; done)
    # sequential: every instance writes through the first node that answers, in the order given. Herald bounds the
    # driver's retries itself (retriesAllDown 2, deniedListTimeout 2 s; docs/scale-out.md); JDBC_OPTIONS: others.
    echo "jdbc:mariadb:sequential://${hosts%,}/herald${JDBC_OPTIONS:+?$JDBC_OPTIONS}"
}

start_herald() {
    local n=$1
    mkdir -p "$DIR/herald$n"
    rm -rf "$DIR/herald$n/app" && mkdir "$DIR/herald$n/app" && cp -r target/herald.jar target/libs "$DIR/herald$n/app/"
    env DB_CONNECTION_URL="$(jdbc_url "${FIRST_NODE:-1}")" DB_CONNECTION_USERNAME=root DB_CONNECTION_PASSWORD='' \
        SERVER_HOST=127.0.0.1 SERVER_PORT="$(HERALD_PORT "$n")" OBSERVE_PORT="$(OBSERVE_PORT "$n")" \
        ADMIN_TOKENS=$TOKEN RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES=127.0.0.1 HOSTNAME="herald$n" \
        WEBHOOKS_ALLOWED_DASH_ADDRESSES=127.0.0.1/32 \
        TRACKING_BATCH_MAX_DASH_WAIT="${TRACKING_MAX_WAIT:-PT15S}" TRACKING_BATCH_MAX_DASH_IN_DASH_FLIGHT="${TRACKING_MAX_IN_FLIGHT:-8}" \
        TRACKING_BATCH_LINGER="${TRACKING_LINGER:-PT0.001S}" \
        "$JAVA_HOME/bin/java" -XX:+UseSerialGC -Xmx80m -jar "$DIR/herald$n/app/herald.jar" "$PWD/config/prod.yaml" \
        >> "$DIR/herald$n/herald.log" 2>&1 &
    echo $! > "$DIR/herald$n/herald.pid"
}

await_herald() {
    local n=$1
    wait_until "herald$n" "$DIR/herald$n/herald.pid" "$DIR/herald$n/herald.log" 240 0.25 "60 s" herald_ready "$n"
    log "herald$n ready: http://127.0.0.1:$(HERALD_PORT "$n") (operations $(OBSERVE_PORT "$n"))"
}

# An instance named in $DIR/nginx/down is left out (marked down): it is being upgraded.
balancer_config() {
    local servers
    servers=$(for n in "${NODES[@]}"; do
        printf '        server 127.0.0.1:%s max_fails=1 fail_timeout=2s%s;\n' "$(HERALD_PORT "$n")" \
            "$(grep -qx "$n" "$DIR/nginx/down" 2>/dev/null && echo ' down')"
    done)
    cat > "$DIR/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $DIR/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $DIR/nginx/body;
    proxy_temp_path $DIR/nginx/proxy;
    upstream herald {
        # Each client address to one instance: the per-client rate limit, kept per instance, is then exact.
        hash \$remote_addr consistent;
$servers
        keepalive 32;
    }
    server {
        listen 127.0.0.1:$BALANCER_PORT;
        location / {
            proxy_pass http://herald;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For \$remote_addr;
            proxy_next_upstream error timeout http_502 http_503;
        }
    }
}
CONF
}

start_balancer() {
    mkdir -p "$DIR/nginx"
    rm -f "$DIR/nginx/down"
    balancer_config
    nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" 2> "$DIR/nginx/start.log" || { cat "$DIR/nginx/start.log"; die "nginx did not start"; }
    for _ in $(seq 1 40); do
        curl -s -o /dev/null "http://127.0.0.1:$BALANCER_PORT/api/v1/public/notifications" && { log "nginx: http://127.0.0.1:$BALANCER_PORT"; return; }
        sleep 0.25
    done
    die "nginx does not answer"
}

up() {
    [ -f target/herald.jar ] || die "no target/herald.jar: mvn -q package -DskipTests first"
    for tool in mariadbd mariadb-install-db rsync nginx curl; do command -v $tool > /dev/null || die "$tool is missing"; done
    [ -f "$GALERA_LIB" ] || die "no Galera library at $GALERA_LIB (Debian: galera-4)"
    mkdir -p "$DIR"
    start_node 1 --wsrep-new-cluster
    sql 1 -e "CREATE DATABASE IF NOT EXISTS herald CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
    start_node 2
    start_node 3
    log "cluster size: $(sql 1 -e "SHOW STATUS LIKE 'wsrep_cluster_size'" | cut -f2)"
    # All three at the same moment, on an empty database: they migrate one at a time (docs/behaviour.md).
    for n in "${NODES[@]}"; do start_herald "$n"; done
    for n in "${NODES[@]}"; do await_herald "$n"; done
    start_balancer
    log "up; admin token $TOKEN; cluster/run.sh down stops it"
}

down() {
    local pid
    if pid=$(pid_of "$DIR/nginx/nginx.pid"); then kill "$pid"; log "nginx stopped"; fi
    local instances
    instances=$(cd "$DIR" 2>/dev/null && ls -d herald* 2>/dev/null | sed 's/^herald//' || true)
    for n in $instances; do
        if pid=$(pid_of "$DIR/herald$n/herald.pid"); then kill "$pid"; log "herald$n stopping"; fi
    done
    for n in $instances; do
        if pid=$(pid_of "$DIR/herald$n/herald.pid"); then
            for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
    done
    for n in 3 2 1; do
        if pid=$(pid_of "$DIR/node$n/mariadbd.pid"); then
            kill "$pid"
            for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            log "node$n stopped"
        fi
    done
}

status() {
    local pid
    for n in "${NODES[@]}"; do
        pid=$(pid_of "$DIR/node$n/mariadbd.pid") && echo "node$n: pid $pid, $(sql "$n" -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2)" || echo "node$n: down"
    done
    for n in "${NODES[@]}"; do
        pid=$(pid_of "$DIR/herald$n/herald.pid") && echo "herald$n: pid $pid" || echo "herald$n: down"
    done
    pid=$(pid_of "$DIR/nginx/nginx.pid") && echo "nginx: pid $pid" || echo "nginx: down"
}

kill_node() {
    local n=$1 pid
    pid=$(pid_of "$DIR/node$n/mariadbd.pid") || die "node$n is not running"
    kill -9 "$pid"
    log "node$n killed"
}

isolate_node() {
    sql "$1" -e "SET GLOBAL wsrep_provider_options='gmcast.isolate=$2'"
    log "node$1 $([ "$2" = 1 ] && echo 'cut off from the others' || echo 'connected to the others again')"
}

# The last node stopped has every commit and is marked safe_to_bootstrap (grastate.dat): it starts the cluster.
restart_nodes() {
    local pid
    for n in 3 2 1; do
        pid=$(pid_of "$DIR/node$n/mariadbd.pid") || die "node$n is not running"
        kill "$pid"
        for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        log "node$n stopped"
    done
    grep -q '^safe_to_bootstrap: 1' "$DIR/node1/data/grastate.dat" || die "node1 is not safe to bootstrap: $DIR/node1/data/grastate.dat"
    start_node 1 --wsrep-new-cluster
    start_node 2
    start_node 3
}

# Takes instance $1 out of the balancer ($2 = out) or puts it back (in). A reload lets the old workers finish the
# requests they hold, and new ones no longer choose the instance: its requests are not cut, as they would be by
# stopping it under the balancer (5 of 6,000 answered 502 in a rolling restart without this).
balance() {
    local n=$1
    if [ "$2" = out ]; then echo "$n" >> "$DIR/nginx/down"; else sed -i "/^$n\$/d" "$DIR/nginx/down"; fi
    balancer_config
    nginx -c "$DIR/nginx/nginx.conf" -p "$DIR/nginx" -s reload 2> /dev/null
    # The old workers exit once their requests are answered.
    sleep 1
    log "herald$n $([ "$2" = out ] && echo 'taken out of' || echo 'back in') the balancer"
}

stop_herald() {
    local n=$1 signal=$2 pid
    pid=$(pid_of "$DIR/herald$n/herald.pid") || die "herald$n is not running"
    kill "-$signal" "$pid"
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && die "herald$n did not stop within 30 s"
    log "herald$n stopped ($signal)"
}

case "${1:-}" in
    up) up ;;
    kill-node) kill_node "${2:?which node}" ;;
    start-node) start_node "${2:?which node}" ;;
    isolate-node) isolate_node "${2:?which node}" 1 ;;
    rejoin-node) isolate_node "${2:?which node}" 0 ;;
    restart-nodes) restart_nodes ;;
    kill-herald) stop_herald "${2:?which instance}" KILL ;;
    restart-herald)
        balance "${2:?which instance}" out
        stop_herald "$2" TERM
        start_herald "$2"
        await_herald "$2"
        balance "$2" in ;;
    start-herald) start_herald "${2:?which instance}"; await_herald "$2" ;;
    down) down ;;
    status) status ;;
    clean) down; rm -rf "$DIR"; log "removed $DIR" ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
