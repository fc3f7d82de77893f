"""Delivery-to-PIN benchmark: unloaded p50/p99 of GET /api/delivery/{pin} through gunicorn.

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/delivery.py                    # SQLite, 2,000 requests
    .venv/bin/python bench/delivery.py --wait-idle 600    # on a machine other people are using
    .venv/bin/python bench/delivery.py --database-url postgresql://postgres@127.0.0.1/bookstore_bench_delivery

It migrates a throw-away database (a SQLite file in a temporary folder, or the PostgreSQL database
named, created if missing), starts the real app with gunicorn (2 sync workers, the project's
gunicorn.conf.py, production settings), times the first answer (a worker reading the PIN
directory), warms both workers up, then sends the requests one after another over random real PINs
from the directory (seeded, so runs compare), each followed by a GET /api/health (the floor of the
same server on the same machine at the same moment; one database query too), and prints p50, p90,
p99 and the maximum against the target: p99 at most 5 ms unloaded. Each request opens its own
connection, as sync workers close theirs after every answer, so the figures include a local TCP
connect. Exit status: 0, or 1 with --strict when the target is missed, 2 when the benchmark cannot
run.
"""
import argparse
import contextlib
import http.client
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
TARGET_P99_MS = 5.0


class BenchError(Exception):
    """The benchmark cannot run (failed migration, server that will not start)."""


def ensure_venv_python() -> None:
    """Re-run under the project's virtualenv, whose packages the app and the directory need."""
    venv_python = VENV_BIN / "python"
    if venv_python.exists() and Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        os.execv(str(venv_python), [str(venv_python), *sys.argv])


def app_env(database_url: str, folder: Path) -> dict[str, str]:
    """Production settings on the throw-away database; no job consumer, nothing written to instance/."""
    return {
        **os.environ,
        "BOOKSTORE_ENV": "production",
        "DATABASE_URL": database_url,
        "MEDIA_ROOT": str(folder / "media"),
        "SECRET_KEY": secrets.token_hex(32),
        "JWT_SECRET_KEY": secrets.token_hex(32),
        "PUBLIC_URL": "http://127.0.0.1",
        "RATELIMIT_ENABLED": "false",  # the endpoint is exempt anyway; production refuses memory:// otherwise
        "RATELIMIT_STORAGE_URI": "memory://",
        "JOBS_URL": f"sqlite:///{folder / 'jobs.sqlite3'}",
        "JOBS_IN_WEB": "false",
    }


def ensure_postgres_database(url: str) -> None:
    """Create the PostgreSQL database named by url when it does not exist."""
    import psycopg
    from sqlalchemy.engine import make_url
    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (parsed.database,)).fetchone():
            conn.execute(f'CREATE DATABASE "{parsed.database}"')


