# Shared shell functions for infra/dev, infra/test and bench/*: install what is missing, start and stop a
# project-local Postgres and Redis. Sourced, never run. Every server listens on 127.0.0.1 on a free port.

HANDOFF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

# Debian packages the build, the service and the tests need.
HANDOFF_PACKAGES=(
    libpq-dev libhiredis-dev libssl-dev libmicrohttpd-dev libcurl4-openssl-dev
    postgresql-15 redis-server python3 python3-aiosmtpd
)

log() { printf '\033[1m[handoff]\033[0m %s\n' "$*" >&2; }
die() { printf '[handoff] error: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Installs the Debian packages from the list (plus any given as arguments) that are not installed yet.
ensure_packages() {
    local missing=() p
    for p in "${HANDOFF_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed"
    command -v swift >/dev/null || die "swift is not on PATH (Swift 6 toolchain needed)"
}

# The OS user that owns the Postgres cluster: the caller, or `postgres` when running as root
# (initdb and postgres refuse to run as root).
pg_os_user() {
    if [ "$(id -u)" = 0 ]; then echo postgres; else id -un; fi
}

as_pg_user() {
    local user; user="$(pg_os_user)"
    if [ "$user" = "$(id -un)" ]; then "$@"; else runuser -u "$user" -- "$@"; fi
}

# Prints a TCP port on 127.0.0.1 that nothing listens on right now, at random in 20000-32767: below Linux's ephemeral
# range (32768-60999), from which every outgoing connection takes its local port, so that no client of another
# program takes it before our server binds it (what port 0 would give). One script never gets the same port twice:
# the ports given are kept in /tmp/handoff-ports.PID of the script ($$, the same in every subshell), and the files of
# scripts that have ended are removed.
free_port() {
    python3 - "$$" <<'PY'
import glob, os, random, socket, sys
owner = sys.argv[1]
for path in glob.glob("/tmp/handoff-ports.*"):
    pid = path.rsplit(".", 1)[1]
    if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
        try: os.remove(path)
        except OSError: pass
given_path = f"/tmp/handoff-ports.{owner}"
given = set(open(given_path).read().split()) if os.path.exists(given_path) else set()
for _ in range(200):
    port = random.randrange(20000, 32768)
    if str(port) in given: continue
    probe = socket.socket()
    try:
        probe.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        probe.close()
    with open(given_path, "a") as record: record.write(f"{port}\n")
    print(port)
    sys.exit(0)
sys.exit("free_port: no free port in 20000-32767 after 200 tries")
PY
}

# start_postgres DIR PORT: creates a cluster in DIR/postgres on first use, starts it on 127.0.0.1:PORT
# with its unix socket in DIR/run, and makes the `handoff` role and database.
start_postgres() {
    local dir="$1" port="$2" pgdata="$1/postgres"
    mkdir -p "$dir/run" "$dir/log"
    if [ "$(id -u)" = 0 ]; then chown "$(pg_os_user)" "$dir" "$dir/run" "$dir/log"; fi
    if [ ! -f "$pgdata/PG_VERSION" ]; then
        log "creating Postgres cluster in $pgdata"
        mkdir -p "$pgdata"
        [ "$(id -u)" = 0 ] && chown "$(pg_os_user)" "$pgdata"
        as_pg_user "$PG_BIN/initdb" -D "$pgdata" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/log/initdb.log" 2>&1 \
            || { cat "$dir/log/initdb.log" >&2; die "initdb failed"; }
        cat >>"$pgdata/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir/run'
max_connections = 200
shared_buffers = 256MB
fsync = ${HANDOFF_PG_FSYNC:-on}
logging_collector = off
CONF
    fi
    if ! as_pg_user "$PG_BIN/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
        as_pg_user "$PG_BIN/pg_ctl" -D "$pgdata" -l "$dir/log/postgres.log" -o "-p $port" -w -t 60 start >/dev/null \
            || { tail -20 "$dir/log/postgres.log" >&2; die "Postgres did not start (log: $dir/log/postgres.log)"; }
    fi
    local psql=("$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA)
    if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname='handoff'")" != 1 ]; then
        "${psql[@]}" -c "CREATE ROLE handoff LOGIN" >/dev/null
    fi
    # The application role used by `serve` and `work`: migrations grant it only what the service needs
    # (INSERT and SELECT on the event log); the schema belongs to `handoff`, used by `migrate`.
    if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname='handoff_app'")" != 1 ]; then
        "${psql[@]}" -c "CREATE ROLE handoff_app LOGIN" >/dev/null
    fi
    if [ "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname='handoff'")" != 1 ]; then
        "${psql[@]}" -c "CREATE DATABASE handoff OWNER handoff" >/dev/null
    fi
}

