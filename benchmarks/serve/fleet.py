"""The fleet half of `make bench-serve` (issue 22): `patchcli serve` replicas over one store and one
PostgreSQL event store.

A PostgreSQL server of its own (initdb in the run's directory, `postgres` on a free loopback port; as
the `postgres` user when run as root, which PostgreSQL refuses) and 1, 2 and 4 replicas of
`patchcli serve --events postgres://…` over the same store. wrk drives them with check.lua: one wrk
per replica, the connections split between them (what a round-robin load balancer does, without its
own cost on these 2 cores); checks/s is the sum, p99 the worst replica's. Then events.lua posts
device events to the replicas: events/s answered 202, how deep the write queue got
(`patchcli_serve_events_pending`, sampled every second), the p99 of a write's wait in the queue
from its 202 to its commit (`patchcli_serve_event_queue_wait_seconds`, all replicas' buckets summed
over the events run) and how long after the run the queue took to drain; every event answered 202
must be in the database (counted with psql afterwards).
"""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECK_LUA = HERE / "check.lua"
EVENTS_LUA = HERE / "events.lua"
QUEUE_WAIT = "patchcli_serve_event_queue_wait_seconds"


def postgres_binaries() -> Path | None:
    candidates = [Path(p) for p in os.environ.get("PATH", "").split(":") if p]
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        candidates += sorted((d / "bin" for d in debian.iterdir()), key=lambda d: d.parent.name, reverse=True)
    for directory in candidates:
        if all((directory / tool).exists() for tool in ("initdb", "postgres", "psql")):
            return directory
    return None


class Postgres:
    """A throwaway PostgreSQL server on loopback, trust authentication for the user `patchcli`."""

    def __init__(self, port: int):
        self.bin = postgres_binaries()
        # Its own directory under /tmp: the run's directory (mkdtemp, mode 0700) is not open to the postgres user.
        self.work, self.port = Path(tempfile.mkdtemp(prefix="patchpg-bench-")), port
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.work, "postgres", "postgres")
            self.prefix = ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"]
        subprocess.run(self.prefix + [str(self.bin / "initdb"), "-D", str(self.work / "data"), "-U", "patchcli",
                                      "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True)
        log = open(self.work / "postgres.log", "w")
        self.process = subprocess.Popen(
            self.prefix + [str(self.bin / "postgres"), "-D", str(self.work / "data"), "-k", str(self.work),
                           "-p", str(port), "-h", "127.0.0.1", "-c", "max_connections=50"],
            stdout=log, stderr=log)
        for _ in range(600):
            pid_file = self.work / "data" / "postmaster.pid"
            if pid_file.exists() and pid_file.read_text().strip().endswith("ready"):
                break
            time.sleep(0.05)
        self.psql("CREATE DATABASE events", database="postgres")

    def url(self) -> str:
        return f"postgres://patchcli@127.0.0.1:{self.port}/events?sslmode=disable"

    def psql(self, sql: str, database: str = "events") -> str:
        return subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "patchcli",
                               "-d", database, "-tAc", sql], check=True, capture_output=True, text=True).stdout.strip()

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=30)
        shutil.rmtree(self.work, ignore_errors=True)


def scrape(port: int) -> str:
    """A replica's /metrics text; empty when it does not answer."""
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2).read().decode()
    except OSError:
        return ""


