#!/usr/bin/env python3
"""The chaos run of `infra/cluster chaos` (issue 19): load through nginx while faults are injected in turn.

    python3 infra/cluster-chaos.py --data=.data/cluster --bin=PATH/handoff --seconds=150

Load (threads, each request timed): payments with their paymentId as idempotency key (a failed attempt is retried
with the same body until it is answered 200), resolves of the handoff codes those payments minted, e-mail recovery
requests, entitlement lookups (S2S, through the read replica). Faults, one per phase of equal length: kill an API
instance and restart it; kill a worker while it holds a mail job (a claimed attempt whose stream entry is in that
worker's pending list) and restart it; SIGSTOP the Redis master for 10 s; fail Redis over through Sentinel; crash the
Postgres primary and promote the standby (pgbouncer follows through its hook, infra/deploy/pgbouncer-follow-primary,
which the cluster runs every second); restart pgbouncer. Then it waits for the jobs to settle and counts, on the
primary: every acknowledged payment recorded exactly once, every code redeemed at most once, every job done once or
dead with its reason, the job killed in the worker's hands done once, `handoff audit verify`. Two queue counts are
kept apart: the stream entries Redis lost in a failover (measured here: after each master switch, the `enqueued` jobs
whose noted entry the new master does not hold) and the jobs the sweeper put back from Postgres (the workers' log
lines, by job id); every entry lost must come back as a job done once. Prints a table (fault, requests, failed, max
latency, lost, duplicated, entries lost, swept back) and exits 1 on any loss or duplicate, or when a request waited
longer than --max-latency.
"""
import argparse
import datetime
import glob
import http.client
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import uuid


def read_env(path):
    values = {}
    with open(path) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("export "):
                line = line[len("export "):]
            if "=" in line and not line.startswith("#"):
                key, value = line.split("=", 1)
                values[key] = value
    return values