# analyze_database URL: ANALYZE every table of URL's database, as autovacuum does in production within a minute of a
# table's first 50 changes. A benchmark calls it after its warm-up and before it measures: on a fresh, never-analyzed
# table an index that starts with org_id costs the same as the primary key, Postgres keeps the newest index, and the
# server's prepared statements keep that plan (e.g. a payment looked up by scanning all of its org's payments) until
# an ANALYZE invalidates it (docs/performance.md, "Plans made on empty tables").
analyze_database() {
    # As the tables' owner: the shared catalogs it may not analyze are skipped without a warning.
    "$PG_BIN/psql" "$1" -v ON_ERROR_STOP=1 -qtA -c "SET client_min_messages = error" -c ANALYZE >/dev/null
}

stop_postgres() {
    local pgdata="$1/postgres"
    [ -f "$pgdata/postmaster.pid" ] || return 0
    as_pg_user "$PG_BIN/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null 2>&1 || true
}

# start_redis DIR PORT: a Redis with AOF on, data in DIR/redis.
start_redis() {
    local dir="$1" port="$2"
    mkdir -p "$dir/redis" "$dir/log"
    if [ -f "$dir/redis/redis.pid" ] && kill -0 "$(cat "$dir/redis/redis.pid")" 2>/dev/null; then return 0; fi
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir/redis" --appendonly yes \
        --pidfile "$dir/redis/redis.pid" --logfile "$dir/log/redis.log" --daemonize yes --save "" >/dev/null \
        || die "Redis did not start (log: $dir/log/redis.log)"
    local i
    for i in $(seq 1 100); do
        redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG && return 0
        sleep 0.1
    done
    die "Redis did not answer on port $port (log: $dir/log/redis.log)"
}

stop_redis() {
    local pidfile="$1/redis/redis.pid"
    [ -f "$pidfile" ] || return 0
    local pid; pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$pidfile"
}

# Prints `export` lines for HANDOFF_MASTER_KEY, HANDOFF_LOOKUP_PEPPER, HANDOFF_PASS_KEYS and
# HANDOFF_AUDIT_SIGNING_KEY with fresh random values (local use only: infra/dev keeps them in .data/secrets.env,
# infra/test makes new ones per run).
generate_identity_secrets() {
    local rand='head -c 32 /dev/urandom | basenc --base64url | tr -d "=\n"'
    generate_master_key
    echo "export HANDOFF_LOOKUP_PEPPER=$(eval "$rand")"
    echo "export HANDOFF_PASS_KEYS=local1:$(eval "$rand")"
    generate_audit_signing_key
}

# Prints the `export` line of a fresh HANDOFF_MASTER_KEY (32 random bytes, base64url). To rotate the master key of a
# data folder, move the old value to HANDOFF_MASTER_KEY_PREVIOUS, put this line's in its place, restart, and run
# `infra/dev keys rotate master` (docs/operations.md).
generate_master_key() {
    echo "export HANDOFF_MASTER_KEY=$(head -c 32 /dev/urandom | basenc --base64url | tr -d '=\n')"
}

# Prints the `export` line of HANDOFF_AUDIT_SIGNING_KEY: a fresh Ed25519 seed (any 32 random bytes are one), base64url.
generate_audit_signing_key() {
    echo "export HANDOFF_AUDIT_SIGNING_KEY=$(head -c 32 /dev/urandom | basenc --base64url | tr -d '=\n')"
}

# process_ticks PID → user + system CPU ticks (1/CLK_TCK s) the process has used so far (benchmarks).
process_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# postgres_ticks DIR → CPU ticks used so far by the Postgres of DIR (start_postgres): the postmaster and its live
# children (backends, WAL writer, checkpointer), and the children it has reaped (cutime, cstime).
postgres_ticks() {
    local postmaster total pid
    postmaster="$(head -n 1 "$1/postgres/postmaster.pid")"
    total=$(awk '{print $16 + $17}' "/proc/$postmaster/stat")  # children it has reaped
    for pid in "$postmaster" $(pgrep -P "$postmaster"); do
        total=$(( total + $(process_ticks "$pid" 2>/dev/null || echo 0) ))
    done
    echo "$total"
}
