"""What the benchmark scripts share: the project's virtualenv, a throw-away app environment and database,
gunicorn on a free local port, timed requests to 127.0.0.1, the machine's other load and percentiles."""
import contextlib
import http.client
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"


class BenchError(Exception):
    """The benchmark cannot run (failed migration, server that will not start)."""


def ensure_venv_python() -> None:
    """Re-run under the project's virtualenv, whose packages the app and the scripts need."""
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
        "RATELIMIT_ENABLED": "false",  # production refuses memory:// otherwise; nothing here tests limits
        "RATELIMIT_STORAGE_URI": "memory://",
        "JOBS_URL": f"sqlite:///{folder / 'jobs.sqlite3'}",
        "JOBS_IN_WEB": "false",
    }


def database_url(requested: str | None, folder: Path) -> str:
    """The PostgreSQL database asked for (created if missing), else a SQLite file in `folder`."""
    if not requested:
        return f"sqlite:///{folder / 'shop.db'}"
    ensure_postgres_database(requested)
    return requested


def ensure_postgres_database(url: str) -> None:
    """Create the PostgreSQL database named by url when it does not exist."""
    import psycopg
    from sqlalchemy.engine import make_url
    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (parsed.database,)).fetchone():
            conn.execute(f'CREATE DATABASE "{parsed.database}"')


def run_flask(env: dict[str, str], *args: str) -> str:
    """Run `flask --app wsgi <args>` on the benchmark's database; its output. :raise BenchError: it failed."""
    done = subprocess.run([str(VENV_BIN / "flask"), "--app", "wsgi", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BenchError(f"flask {' '.join(args)} failed:\n{(done.stdout + done.stderr)[-3000:]}")
    return done.stdout


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port: int, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, float, bytes]:
    """(status, milliseconds, body) of one request to 127.0.0.1 on a fresh connection, body read to the end
    (sync workers close theirs after every answer, so the time includes a local TCP connect)."""
    data = None if body is None else json.dumps(body).encode()
    all_headers = {**({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})}
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        reply = response.read()
    finally:
        connection.close()
    return response.status, (time.perf_counter() - started) * 1000, reply


def get(port: int, path: str) -> tuple[int, float]:
    """(status, milliseconds) of one GET."""
    status, elapsed, _ = request(port, "GET", path)
    return status, elapsed


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int, log_path: Path):
    """The app under gunicorn (sync workers) on a free port; yields the port; always stopped."""
    port = free_port()
    # One thread: with gunicorn.conf.py's thread count gunicorn would turn the sync class into gthread.
    command = [str(VENV_BIN / "gunicorn"), "--no-control-socket", "-w", str(workers), "-k", "sync", "--threads", "1",
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
        stop(process)


def stop(process: subprocess.Popen) -> None:
    """SIGTERM (gunicorn's graceful stop), then SIGKILL if it lingers."""
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


def interleaved(port: int, send, items) -> tuple[list[float], list[float], int]:
    """(milliseconds of each send(item), of the GET /api/health after it, count of non-200 answers):
    the health check is the floor of the same server on the same machine at the same moment."""
    timings, floor, failures = [], [], 0
    for item in items:
        status, elapsed = send(item)
        failures += status != 200
        timings.append(elapsed)
        floor.append(get(port, "/api/health")[1])
    return timings, floor, failures


def load_line(idle_share: float) -> str:
    """How busy the machine was before the run, and whether the figures can count as unloaded."""
    return (f"  other load before the run: {idle_share:.0%} of the CPUs busy"
            + (" (not idle: figures are not unloaded)" if idle_share > 0.25 else ""))


def figures_lines(timings: list[float], floor: list[float], failures: int) -> list[str]:
    """The percentiles of a run, its floor and its failures, as printed."""
    return [f"  p50 {percentile(timings, 0.50):.2f} ms   p90 {percentile(timings, 0.90):.2f} ms   "
            f"p99 {percentile(timings, 0.99):.2f} ms   max {max(timings):.2f} ms   "
            f"mean {statistics.fmean(timings):.2f} ms",
            f"  /api/health, interleaved (the machine's floor): p50 {percentile(floor, 0.50):.2f} ms   "
            f"p99 {percentile(floor, 0.99):.2f} ms",
            f"  non-200 answers: {failures}"]