class Cluster:
    def __init__(self, data, binary):
        self.data = data
        self.binary = binary
        self.ports = {k: int(v) for k, v in read_env(os.path.join(data, "ports.env")).items()}
        self.demo = read_env(os.path.join(data, "demo.env"))
        self.root = os.path.dirname(os.path.dirname(os.path.abspath(data)))
        self.pg_bin = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")

    def script(self, *arguments):
        return subprocess.run([os.path.join(self.root, "infra", "cluster"), *arguments], cwd=self.root,
                              capture_output=True, text=True, timeout=120)

    def pid(self, name):
        with open(os.path.join(self.data, "run", name + ".pid")) as handle:
            return int(handle.read().strip())

    def signal(self, name, number):
        os.kill(self.pid(name), number)

    def psql(self, port, sql, database="postgres", user="postgres"):
        result = subprocess.run([os.path.join(self.pg_bin, "psql"), "-h", "127.0.0.1", "-p", str(port), "-U", user,
                                 "-d", database, "-qtA", "-c", sql], capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise RuntimeError(result.stderr.strip())
        return result.stdout.strip()

    def primary_port(self):
        for port in (self.ports["PG1_PORT"], self.ports["PG2_PORT"]):
            try:
                if self.psql(port, "SELECT pg_is_in_recovery()") == "f":
                    return port
            except Exception:
                pass
        return None

    def as_pg_user(self, arguments):
        if os.getuid() == 0:
            arguments = ["runuser", "-u", "postgres", "--"] + arguments
        return subprocess.run(arguments, capture_output=True, text=True, timeout=120)

    def redis(self, port, *arguments):
        return subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), *arguments], capture_output=True,
                              text=True, timeout=10).stdout.strip()

    def redis_master_port(self):
        answer = self.redis(self.ports["S1_PORT"], "SENTINEL", "get-master-addr-by-name", "handoff").split()
        return int(answer[1]) if len(answer) == 2 else None

    def sentinel_has_good_replica(self):
        """Whether the first Sentinel lists a replica of `handoff` that is up with its link to the master up."""
        lines = self.redis(self.ports["S1_PORT"], "SENTINEL", "REPLICAS", "handoff").splitlines()
        replicas = []  # redis-cli prints the replicas' field/value pairs one after another; each starts with name
        for key, value in zip(lines[0::2], lines[1::2]):
            if key == "name":
                replicas.append({})
            if replicas:
                replicas[-1][key] = value
        return any(r.get("flags") == "slave" and r.get("master-link-status") == "ok" for r in replicas)

    def pgbouncer_target_port(self):
        """The port pgbouncer sends `handoff` to now (SHOW DATABASES on its admin console)."""
        try:
            for line in self.psql(self.ports["PGB_PORT"], "SHOW DATABASES", database="pgbouncer").splitlines():
                fields = line.split("|")
                if fields[0] == "handoff":
                    return int(fields[2])
        except Exception:
            pass
        return None

    def job_in_hand(self, worker, timeout, max_age_ms):
        """Waits until `worker` holds a mail job mid-attempt: its stream entry is in one of the worker's consumers'
        pending lists and the job row is `enqueued` with a claimed attempt whose lease runs, claimed less than
        `max_age_ms` ago (so the SMTP sink's delay still holds the send). Returns the job id and the attempt's age in
        ms, or None after `timeout` seconds."""
        deadline = time.time() + timeout
        marker = "-%d-mail-" % self.pid(worker)
        while time.time() < deadline:
            master = self.redis_master_port()
            lines = self.redis(master, "XPENDING", "handoff:jobs:mail", "workers", "-", "+", "100").splitlines()
            entries = [lines[i] for i in range(0, len(lines) - 3, 4) if marker in lines[i + 1]]
            if entries:
                held = self.psql(self.primary_port(), "SELECT job_id, (extract(epoch FROM now() - attempt_started_at) "
                                 "* 1000)::int FROM jobs WHERE state = 'enqueued' AND attempt_id IS NOT NULL AND "
                                 "lease_until > now() AND attempt_started_at > now() - make_interval(secs => %f) "
                                 "AND stream_entry IN (%s) LIMIT 1"
                                 % (max_age_ms / 1000.0, ",".join("'%s'" % e for e in entries)),
                                 database="handoff", user="handoff")
                if held:
                    job, age = held.split("|")
                    return int(job), int(age)
            time.sleep(0.02)
        return None

    def swept_back(self):
        """(time, count, job ids, of them with a noted entry Redis lost) for every "jobs swept back to pending" line
        of the workers' logs."""
        found = []
        for path in glob.glob(os.path.join(self.data, "log", "work*.log")):
            with open(path, errors="replace") as handle:
                for line in handle:
                    if "jobs swept back to pending" not in line:
                        continue
                    try:
                        entry = json.loads(line)
                        at = datetime.datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp()
                        jobs = [int(j) for j in str(entry.get("jobs", "")).split(",") if j]
                        found.append((at, int(entry["requeued"]), jobs, int(entry.get("entriesLost", 0))))
                    except (ValueError, KeyError):
                        pass
        return found

    def missing_entries(self, master, entries):
        """The ids among `entries` that no job stream on the Redis at `master` holds (one Lua call)."""
        if not entries:
            return set()
        keys = [k for k in self.redis(master, "--scan", "--pattern", "handoff:jobs:*").splitlines() if k]
        script = ("local missing = {} for _, id in ipairs(ARGV) do local held = false "
                  "for _, key in ipairs(KEYS) do if #redis.call('XRANGE', key, id, id) > 0 then held = true end end "
                  "if not held then table.insert(missing, id) end end return missing")
        answer = [line for line in self.redis(master, "EVAL", script, str(len(keys)), *keys, *entries).splitlines()
                  if line]
        if any(not re.fullmatch(r"[0-9]+-[0-9]+", line) for line in answer):
            raise RuntimeError("EVAL answered %s" % answer[:3])
        return set(answer)

    def enqueued_entries(self):
        """{job id: stream entry} of the `enqueued` jobs whose entry the relay noted, on the primary now."""
        rows = self.psql(self.primary_port(), "SELECT job_id, stream_entry FROM jobs WHERE state = 'enqueued' AND "
                         "stream_entry IS NOT NULL", database="handoff", user="handoff")
        return {int(job): entry for job, entry in (line.split("|") for line in rows.splitlines() if line)}