def metric(port: int, name: str) -> float:
    match = re.search(rf"^{name} ([\d.e+]+)$", scrape(port), re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def histogram(port: int, name: str) -> dict[float, float]:
    """A histogram's cumulative bucket counts by upper bound (`le`, +Inf as inf); empty when the
    server does not answer."""
    text = scrape(port)
    return {float(le): float(count) for le, count in re.findall(rf'^{name}_bucket{{le="([^"]+)"}} ([\d.e+]+)$', text, re.MULTILINE)}


def summed_buckets(ports: list[int], name: str) -> dict[float, float]:
    total: dict[float, float] = {}
    for port in ports:
        for le, count in histogram(port, name).items():
            total[le] = total.get(le, 0.0) + count
    return total


def quantile(q: float, before: dict[float, float], after: dict[float, float]) -> float | None:
    """What Prometheus' histogram_quantile gives over the observations between two scrapes: linear
    within the bucket the rank falls in (the last finite bound when it falls in +Inf); None without
    observations."""
    bounds = sorted(after)
    counts = [after[le] - before.get(le, 0.0) for le in bounds]
    if not counts or counts[-1] <= 0:
        return None
    rank = q * counts[-1]
    lower, below = 0.0, 0.0
    for le, cumulative in zip(bounds, counts):
        if cumulative >= rank:
            if le == float("inf"):
                return lower
            return lower + (le - lower) * (rank - below) / max(cumulative - below, 1e-12)
        lower, below = le, cumulative
    return lower


def wrk(port: int, script: Path, seconds: int, connections: int, env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), f"http://127.0.0.1:{port}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **env})


def parse(text: str) -> dict:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50, p99, requests, bad = (int(v) for v in re.search(
        r"BENCH p50_us=(\d+) p99_us=(\d+) requests=(\d+) non2xx_errors=(\d+)", text).groups())
    return {"rps": rps, "p50_ms": p50 / 1000, "p99_ms": p99 / 1000, "requests": requests, "non2xx": bad}


def drive_replicas(ports: list[int], script: Path, seconds: int, connections: int, env: dict) -> dict:
    """One wrk per replica at once, the connections split; sums and worst cases, and the write
    queue's depth sampled every second."""
    depths: list[float] = []
    stop = threading.Event()

    def sample():
        while not stop.wait(1.0):
            depths.append(sum(metric(port, "patchcli_serve_events_pending") for port in ports))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    share = max(1, connections // len(ports))
    # Each replica's wrk walks devices from its own offset, so replicas see different devices.
    runs = [wrk(port, script, seconds, share, {**env, "BENCH_OFFSET": str(index * 5000)}) for index, port in enumerate(ports)]
    results = []
    for process in runs:
        out, err = process.communicate()
        if process.returncode != 0:
            raise RuntimeError(f"wrk failed: {err}")
        results.append(parse(out))
    stop.set()
    sampler.join()
    return {
        "rps": sum(r["rps"] for r in results), "p50_ms": max(r["p50_ms"] for r in results),
        "p99_ms": max(r["p99_ms"] for r in results), "requests": sum(r["requests"] for r in results),
        "non2xx": sum(r["non2xx"] for r in results), "max_pending": max(depths, default=0.0),
    }


def run_fleet(patchcli: Path, store: Path, work: Path, replicas: list[int], seconds: int, connections: int,
              env: dict, free_port, say) -> dict:
    """Checks and events through 1, 2, 4 replicas over one PostgreSQL; returns rows for the doc."""
    postgres = Postgres(free_port())
    rows = {"checks": [], "events": []}
    try:
        for count in replicas:
            servers, ports = [], []
            for index in range(count):
                port = free_port()
                server = subprocess.Popen(
                    [str(patchcli), "serve", "--store", str(store), "--port", str(port), "--events", postgres.url(),
                     "--log-file", str(work / f"requests-{count}-{index}.log")],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                line = server.stdout.readline()
                if "serving" not in line:
                    raise RuntimeError(f"replica did not start: {line}{server.stderr.read()}")
                servers.append(server)
                ports.append(port)
            try:
                say(f"{count} replica(s) over PostgreSQL: warm-up 5 s, checks {seconds} s, events {seconds} s")
                drive_replicas(ports, CHECK_LUA, 5, connections, env)
                checks = drive_replicas(ports, CHECK_LUA, seconds, connections, env)
                rows["checks"].append((count, checks))
                before = int(postgres.psql("SELECT count(*) FROM events"))
                waits_before = summed_buckets(ports, QUEUE_WAIT)
                events = drive_replicas(ports, EVENTS_LUA, seconds, connections, env)
                started = time.monotonic()
                while sum(metric(port, "patchcli_serve_events_pending") for port in ports) > 0 and time.monotonic() - started < 120:
                    time.sleep(0.2)
                events["drain_s"] = time.monotonic() - started
                events["queue_wait_p99_ms"] = (lambda p99: None if p99 is None else p99 * 1000)(
                    quantile(0.99, waits_before, summed_buckets(ports, QUEUE_WAIT)))
                events["stored"] = int(postgres.psql("SELECT count(*) FROM events")) - before
                events["rejected"] = sum(metric(port, "patchcli_serve_events_rejected_total") for port in ports)
                rows["events"].append((count, events))
            finally:
                for server in servers:
                    server.send_signal(signal.SIGTERM)
                for server in servers:
                    server.wait(timeout=60)
    finally:
        postgres.stop()
    return rows


def section_lines(rows: dict, seconds: int, connections: int) -> list[str]:
    lines = [
        "",
        "### Replicas over PostgreSQL",
        "",
        f"The same checks through N replicas of `patchcli serve --events postgres://…` over one store and one "
        f"PostgreSQL on the same machine (one wrk per replica, {connections} connections split between them, {seconds} s); "
        "then device events (`POST /api/v1/events`) the same way: answered 202 per second, the write queue's deepest "
        "(all replicas, sampled each second), the p99 of a write's wait in that queue from its 202 to its commit "
        "(`patchcli_serve_event_queue_wait_seconds`, interpolated within its bucket as Prometheus' histogram_quantile "
        "does), and the time it took to drain after the run. Every event answered 202 was counted in the database afterwards.",
        "",
        "| replicas | checks/s | p50 ms | p99 ms | non-2xx |",
        "|---:|---:|---:|---:|---:|",
    ]
    for count, r in rows["checks"]:
        lines.append(f"| {count} | {r['rps']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['non2xx']} |")
    lines += [
        "",
        "| replicas | events/s (202) | p99 ms | 503 (queue full) | deepest queue | queue wait p99 ms | drain after run s | answered 202 = stored |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for count, r in rows["events"]:
        accepted = r["requests"] - r["non2xx"]
        kept = "yes" if r["stored"] >= accepted else f"NO ({r['stored']} of {accepted})"
        wait = "n/a" if r.get("queue_wait_p99_ms") is None else f"{r['queue_wait_p99_ms']:.1f}"
        lines.append(f"| {count} | {r['rps'] * accepted / max(r['requests'], 1):,.0f} | {r['p99_ms']:.2f} | {r['rejected']:.0f} | "
                     f"{r['max_pending']:.0f} | {wait} | {r['drain_s']:.1f} | {kept} |")
    lines += [
        "",
        "Replicas here share the machine's 2 CPUs with each other, wrk and PostgreSQL: the rows show how replicas "
        "share one box and what the shared database costs, not how they scale across machines.",
    ]
    return lines