def migrate(env: dict[str, str]) -> None:
    done = subprocess.run([str(VENV_BIN / "flask"), "--app", "wsgi", "db", "upgrade"], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"flask db upgrade failed:\n{(done.stdout + done.stderr)[-3000:]}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str) -> tuple[int, float]:
    """(status, milliseconds) of one GET on a fresh connection, body read to the end."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, (time.perf_counter() - started) * 1000


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int, log_path: Path):
    """The app under gunicorn (sync workers) on a free port; yields the port; always stopped."""
    port = free_port()
    command = [str(VENV_BIN / "gunicorn"), "--no-control-socket", "-w", str(workers), "-k", "sync",
               "-b", f"127.0.0.1:{port}", "wsgi:app"]
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise BenchError(f"gunicorn exited ({process.returncode}):\n{log_path.read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                if get(port, "/api/health")[0] == 200:
                    break
            if time.monotonic() > deadline:
                raise BenchError(f"gunicorn did not become healthy:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.2)
        yield port
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def busy_share(seconds: float = 2.0) -> float:
    """Share of all CPUs busy over the next `seconds` (from /proc/stat)."""
    def sample() -> tuple[int, int]:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + values[4]  # idle and iowait
        return sum(values) - idle, sum(values)
    busy_before, total_before = sample()
    time.sleep(seconds)
    busy_after, total_after = sample()
    return (busy_after - busy_before) / max(1, total_after - total_before)


def wait_for_idle(limit: float, threshold: float = 0.25) -> float:
    """Wait (up to `limit` seconds) until under `threshold` of the CPUs are busy; the last share seen."""
    deadline = time.monotonic() + limit
    share = busy_share()
    while share > threshold and time.monotonic() < deadline:
        share = busy_share()
    return share


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile of values (share in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(share * len(ordered) + 0.5)) - 1))]


def run(args) -> bool:
    sys.path.insert(0, str(ROOT))
    from bookstore.services import pin_directory
    rng = random.Random(args.seed)
    pins = rng.choices(pin_directory.pins(), k=args.requests)
    with tempfile.TemporaryDirectory(prefix="bench-delivery-") as scratch:
        folder = Path(scratch)
        if args.database_url:
            ensure_postgres_database(args.database_url)
            database_url = args.database_url
        else:
            database_url = f"sqlite:///{folder / 'shop.db'}"
        env = app_env(database_url, folder)
        migrate(env)
        with gunicorn(env, args.workers, folder / "gunicorn.log") as port:
            idle_share = wait_for_idle(args.wait_idle) if args.wait_idle else busy_share()
            status, cold_ms = get(port, "/api/delivery/560001")
            if status != 200:
                raise BenchError(f"/api/delivery/560001 answered {status}")
            for pin in rng.choices(pins, k=args.warmup):
                get(port, f"/api/delivery/{pin}")
            timings, floor, failures = [], [], 0
            for pin in pins:
                status, elapsed = get(port, f"/api/delivery/{pin}")
                failures += status != 200
                timings.append(elapsed)
                floor.append(get(port, "/api/health")[1])
    p99 = percentile(timings, 0.99)
    kind = "PostgreSQL" if args.database_url else "SQLite"
    print(f"GET /api/delivery/{{pin}}: gunicorn {args.workers} sync workers, {kind}, {args.requests:,} sequential "
          f"requests over random real PINs (after {args.warmup} warm-up requests)")
    print(f"  other load before the run: {idle_share:.0%} of the CPUs busy"
          + (" (not idle: figures are not unloaded)" if idle_share > 0.25 else ""))
    print(f"  first answer (a worker reading the directory): {cold_ms:.0f} ms")
    print(f"  p50 {percentile(timings, 0.50):.2f} ms   p90 {percentile(timings, 0.90):.2f} ms   "
          f"p99 {p99:.2f} ms   max {max(timings):.2f} ms   mean {statistics.fmean(timings):.2f} ms")
    print(f"  /api/health, interleaved (the machine's floor): p50 {percentile(floor, 0.50):.2f} ms   "
          f"p99 {percentile(floor, 0.99):.2f} ms")
    print(f"  non-200 answers: {failures}")
    ok = p99 <= TARGET_P99_MS and failures == 0
    print(f"  {'PASS' if ok else 'FAIL'}: p99 {p99:.2f} ms (target at most {TARGET_P99_MS:g} ms unloaded)")
    return ok


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="timed requests (default 2000)")
    parser.add_argument("--warmup", type=int, default=200, help="untimed requests first (default 200)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers (default 2)")
    parser.add_argument("--seed", type=int, default=14, help="random seed of the PINs asked for")
    parser.add_argument("--database-url", help="a PostgreSQL URL instead of a temporary SQLite file")
    parser.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                        help="on a shared machine, wait up to this long for the CPUs to be mostly idle")
    parser.add_argument("--strict", action="store_true", help="exit 1 when the target is missed")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    ensure_venv_python()
    args = parse_args(argv)
    try:
        ok = run(args)
    except BenchError as error:
        print(f"bench/delivery.py: {error}", file=sys.stderr)
        return 2
    return 0 if ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