class RedisLossWatcher:
    """Counts the stream entries Redis loses in failovers, independently of the sweeper: it follows the Sentinels'
    answer, and after each master switch (1, 2.5 and 4 s after it, which covers writes the old master took before it
    was demoted) finds the `enqueued` jobs whose noted entry the new master does not hold, and that are still
    `enqueued` with that entry once Redis was asked. The sweeper waits JOB_VISIBILITY_TIMEOUT_SECONDS (10 s in the
    cluster) before it puts such a job back, so the checks see the loss before the repair."""

    def __init__(self, cluster, log):
        self.cluster = cluster
        self.log = log
        self.stop = threading.Event()
        self.lost = {}  # job id -> (entry, when the switch was seen)
        self.switches = []  # (time, old master port, new master port)

    def check(self, master, switched_at):
        try:
            before = self.cluster.enqueued_entries()
            missing = self.cluster.missing_entries(master, sorted(set(before.values())))
            after = self.cluster.enqueued_entries()
        except Exception as error:  # a Postgres or Redis fault of the same moment: the next check tries again
            self.log("loss check after the Redis switch failed: %s" % error)
            return
        for job, entry in before.items():
            if entry in missing and after.get(job) == entry and job not in self.lost:
                self.lost[job] = (entry, switched_at)

    def run(self):
        master = None
        pending = []  # (when to check, master, switched at)
        while not self.stop.is_set():
            try:
                now_master = self.cluster.redis_master_port()
            except Exception:
                now_master = None
            now = time.time()
            if now_master and master and now_master != master:
                self.switches.append((now, master, now_master))
                pending += [(now + delay, now_master, now) for delay in (1.0, 2.5, 4.0)]
            if now_master:
                master = now_master
            for item in [p for p in pending if p[0] <= now]:
                pending.remove(item)
                if item[1] == master:
                    self.check(item[1], item[2])
            time.sleep(0.2)

    def start(self):
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def finish(self):
        self.stop.set()
        self.thread.join(timeout=30)


class Load:
    """Threads sending requests through nginx; every attempt is recorded as (start, seconds, op, outcome)."""

    def __init__(self, cluster, threads):
        self.cluster = cluster
        self.threads = threads
        self.key = cluster.demo["SECRET_KEY"]
        self.project = cluster.demo["PROJECT_ID"]
        self.lock = threading.Lock()
        self.attempts = []
        self.acknowledged = {}  # paymentId -> (guid, code, email)
        self.acknowledged_at = {}  # paymentId -> when the 200 arrived
        self.unresolved = []
        self.resolved_ok = {}  # code -> number of 200 answers
        self.stop = threading.Event()
        self.stale_reads = 0
        self.abandoned = 0  # payments never answered 200 within 60 s of retries

    def request(self, method, path, body=None, s2s=False):
        connection = http.client.HTTPConnection("127.0.0.1", self.cluster.ports["NGINX_PORT"], timeout=40)
        headers = {"Content-Type": "application/json"}
        if s2s:
            headers["Authorization"] = "Bearer " + self.key
        started = time.time()
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            status = response.status
        except Exception:
            status, payload = "error", b""
        finally:
            connection.close()
        seconds = time.time() - started
        return started, seconds, status, payload

    def record(self, op, started, seconds, status):
        with self.lock:
            self.attempts.append((started, seconds, op, status))

    def pay(self):
        guid = str(uuid.uuid4())
        payment_id = "chaos-" + uuid.uuid4().hex[:16]
        email = "buyer-%s@example.com" % uuid.uuid4().hex[:10]
        body = {"guid": guid, "paymentId": payment_id, "amount": 499, "currency": "USD", "productId": "pro",
                "entitlement": "pro", "expiresAt": None, "email": email}
        deadline = time.time() + 60
        while time.time() < deadline:
            started, seconds, status, payload = self.request("POST", "/s2s/v1/payments", body, s2s=True)
            self.record("payment", started, seconds, status)
            if status == 200:
                answer = json.loads(payload)
                with self.lock:
                    self.acknowledged[payment_id] = (guid, answer["handoff"]["code"], email)
                    self.acknowledged_at[payment_id] = time.time()
                    self.unresolved.append(answer["handoff"]["code"])
                return
            if status not in ("error", 502, 503, 504):
                with self.lock:
                    self.attempts.append((started, seconds, "payment-refused-%s" % status, status))
                return
            time.sleep(0.2)
        with self.lock:
            self.abandoned += 1

    def resolve(self):
        with self.lock:
            if not self.unresolved:
                return
            code = self.unresolved.pop(random.randrange(len(self.unresolved)))
        for _ in range(3):
            started, seconds, status, _ = self.request("GET", "/public/handoff/resolve?code=" + code)
            self.record("resolve", started, seconds, status)
            if status == 200:
                with self.lock:
                    self.resolved_ok[code] = self.resolved_ok.get(code, 0) + 1
            if status in (200, 404):
                return
            time.sleep(0.2)

    def sample(self):
        with self.lock:
            if not self.acknowledged:
                return None
            payment_id = random.choice(list(self.acknowledged.keys()))
            return payment_id, self.acknowledged[payment_id]

    def recover(self):
        picked = self.sample()
        if picked:
            body = {"projectId": self.project, "email": picked[1][2]}
            started, seconds, status, _ = self.request("POST", "/public/handoff/email-recovery/request", body)
            self.record("recovery", started, seconds, status)

    def lookup(self):
        picked = self.sample()
        if picked:
            payment_id, (guid, _, _) = picked
            started, seconds, status, payload = self.request("GET", "/s2s/v1/users/%s/entitlements" % guid,
                                                             s2s=True)
            self.record("lookup", started, seconds, status)
            if status == 200 and payment_id.encode() not in payload:
                with self.lock:
                    self.stale_reads += 1

    def worker(self):
        actions = [self.pay] * 5 + [self.resolve] * 2 + [self.recover] + [self.lookup] * 2
        while not self.stop.is_set():
            random.choice(actions)()

    def start(self):
        self.running = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.threads)]
        for thread in self.running:
            thread.start()

    def finish(self):
        self.stop.set()
        for thread in self.running:
            thread.join(timeout=90)


