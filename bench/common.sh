# shellcheck shell=bash
# Sourced by bench/image.sh and bench/startup.sh: what both need to start Herald's image against a feed.

# The SQL of one project, its key $1 and 20 current notifications: the feed both benches start against.
bench_feed_sql() {
    local key=$1 now
    now=$(($(date +%s) * 1000))
    echo "INSERT INTO projects (id, name, created_at) VALUES ('bench', 'Bench', $now);"
    echo "INSERT INTO api_keys (api_key, project_id, show_past, show_future, order_by, created_at, revoked_at) VALUES ('$key', 'bench', FALSE, FALSE, 'createdAt_desc', $now, NULL);"
    for i in $(seq 1 20); do
        echo "INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, updated_at)"\
             "VALUES ('bench_$i', 'bench', 'PUBLISHED', 'Notification $i', 'NO_ACTION', 'default', $now, $now);"
    done
}

# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