def inject(cluster, fault, log, notes):
    """Runs one fault; returns when the cluster should be whole again (or as whole as the fault leaves it)."""
    if fault == "kill serve1, restart":
        cluster.signal("serve1", 9)
        time.sleep(3)
        log(cluster.script("respawn", "serve1").stderr.strip())
    elif fault == "kill work1 mid-job, restart":
        # Mid-job means the job is still `enqueued` once the worker is dead: the attempt was claimed (its codes and
        # address reservation committed) and its outcome never was. A kill that lands after the send finished is
        # not one: respawn and try again, up to three times.
        for attempt in range(1, 4):
            held = cluster.job_in_hand("work1", timeout=20, max_age_ms=notes["smtp_delay_ms"] / 2)
            cluster.signal("work1", 9)
            if not held:
                log("work1 held no young mail attempt within 20 s: killed it anyway")
                notes["kill_tries"] = attempt
                break
            state = cluster.psql(cluster.primary_port(), "SELECT state FROM jobs WHERE job_id = %d" % held[0],
                                 database="handoff", user="handoff")
            log("killed work1 while it held mail job %d (attempt %d ms old; right after the kill: %s)"
                % (held[0], held[1], state))
            notes["kill_tries"] = attempt
            if state == "enqueued":
                notes["killed_job"], notes["killed_job_state"] = held[0], state
                break
            time.sleep(1)
            log(cluster.script("respawn", "work1").stderr.strip())
            time.sleep(2)
        time.sleep(3)
        log(cluster.script("respawn", "work1").stderr.strip())
    elif fault == "SIGSTOP Redis master 10 s":
        master = cluster.redis_master_port()
        name = "redis1" if master == cluster.ports["RD1_PORT"] else "redis2"
        cluster.signal(name, 19)
        time.sleep(10)
        cluster.signal(name, 18)
    elif fault == "Redis failover (Sentinel)":
        # Right after the SIGSTOP phase the former master may still be resyncing as a replica, and Sentinel refuses
        # (-failover-abort-no-good-slave): wait until it reports a replica whose link is up, and ask again (at most
        # three times) until the master changes.
        before = cluster.redis_master_port()
        for attempt in range(1, 4):
            for _ in range(150):
                if cluster.sentinel_has_good_replica():
                    break
                time.sleep(0.1)
            answer = cluster.redis(cluster.ports["S1_PORT"], "SENTINEL", "FAILOVER", "handoff")
            for _ in range(50):
                if cluster.redis_master_port() != before:
                    break
                time.sleep(0.1)
            if cluster.redis_master_port() != before:
                break
            log("SENTINEL FAILOVER answered %s; the master did not change (try %d of 3)" % (answer, attempt))
        notes["redis_failed_over"] = cluster.redis_master_port() != before
        log("redis master %s -> %s" % (before, cluster.redis_master_port()))
    elif fault == "crash Postgres primary, promote":
        old = cluster.primary_port()
        new = cluster.ports["PG2_PORT"] if old == cluster.ports["PG1_PORT"] else cluster.ports["PG1_PORT"]
        old_dir = os.path.join(cluster.data, "pg1" if old == cluster.ports["PG1_PORT"] else "pg2", "postgres")
        new_dir = os.path.join(cluster.data, "pg2" if old == cluster.ports["PG1_PORT"] else "pg1", "postgres")
        cluster.as_pg_user([os.path.join(cluster.pg_bin, "pg_ctl"), "-D", old_dir, "-m", "immediate", "-w", "stop"])
        with open(os.path.join(cluster.data, "FAILED_OVER"), "w") as handle:
            handle.write("the primary on %d was crashed; the standby on %d is the primary now\n" % (old, new))
        cluster.as_pg_user([os.path.join(cluster.pg_bin, "pg_ctl"), "-D", new_dir, "-w", "promote"])
        # No standby is left: a synchronous primary would wait for one forever (what a failover manager also does).
        cluster.psql(new, "ALTER SYSTEM RESET synchronous_standby_names")
        cluster.psql(new, "SELECT pg_reload_conf()")
        # The hook (process pgfollow, every second) points pgbouncer at the new primary; nothing is done here.
        promoted = time.time()
        while cluster.pgbouncer_target_port() != new and time.time() < promoted + 30:
            time.sleep(0.1)
        notes["pgbouncer_followed_s"] = time.time() - promoted if cluster.pgbouncer_target_port() == new else None
        log("pgbouncer followed the promotion after %s s" % (
            "%.1f" % notes["pgbouncer_followed_s"] if notes["pgbouncer_followed_s"] is not None else "more than 30"))
    elif fault == "restart pgbouncer":
        log(cluster.script("respawn", "pgbouncer", "--restart").stderr.strip())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--seconds", type=int, default=150)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--max-latency", type=float, default=30.0)
    parser.add_argument("--smtp-delay-ms", type=int, default=300, help="the cluster SMTP sink's delay per mail")
    options = parser.parse_args()
    cluster = Cluster(options.data, options.bin)
    faults = ["baseline", "kill serve1, restart", "kill work1 mid-job, restart", "SIGSTOP Redis master 10 s",
              "Redis failover (Sentinel)", "crash Postgres primary, promote", "restart pgbouncer"]
    phase_seconds = max(12.0, options.seconds / len(faults))

    def log(message):
        if message:
            print("[chaos] " + message, file=sys.stderr, flush=True)

    load = Load(cluster, options.threads)
    load.start()
    watcher = RedisLossWatcher(cluster, log)
    watcher.start()
    phases = []
    notes = {"smtp_delay_ms": options.smtp_delay_ms}
    for fault in faults:
        started = time.time()
        log("phase: " + fault)
        inject(cluster, fault, log, notes)
        remaining = phase_seconds - (time.time() - started)
        if remaining > 0:
            time.sleep(remaining)
        phases.append((fault, started, time.time()))
    log("stopping the load")
    load.finish()
    time.sleep(4.5)  # the checks of a switch in the last seconds
    watcher.finish()

    # Let the workers finish what the load queued (jobs settle in done or dead).
    primary = cluster.primary_port()
    org = cluster.demo["ORG_ID"]
    for _ in range(120):
        open_jobs = int(cluster.psql(primary, "SELECT count(*) FROM jobs WHERE state IN ('pending','enqueued')",
                                     database="handoff", user="handoff") or 0)
        if open_jobs == 0:
            break
        time.sleep(1)

    recorded = {}
    for line in cluster.psql(primary, "SELECT data->>'paymentId', count(*) FROM events WHERE org_id = '%s' AND "
                             "event_type = 'PaymentRecorded' GROUP BY 1" % org, database="handoff",
                             user="handoff").splitlines():
        payment_id, count = line.split("|")
        recorded[payment_id] = int(count)
    redeemed_twice = cluster.psql(primary, "SELECT count(*) FROM (SELECT data->>'codeHash' FROM events WHERE "
                                  "org_id = '%s' AND event_type = 'HandoffCodeRedeemed' GROUP BY 1 "
                                  "HAVING count(*) > 1) AS twice" % org, database="handoff", user="handoff")
    mails_twice = cluster.psql(primary, "SELECT count(*) FROM (SELECT data->>'requestId' FROM events WHERE "
                               "org_id = '%s' AND event_type = 'RecoveryMailSent' GROUP BY 1 "
                               "HAVING count(*) > 1) AS twice" % org, database="handoff", user="handoff")
    jobs = cluster.psql(primary, "SELECT state, count(*), count(*) FILTER (WHERE state = 'dead' AND "
                        "coalesce(last_error, '') = '') FROM jobs GROUP BY state ORDER BY state",
                        database="handoff", user="handoff")
    environment = dict(os.environ, MIGRATION_DATABASE_URL="postgresql://handoff@127.0.0.1:%d/handoff" % primary)
    audit = subprocess.run([options.bin, "audit", "verify"], capture_output=True, text=True, env=environment,
                           timeout=300)

    lost_payments = [p for p in load.acknowledged if recorded.get(p, 0) == 0]
    duplicated_payments = [p for p, n in recorded.items() if n > 1]
    double_resolves = [c for c, n in load.resolved_ok.items() if n > 1]

    print()
    def is_failure(attempt):
        return attempt[3] == "error" or (isinstance(attempt[3], int) and attempt[3] >= 500)

    swept = cluster.swept_back()
    print("| fault | requests | failed (5xx/conn) | which | max latency s | acked payments | lost | duplicated "
          "| entries lost by Redis | swept back from Postgres |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for fault, begin, end in phases:
        inside = [a for a in load.attempts if begin <= a[0] < end]
        failed = [a for a in inside if is_failure(a)]
        kinds = {}
        for attempt in failed:
            label = "%s %s" % (attempt[2], attempt[3])
            kinds[label] = kinds.get(label, 0) + 1
        which = ", ".join("%s ×%d" % item for item in sorted(kinds.items())) or "–"
        latency = max((a[1] for a in inside), default=0.0)
        worst = max(worst, latency)
        acked = [p for p, at in load.acknowledged_at.items() if begin <= at < end]
        lost = sum(1 for p in acked if p in lost_payments)
        twice = sum(1 for p in acked if p in duplicated_payments)
        last = fault == phases[-1][0]
        back = sum(n for at, n, _, _ in swept if begin <= at and (at < end or last))
        entries = sum(1 for _, at in watcher.lost.values() if begin <= at and (at < end or last))
        print("| %s | %d | %d | %s | %.2f | %d | %d | %d | %d | %d |" % (
            fault, len(inside), len(failed), which, latency, len(acked), lost, twice, entries, back))
    total_failed = sum(1 for a in load.attempts if is_failure(a))
    print("| **whole run** | %d | %d | | %.2f | %d | %d | %d | %d | %d |" % (
        len(load.attempts), total_failed, worst, len(load.acknowledged), len(lost_payments),
        len(duplicated_payments), len(watcher.lost), sum(n for _, n, _, _ in swept)))
    print()
    refused = sum(1 for a in load.attempts if a[2].startswith("payment-refused"))
    print("acknowledged payments %d, recorded %d, lost %d, recorded twice %d, refused (4xx) %d, given up after "
          "60 s of retries %d" % (len(load.acknowledged), len(recorded), len(lost_payments),
                                  len(duplicated_payments), refused, load.abandoned))
    print("codes resolved %d, answered 200 twice %d, redeemed twice in the log %s" % (
        len(load.resolved_ok), len(double_resolves), redeemed_twice))
    print("recovery mails sent twice for one request: %s; jobs by state (state|count|dead without reason): %s" % (
        mails_twice, jobs.replace("\n", ", ")))
    print("entitlement lookups that missed an acknowledged payment (read-your-writes): %d" % load.stale_reads)
    killed_ok = True
    if "killed_job" in notes:
        fate = cluster.psql(primary, "SELECT state, attempt, coalesce(outcome, ''), (SELECT count(*) FROM events e "
                            "WHERE e.event_type = 'RecoveryMailSent' AND "
                            "e.data->>'requestId' = j.payload->>'requestId') FROM jobs j WHERE job_id = %d"
                            % notes["killed_job"], database="handoff", user="handoff")
        state, attempts, rest = fate.split("|", 2)
        outcome, sent = rest.rsplit("|", 1)
        killed_ok = state in ("done", "dead") and int(sent) <= 1
        print("job %d killed in work1's hands (then %s): now %s, failed attempts %s, outcome \"%s\", "
              "RecoveryMailSent %s" % (notes["killed_job"], notes["killed_job_state"], state, attempts, outcome, sent))
        print("(the kill landed mid-job on try %d of 3)" % notes["kill_tries"])
    else:
        killed_ok = False
        print("no job was caught in work1's hands (%d tries): the worker kill was not mid-job this run"
              % notes.get("kill_tries", 0))
    swept_jobs = set(j for _, _, jobs_, _ in swept for j in jobs_)
    print("Redis master switches seen: %s" % (", ".join("%d -> %d" % (a, b) for _, a, b in watcher.switches)
                                                or "none"))
    lost_ok = True
    if watcher.lost:
        fates = {}
        for line in cluster.psql(primary, "SELECT job_id, state FROM jobs WHERE job_id IN (%s)" % ",".join(
                str(j) for j in watcher.lost), database="handoff", user="handoff").splitlines():
            job, state = line.split("|")
            fates[int(job)] = state
        back = sorted(j for j in watcher.lost if j in swept_jobs)
        held = sorted(j for j in watcher.lost if j not in swept_jobs)
        lost_ok = all(state in ("done", "dead") for state in fates.values()) and len(fates) == len(watcher.lost)
        states = sorted(set(fates.values()))
        print("stream entries Redis lost in failovers: %d (jobs %s); of them swept back from Postgres: %d, finished "
              "without the sweeper (a worker held the entry when it was lost): %d %s; their jobs now: %s" % (
                  len(watcher.lost), ",".join(map(str, sorted(watcher.lost))), len(back), len(held), held,
                  ", ".join("%s %d" % (state, list(fates.values()).count(state)) for state in states)))
    else:
        print("stream entries Redis lost in failovers: 0")
    print("jobs swept back to pending by the sweeper: %d in %d sweeps (%d with a noted entry Redis no longer held, "
          "%d with none noted)" % (sum(n for _, n, _, _ in swept), len(swept), sum(e for _, _, _, e in swept),
                                   sum(n - e for _, n, _, e in swept)))
    if "pgbouncer_followed_s" in notes:
        print("pgbouncer followed the promotion (hook) after %s s" % (
            "%.1f" % notes["pgbouncer_followed_s"] if notes["pgbouncer_followed_s"] is not None else "> 30"))
    mails = len(glob.glob(os.path.join(cluster.data, "mail", "*.eml")))
    sent_events = cluster.psql(primary, "SELECT count(*) FROM events WHERE org_id = '%s' AND "
                               "event_type = 'RecoveryMailSent'" % org, database="handoff", user="handoff")
    print("mails the SMTP sink accepted: %d, RecoveryMailSent: %s (the difference: sends whose outcome never "
          "committed — a worker killed, or Postgres gone, after the relay accepted the mail — sent again on the "
          "retry; the at-least-once window of docs/jobs.md)" % (mails, sent_events))
    if notes.get("redis_failed_over") is False:
        print("the Redis failover phase did not fail Redis over: SENTINEL FAILOVER was refused three times")
    print("handoff audit verify: exit %d %s" % (audit.returncode, audit.stdout.strip()[-200:]))
    failed = (lost_payments or duplicated_payments or load.abandoned or double_resolves or redeemed_twice != "0"
              or not killed_ok or not lost_ok or notes.get("pgbouncer_followed_s", 0) is None
              or notes.get("redis_failed_over") is False
              or mails_twice != "0"
              or audit.returncode != 0 or worst > options.max_latency or load.stale_reads
              or any(line.split("|")[0] in ("pending", "enqueued") or line.split("|")[2] != "0"
                     for line in jobs.splitlines() if line))
    print("RESULT: %s (latency bound %.0f s)" % ("FAIL" if failed else "PASS", options.max_latency))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
