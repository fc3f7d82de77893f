"""Catalogue API benchmark: gunicorn (2 workers) measured with wrk, against the issue's targets.

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/api.py                        # SQLite, 10,000 and 100,000 books
    .venv/bin/python bench/api.py --sizes 10000 --duration 3
    .venv/bin/python bench/api.py --database-url postgresql://postgres@127.0.0.1/bookstore_bench
    .venv/bin/python bench/api.py --rebuild --strict --explain
    .venv/bin/python bench/api.py --wait-idle 600    # on a machine other people are using
    .venv/bin/python bench/api.py --worker-class sync    # gunicorn's sync workers instead of gunicorn.conf.py's

For each catalogue size it builds a database once (`flask db upgrade` and `flask seed-demo --books N
--no-covers`, cached under bench/.data/ and rebuilt when the migrations or the demo data change),
starts gunicorn on a free port (2 workers of the kind gunicorn.conf.py sets, threaded, unless
--worker-class sync asks for the sync workers the shop was served with before), and runs wrk with 1 and 16 connections (3 times each, figures being
the medians: a single run's p99 swings by a third on a shared machine) against /api/health and six
catalogue endpoints (search, suggestion and detail rotate over several real values, so no single
URL is flattered by caches; filter+sort rotates over shelves and price bands, whose totals each
worker remembers after counting them once). It prints requests/s, p50 and p99, each as a ratio to
/api/health of the same server in the same run, the CPU a request costs at 16 connections in gunicorn and
in PostgreSQL (read from /proc: where a slow endpoint's time goes), the p99 growth from the smallest to
the largest catalogue, whether any GET wrote to the database, and PASS/FAIL per target. Exit status: 0, or 1 with --strict when a
target fails, 2 when the benchmark itself cannot run. Needs wrk (`apt-get install -y wrk`).

With --database-url the catalogues live in PostgreSQL databases named <name>_<size>, created (and
with --rebuild dropped) through that URL's server.
"""
import argparse
import contextlib
import hashlib
import json
import math
import os
import re
import resource
import secrets
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from harness import ROOT, VENV_BIN, BenchError, ensure_venv_python, free_port, stop

DEFAULT_DATA_DIR = Path(__file__).resolve().parent / ".data"

# The targets, for this 2-core machine.
TARGET_RPS = 300            # requests/s at 16 connections, every catalogue endpoint
TARGET_P99_MS = 100.0       # p99 at 16 connections
TARGET_SUGGEST_P99_MS = 20.0  # suggestion p99 unloaded (1 connection)
TARGET_GROWTH = 1.3         # p99 at 16 connections, largest catalogue / smallest
CONNECTIONS = (1, 16)
PAGE_SIZE = 12

# Shelves with a price band, as the filter panel asks for them. Their totals are remembered per
# worker (services/listing_counts.py), so the first request for each counts in the index.
FILTERED_LISTS = (("gate", 200, 1500), ("banking", 100, 500), ("school", 300, 2000), ("iit", 500, 1200))

# Words a study-book shop certainly sells; the ones present in the catalogue are used.
SEARCH_CANDIDATES = ("physics", "chemistry", "mathematics", "biology", "economics", "accountancy",
                     "history", "reasoning", "engineering", "english", "geography", "management")


@dataclass
class Catalogue:
    """One database holding a catalogue of `size` books, and how to point the app at it."""

    size: int
    url: str
    media_root: Path
    sqlite_path: Path | None = None

    @property
    def label(self) -> str:
        """'10,000 books (SQLite, bench/.data/sqlite-10000/books.db)' and the like."""
        kind = "SQLite" if self.sqlite_path else "PostgreSQL"
        where = self.sqlite_path.relative_to(ROOT) if self.sqlite_path and self.sqlite_path.is_relative_to(ROOT) \
            else (self.sqlite_path or self.url.rsplit("/", 1)[-1])
        return f"{self.size:,} books ({kind}, {where})"


@dataclass
class Endpoint:
    """A named endpoint and the paths wrk rotates over."""

    name: str
    paths: list[str]


@dataclass
class Result:
    """One wrk run."""

    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: dict[str, int]
    other_cpu: float = 0.0  # share of the machine's CPU used by processes other than gunicorn and wrk
    app_cpu_ms: float = 0.0  # gunicorn's CPU (master and workers) per request
    db_cpu_ms: float = 0.0  # the local PostgreSQL server's CPU per request (0 on SQLite, which runs in the app)
    note: str = ""  # why wrk did not measure this one, if it did not


@dataclass
class ServerRun:
    """Everything measured against one catalogue."""

    catalogue: Catalogue
    endpoints: list[Endpoint]
    results: dict[tuple[str, int], Result] = field(default_factory=dict)
    body_kb: dict[str, float] = field(default_factory=dict)
    writes: dict[str, str] = field(default_factory=dict)  # endpoint -> "" (none) or what changed
    run_writes: str = ""  # whole-run verdict from a before/after comparison


# ---------------------------------------------------------------- environment


def require_wrk() -> str:
    """The wrk binary, or a clear error: it is the load generator."""
    path = shutil.which("wrk")
    if not path:
        raise BenchError("wrk is not installed: apt-get install -y wrk")
    return path


def app_env(catalogue: Catalogue, env: str) -> dict[str, str]:
    """Environment for flask and gunicorn: this catalogue, no rate limits, throw-away secrets."""
    return {
        **os.environ,
        "DATABASE_URL": catalogue.url,
        "MEDIA_ROOT": str(catalogue.media_root),
        "BOOKSTORE_ENV": env,
        # Production refuses to start without them; random ones also keep the instance folder untouched.
        "SECRET_KEY": secrets.token_hex(32),
        "JWT_SECRET_KEY": secrets.token_hex(32),
        "PUBLIC_URL": "http://127.0.0.1",  # required too; the API calls timed here make no links
        "RATELIMIT_ENABLED": "false",
        "RATELIMIT_STORAGE_URI": "memory://",
        "PROXY_COUNT": "0",
    }


def raise_on_sigterm() -> None:
    """Turn SIGTERM into KeyboardInterrupt so the server is stopped on the way out."""
    def handler(_signum, _frame):
        """Unwind like Ctrl-C does."""
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


# ---------------------------------------------------------------- catalogues


def data_fingerprint() -> str:
    """Hash of what shapes a built catalogue: migrations, models and the demo catalogue package."""
    digest = hashlib.sha256()
    files = [*sorted((ROOT / "migrations" / "versions").glob("*.py")),
             *sorted((ROOT / "bookstore" / "models").glob("*.py")),
             *sorted((ROOT / "bookstore" / "demo").glob("*.py"))]
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes() if path.exists() else b"<missing>")
    return digest.hexdigest()[:16]


def run_flask(args: list[str], catalogue: Catalogue) -> None:
    """Run a `flask --app wsgi` command for the catalogue; show its output only if it fails."""
    done = subprocess.run([str(VENV_BIN / "flask"), "--app", "wsgi", *args], cwd=ROOT,
                          env=app_env(catalogue, "development"), capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-25:])
        raise BenchError(f"flask {' '.join(args)} failed ({done.returncode}):\n{tail}")


def seed(catalogue: Catalogue) -> None:
    """Migrate and fill the catalogue with the deterministic demo data."""
    if not (ROOT / "bookstore" / "demo" / "generator.py").exists():
        raise BenchError("seed-demo is not available yet (bookstore/demo/generator.py is missing)")
    started = time.monotonic()
    print(f"  building {catalogue.size:,}-book catalogue (db upgrade, seed-demo)...", end="", flush=True)
    run_flask(["db", "upgrade"], catalogue)
    run_flask(["seed-demo", "--books", str(catalogue.size), "--no-covers"], catalogue)
    print(f" {time.monotonic() - started:.0f} s", flush=True)


def book_count(url: str) -> int | None:
    """Books in the database at url, or None when it has no catalogue."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.scalar(text("SELECT count(*) FROM books"))
    except SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def checkpoint(path: Path) -> None:
    """Fold the WAL into the main file, so the file alone is the database (and can be hashed)."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def sqlite_catalogue(size: int, data_dir: Path, rebuild: bool) -> Catalogue:
    """A cached SQLite catalogue of `size` books, built (in a scratch folder, then moved) if needed."""
    folder = data_dir / f"sqlite-{size}"
    stamp_path = folder / "stamp.json"
    stamp = {"books": size, "fingerprint": data_fingerprint()}
    catalogue = Catalogue(size, f"sqlite:///{folder / 'books.db'}", folder / "media", folder / "books.db")
    if not rebuild and stamp_path.exists() and json.loads(stamp_path.read_text()) == stamp:
        return catalogue
    data_dir.mkdir(parents=True, exist_ok=True)
    # Build beside the cache, so an interrupted build never looks like a finished one.
    scratch = Path(tempfile.mkdtemp(prefix=f"sqlite-{size}.", dir=data_dir))
    scratch.chmod(0o755)
    try:
        building = Catalogue(size, f"sqlite:///{scratch / 'books.db'}", scratch / "media", scratch / "books.db")
        building.media_root.mkdir()
        seed(building)
        checkpoint(building.sqlite_path)
        count = book_count(building.url)
        if count != size:
            raise BenchError(f"seed-demo made {count} books, expected {size}")
        (scratch / "stamp.json").write_text(json.dumps(stamp))
        shutil.rmtree(folder, ignore_errors=True)
        scratch.rename(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return catalogue


def postgres_catalogue(size: int, base_url: str, data_dir: Path, rebuild: bool) -> Catalogue:
    """A PostgreSQL catalogue in database <name>_<size>, created and seeded if needed."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(base_url.replace("postgres://", "postgresql://", 1))
    if base.drivername == "postgresql":
        base = base.set(drivername="postgresql+psycopg")
    name = f"{base.database or 'bookstore_bench'}_{size}"
    url = base.set(database=name).render_as_string(hide_password=False)
    stamp_path = data_dir / f"postgres-{name}.json"
    stamp = {"books": size, "fingerprint": data_fingerprint(), "url": base.set(database=name).render_as_string()}
    catalogue = Catalogue(size, url, data_dir / f"postgres-{name}-media")
    if not rebuild and stamp_path.exists() and json.loads(stamp_path.read_text()) == stamp \
            and book_count(url) == size:
        return catalogue
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            # Identifiers cannot be bound parameters; the name comes from our own option, quoted anyway.
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    data_dir.mkdir(parents=True, exist_ok=True)
    stamp_path.unlink(missing_ok=True)
    catalogue.media_root.mkdir(parents=True, exist_ok=True)
    seed(catalogue)
    count = book_count(url)
    if count != size:
        raise BenchError(f"seed-demo made {count} books, expected {size}")
    stamp_path.write_text(json.dumps(stamp))
    return catalogue


# ---------------------------------------------------------------- what to request


def pick_endpoints(catalogue: Catalogue) -> list[Endpoint]:
    """Real values from this catalogue: ids across the middle, present words, a deep page."""
    from sqlalchemy import create_engine, text

    engine = create_engine(catalogue.url)
    try:
        with engine.connect() as connection:
            visible = connection.scalar(text("SELECT count(*) FROM books WHERE archived = :no"), {"no": False})
            ids = [connection.scalar(text("SELECT id FROM books WHERE archived = :no ORDER BY id LIMIT 1 OFFSET :k"),
                                     {"no": False, "k": int(visible * fraction)})
                   for fraction in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65)]
            words = [word for word in SEARCH_CANDIDATES
                     if connection.scalar(text("SELECT count(*) FROM (SELECT 1 FROM books WHERE archived = :no"
                                               " AND lower(title) LIKE :w LIMIT 12) AS hits"),
                                          {"no": False, "w": f"%{word}%"}) >= PAGE_SIZE]
            if len(words) < 3:
                words += common_title_words(connection, exclude=words)
    finally:
        engine.dispose()
    words = words[:6]
    if not words or visible == 0:
        raise BenchError("the catalogue has no visible books or no searchable words")
    deep_page = max(1, math.ceil(math.ceil(visible / PAGE_SIZE) * 0.8))
    return [
        Endpoint("health", ["/api/health"]),
        Endpoint("list", ["/api/books"]),
        Endpoint("filter+sort", [f"/api/books?category={shelf}&sortBy=price-low&minPrice={low}&maxPrice={high}"
                                 for shelf, low, high in FILTERED_LISTS]),
        Endpoint("deep page", [f"/api/books?page={deep_page}&limit={PAGE_SIZE}"]),
        Endpoint("search", [f"/api/books?search={word}" for word in words]),
        Endpoint("suggest", [f"/api/books/suggest?q={word[:4]}" for word in words]),
        Endpoint("detail", [f"/api/books/{book_id}" for book_id in ids]),
    ]


def common_title_words(connection, exclude: list[str]) -> list[str]:
    """Fallback search words: the most frequent longer words in the catalogue's titles."""
    from sqlalchemy import text

    counts: dict[str, int] = {}
    for title in connection.scalars(text("SELECT title FROM books ORDER BY id LIMIT 2000")):
        for word in re.findall(r"[a-z]{5,}", title.lower()):
            counts[word] = counts.get(word, 0) + 1
    return [word for word, _ in sorted(counts.items(), key=lambda item: -item[1]) if word not in exclude][:6]


def fetch(url: str, gzip: bool) -> tuple[int, bytes]:
    """One GET: status and body (compressed if the server chose to)."""
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def check_paths(base: str, endpoint: Endpoint, max_seconds: float) -> tuple[float, float | None]:
    """Every path answers 200 with something in it (a benchmark of 404s proves nothing).

    Returns the mean reply size in KB and, if one request took longer than max_seconds, its time:
    such an endpoint is not load-tested (16 queued requests would take minutes to drain).
    """
    sizes = []
    for path in endpoint.paths:
        started = time.monotonic()
        status, body = fetch(base + path, gzip=False)
        seconds = time.monotonic() - started
        if status != 200:
            raise BenchError(f"{path} answered {status}: {body[:200]!r}")
        reply = json.loads(body)
        if endpoint.name != "health" and not (reply.get("books") or reply.get("suggestions") or reply.get("book")):
            raise BenchError(f"{path} answered 200 but found nothing; pick other values")
        sizes.append(len(body) / 1024)
        if seconds > max_seconds:
            return sum(sizes) / len(sizes), seconds
    return sum(sizes) / len(sizes), None


# ---------------------------------------------------------------- server


WORKER_CLASSES = {
    "conf": ([], "workers of gunicorn.conf.py (threaded)"),
    # One thread, or gunicorn would turn the sync class into gthread with the file's thread count.
    "sync": (["-k", "sync", "--threads", "1"], "sync workers"),
}


@contextlib.contextmanager
def gunicorn(catalogue: Catalogue, log_path: Path, worker_class: str = "conf"):
    """Run gunicorn (2 workers of the chosen class) on the catalogue; yield its base URL and pid; always stop it."""
    port = free_port()
    command = [str(VENV_BIN / "gunicorn"), "--no-control-socket", "-w", "2", *WORKER_CLASSES[worker_class][0],
               "-b", f"127.0.0.1:{port}", "wsgi:app"]
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=app_env(catalogue, "production"),
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_healthy(process, base, log_path)
        yield base, process.pid
    finally:
        stop(process)


def wait_until_healthy(process: subprocess.Popen, base: str, log_path: Path, timeout: float = 60) -> None:
    """Block until /api/health answers 200; fail with the server's log if it dies or hangs."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchError(f"gunicorn exited ({process.returncode}):\n{log_path.read_text()[-3000:]}")
        with contextlib.suppress(OSError):
            if fetch(base + "/api/health", gzip=False)[0] == 200:
                return
        time.sleep(0.2)
    raise BenchError(f"gunicorn did not become healthy in {timeout:.0f} s:\n{log_path.read_text()[-3000:]}")


# ---------------------------------------------------------------- load generator

# wrk calls request() for every request, so each connection walks the list of paths; done() prints
# exact figures from wrk's histogram instead of its rounded text report.
WRK_SCRIPT = """
local paths = {%(paths)s}
local n = 0
%(headers)s
request = function()
  n = n %% #paths + 1
  return wrk.format("GET", paths[n])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH-RESULT %%.0f %%.0f %%.0f %%.0f %%d %%d %%d %%d %%d\\n",
    summary.duration, summary.requests, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def wrk_script(paths: list[str], gzip: bool, folder: Path) -> Path:
    """A Lua script rotating over paths (written to a scratch file wrk can read)."""
    headers = 'wrk.headers["Accept-Encoding"] = "gzip"' if gzip else ""
    script = folder / f"rotate-{hashlib.sha256(repr((paths, gzip)).encode()).hexdigest()[:12]}.lua"
    script.write_text(WRK_SCRIPT % {"paths": ", ".join(json.dumps(path) for path in paths), "headers": headers})
    return script


def run_wrk(base: str, script: Path, connections: int, seconds: float) -> Result:
    """One wrk run at `connections` connections; threads = min(2, connections), one per core."""
    threads = min(2, connections)
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency",
               # wrk drops requests slower than its timeout (2 s) from the latencies; keep them in.
               "--timeout", "30s", "-s", str(script), base]
    done = subprocess.run(command, capture_output=True, text=True)
    match = re.search(r"^BENCH-RESULT (.+)$", done.stdout, re.MULTILINE)
    if done.returncode != 0 or not match:
        raise BenchError(f"wrk failed ({done.returncode}): {done.stdout[-1500:]} {done.stderr[-1500:]}")
    duration_us, requests, p50, p99, *errors = (float(value) for value in match.group(1).split())
    names = ("connect", "read", "write", "status", "timeout")
    # No finished request means no latency at all, not a latency of 0 ms.
    p50_ms, p99_ms = (p50 / 1000, p99 / 1000) if requests else (math.inf, math.inf)
    return Result(rps=requests / (duration_us / 1e6), p50_ms=p50_ms, p99_ms=p99_ms, requests=int(requests),
                  errors={name: int(count) for name, count in zip(names, errors) if count})


def drain(base: str, result: Result) -> None:
    """Wait out the requests wrk abandoned when it stopped: sync workers still serve them."""
    # The health check queues behind them in the listen backlog, so its answer means one worker is
    # through; the other may be finishing one last request, which takes about a p99.
    deadline = time.monotonic() + 600
    while True:
        try:
            fetch(base + "/api/health", gzip=False)
            break
        except ConnectionRefusedError:
            raise BenchError("the server went away during the run") from None
        except OSError:  # a timeout: still busy with the backlog
            if time.monotonic() > deadline:
                raise BenchError("the server did not catch up within 10 minutes") from None
            time.sleep(0.5)
    time.sleep(min(result.p99_ms, 3000) / 1000)


def server_pids(master: int) -> list[int]:
    """gunicorn's master and its workers."""
    children = Path(f"/proc/{master}/task/{master}/children")
    return [master, *(int(pid) for pid in children.read_text().split())] if children.exists() else [master]


def postgres_pids() -> list[int]:
    """The local PostgreSQL server's processes: with a PostgreSQL catalogue, part of the server measured."""
    pids = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError):
            if comm.read_text().strip() == "postgres":
                pids.append(int(comm.parent.name))
    return pids


@dataclass
class CpuUse:
    """What one measured run cost in CPU, by whom."""

    other: float  # share of all CPUs used by processes other than gunicorn, PostgreSQL and wrk
    app_seconds: float  # gunicorn's master and workers
    db_seconds: float  # the local PostgreSQL server (0 unless the catalogue is in PostgreSQL)


class CpuMeter:
    """How much of the machine other processes used during a run (this machine is shared), and what
    the app and the database themselves used. The database server's own work counts as the server's,
    not as other processes'."""

    def __init__(self, master: int, with_postgres: bool = False):
        self.master = master
        self.with_postgres = with_postgres
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _seconds(self, pids: list[int]) -> float:
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                # Fields after the parenthesised command name: utime and stime are the 12th and 13th.
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(stat[11]) + int(stat[12])) / self.ticks
        return total

    def _sample(self) -> tuple[float, float, float, float]:
        """(busy seconds of all CPUs, seconds used by gunicorn, by PostgreSQL, by finished children)."""
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields[:8])
        busy = (user + nice + system + irq + softirq + steal) / self.ticks
        app = self._seconds(server_pids(self.master))
        database = self._seconds(postgres_pids()) if self.with_postgres else 0.0
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return busy, app, database, children.ru_utime + children.ru_stime

    def measure(self, action):
        """Run action(); return its value and a CpuUse: what the app and the database used, and the
        share of all CPUs used by anything but them and us."""
        started, before = time.monotonic(), self._sample()
        value = action()
        wall, after = time.monotonic() - started, self._sample()
        app, database, children = (after[i] - before[i] for i in (1, 2, 3))
        other = max(0.0, (after[0] - before[0]) - app - database - children) / (wall * (os.cpu_count() or 1))
        return value, CpuUse(other, app, database)


def busy_share(seconds: float) -> float:
    """Share of all CPUs busy over the next `seconds` (nothing of ours runs meanwhile)."""
    def sample() -> float:
        """Busy CPU seconds since boot, all CPUs together."""
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields[:8])
        return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")
    before = sample()
    time.sleep(seconds)
    return (sample() - before) / (seconds * (os.cpu_count() or 1))


QUIET = 0.15  # share of all CPUs other processes may use for a run to count as undisturbed


class Patience:
    """--wait-idle: one budget of seconds for waiting on other people's work, over the whole run."""

    def __init__(self, seconds: float):
        self.left = seconds

    def wait(self, sample: float = 2) -> None:
        """Wait until the CPUs are mostly ours, or the budget is spent."""
        while self.left > 0:
            started = time.monotonic()
            share = busy_share(sample)
            self.left -= time.monotonic() - started
            if share <= QUIET:
                return
        # Spent: measure anyway; the other-CPU column and the warning say how disturbed it was.

    def retry_allowed(self) -> bool:
        """Whether a disturbed run may be repeated (repeats cost time too)."""
        return self.left > 0


# ---------------------------------------------------------------- database writes


class WriteWatch:
    """Notices commits by anyone else to the database while GETs are served."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.connection = None
        self.engine = None

    def __enter__(self):
        if self.catalogue.sqlite_path:
            # PRAGMA data_version changes whenever another connection commits; this one never writes.
            self.connection = sqlite3.connect(self.catalogue.sqlite_path, isolation_level=None)
        else:
            from sqlalchemy import create_engine
            self.engine = create_engine(self.catalogue.url, isolation_level="AUTOCOMMIT")
        return self

    def __exit__(self, *_exc):
        if self.connection:
            self.connection.close()
        if self.engine:
            self.engine.dispose()

    def snapshot(self):
        """Something that differs between two calls if anything was written in between."""
        if self.connection:
            return self.connection.execute("PRAGMA data_version").fetchone()[0]
        from sqlalchemy import text
        # Backends report their row counts at most once a second; give them the time.
        time.sleep(1.2)
        with self.engine.connect() as connection:
            connection.execute(text("SELECT pg_stat_clear_snapshot()"))
            rows = connection.execute(text(
                "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables ORDER BY relname"))
            return {name: (ins, upd, dele) for name, ins, upd, dele in rows}

    @staticmethod
    def describe(before, after) -> str:
        """'' if nothing changed, else what did."""
        if before == after:
            return ""
        if isinstance(before, int):
            return f"data_version {before} -> {after}"
        changed = [f"{name} ins/upd/del +{a[0] - before.get(name, (0, 0, 0))[0]}/"
                   f"+{a[1] - before.get(name, (0, 0, 0))[1]}/+{a[2] - before.get(name, (0, 0, 0))[2]}"
                   for name, a in after.items() if before.get(name) != a]
        return "; ".join(changed)


def file_digest(path: Path) -> str:
    """sha256 of the SQLite file once the WAL is folded in: equal digests mean equal databases."""
    checkpoint(path)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# ---------------------------------------------------------------- one catalogue


def bench_catalogue(catalogue: Catalogue, args, scratch: Path) -> ServerRun:
    """Start a server on the catalogue and measure every endpoint at 1 and 16 connections."""
    endpoints = pick_endpoints(catalogue)
    run = ServerRun(catalogue, endpoints)
    digest_before = file_digest(catalogue.sqlite_path) if catalogue.sqlite_path else None
    with WriteWatch(catalogue) as watch, \
            gunicorn(catalogue, scratch / f"gunicorn-{catalogue.size}.log", args.worker_class) as (base, master):
        cpu = CpuMeter(master, with_postgres=catalogue.sqlite_path is None)
        whole_before = watch.snapshot()
        for endpoint in endpoints:
            before = watch.snapshot()
            run.body_kb[endpoint.name], too_slow = check_paths(base, endpoint, args.max_request)
            if too_slow:
                record_too_slow(run, endpoint, too_slow)
                run.writes[endpoint.name] = watch.describe(before, watch.snapshot())
                continue
            script = wrk_script(endpoint.paths, args.gzip, scratch)
            for connections in CONNECTIONS:
                print(f"  {endpoint.name:<12} {connections:>2} conn...", end="", flush=True)
                result = measure_repeated(base, script, connections, cpu, args)
                run.results[endpoint.name, connections] = result
                print(f" {result.rps:7.0f} req/s  p50 {ms(result.p50_ms):>6} ms  p99 {ms(result.p99_ms):>6} ms"
                      f"  other CPU {result.other_cpu:4.0%}" + (f"  errors {result.errors}" if result.errors else ""),
                      flush=True)
            run.writes[endpoint.name] = watch.describe(before, watch.snapshot())
        whole_after = watch.snapshot()
    run.run_writes = watch.describe(whole_before, whole_after)
    if digest_before and file_digest(catalogue.sqlite_path) != digest_before:
        run.run_writes = (run.run_writes + "; " if run.run_writes else "") + "database file changed"
    return run


def measure_repeated(base: str, script: Path, connections: int, cpu: CpuMeter, args) -> Result:
    """--repeats measured runs, each figure their median: one 5-second run's p99 swings by a third
    from run to run on this shared 2-core machine, while its p50 holds."""
    runs = [measure(base, script, connections, cpu, args) for _ in range(args.repeats)]
    errors: dict[str, int] = {}
    for run in runs:
        for kind, number in run.errors.items():
            errors[kind] = errors.get(kind, 0) + number
    return Result(statistics.median(run.rps for run in runs), statistics.median(run.p50_ms for run in runs),
                  statistics.median(run.p99_ms for run in runs), sum(run.requests for run in runs), errors,
                  other_cpu=max(run.other_cpu for run in runs),
                  app_cpu_ms=statistics.median(run.app_cpu_ms for run in runs),
                  db_cpu_ms=statistics.median(run.db_cpu_ms for run in runs))


def measure(base: str, script: Path, connections: int, cpu: CpuMeter, args) -> Result:
    """Warm up, then one measured wrk run; with --wait-idle budget left, up to 2 more if others disturbed it."""
    attempts = []
    for _attempt in range(3):
        args.patience.wait()
        drain(base, run_wrk(base, script, connections, args.warmup))  # warm-up: caches, connections
        result, use = cpu.measure(lambda: run_wrk(base, script, connections, args.duration))
        result.other_cpu = use.other
        if result.requests:
            result.app_cpu_ms = use.app_seconds * 1000 / result.requests
            result.db_cpu_ms = use.db_seconds * 1000 / result.requests
        drain(base, result)
        attempts.append(result)
        if result.other_cpu <= QUIET or not args.patience.retry_allowed():
            break
        print(f" (other CPU {result.other_cpu:.0%}, again)", end="", flush=True)
    return min(attempts, key=lambda attempt: attempt.other_cpu)


def record_too_slow(run: ServerRun, endpoint: Endpoint, seconds: float) -> None:
    """An endpoint wrk cannot measure in reasonable time: keep the one timed request, fail the rest."""
    note = f"not load-tested: one request took {seconds:.1f} s"
    print(f"  {endpoint.name:<12} {note}", flush=True)
    run.results[endpoint.name, 1] = Result(1 / seconds, seconds * 1000, seconds * 1000, 1, {}, note=note)
    run.results[endpoint.name, 16] = Result(0.0, math.inf, math.inf, 0, {}, note=note)


# ---------------------------------------------------------------- report


def ms(value: float) -> str:
    """A latency in ms for the tables; n/a when no request finished."""
    return "n/a" if math.isinf(value) else f"{value:.1f}"


def ratio(a: float, b: float, suffix: str = "x", digits: int = 1) -> str:
    """a / b for the tables; n/a when either is unknown or b is zero."""
    if math.isinf(a) or math.isinf(b) or not b:
        return "n/a"
    return f"{a / b:.{digits}f}{suffix}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain text table: first column left-aligned, the rest right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows)]
    lines = []
    for row in [headers, *rows]:
        cells = [str(cell).ljust(widths[0]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def figures_table(run: ServerRun) -> str:
    """Absolute figures per endpoint."""
    rows = []
    for endpoint in run.endpoints:
        one, many = run.results[endpoint.name, 1], run.results[endpoint.name, 16]
        errors = {k: one.errors.get(k, 0) + many.errors.get(k, 0) for k in {*one.errors, *many.errors}}
        rows.append([endpoint.name + (" *" if one.note else ""), f"{run.body_kb[endpoint.name]:.1f}",
                     len(endpoint.paths),
                     f"{one.rps:.0f}", ms(one.p50_ms), ms(one.p99_ms),
                     f"{many.rps:.0f}", ms(many.p50_ms), ms(many.p99_ms),
                     f"{one.other_cpu:.0%}/{many.other_cpu:.0%}",
                     "none" if not errors else ",".join(f"{k}:{v}" for k, v in sorted(errors.items())),
                     "yes" if run.writes.get(endpoint.name) else "no"])
    return table(["endpoint", "KB", "urls", "rps@1", "p50@1", "p99@1", "rps@16", "p50@16", "p99@16", "other CPU",
                  "errors", "writes"], rows)


def ratios_table(run: ServerRun) -> str:
    """Each figure divided by /api/health's (rps: fraction of health's; latency: times health's)."""
    rows = []
    for endpoint in run.endpoints[1:]:
        row = [endpoint.name]
        for connections in CONNECTIONS:
            mine, health = run.results[endpoint.name, connections], run.results["health", connections]
            row += [ratio(mine.rps, health.rps, "", 2), ratio(mine.p50_ms, health.p50_ms),
                    ratio(mine.p99_ms, health.p99_ms)]
        rows.append(row)
    return table(["vs health", "rps@1", "p50@1", "p99@1", "rps@16", "p50@16", "p99@16"], rows)


def cpu_table(run: ServerRun) -> str:
    """CPU a request at 16 connections: gunicorn's, the database server's, and the app's share of it."""
    rows = []
    for endpoint in run.endpoints:
        result = run.results[endpoint.name, 16]
        if result.note:
            rows.append([endpoint.name, "n/a", "n/a", "n/a"])
            continue
        total = result.app_cpu_ms + result.db_cpu_ms
        rows.append([endpoint.name, f"{result.app_cpu_ms:.2f}",
                     f"{result.db_cpu_ms:.2f}" if run.catalogue.sqlite_path is None else "-",
                     f"{result.app_cpu_ms / total:.0%}" if total else "n/a"])
    return table(["CPU ms/request @16", "gunicorn", "PostgreSQL", "app share"], rows)


def growth_table(small: ServerRun, large: ServerRun) -> str:
    """p99 at 16 connections, largest catalogue against smallest."""
    rows = []
    for endpoint in small.endpoints:
        a, b = small.results[endpoint.name, 16].p99_ms, large.results[endpoint.name, 16].p99_ms
        rows.append([endpoint.name, ms(a), ms(b), ratio(b, a, digits=2)])
    return table(["p99@16 ms", f"{small.catalogue.size:,}", f"{large.catalogue.size:,}", "ratio"], rows)


def against(value: float, ok: bool, target: float) -> str:
    """How far a figure that missed its target is from it ('' when it made it)."""
    if ok or math.isinf(value):
        return ""
    return f"; {value / target:.2f}" + (" of target" if value < target else "x")


def run_verdicts(run: ServerRun) -> list[tuple[bool, str]]:
    """(passed, line) for one catalogue's targets: throughput, latency, clean run, no writes."""
    lines, size = [], f"{run.catalogue.size:,}"
    for endpoint in run.endpoints[1:]:
        result = run.results[endpoint.name, 16]
        if result.note:
            lines.append((False, f"{endpoint.name} @ {size}: {result.note} (targets >= {TARGET_RPS} req/s, "
                                 f"p99 < {TARGET_P99_MS:.0f} ms at 16 conn)"))
            continue
        ok = result.rps >= TARGET_RPS
        lines.append((ok, f"{endpoint.name} @ {size}: {result.rps:.0f} req/s at 16 conn "
                          f"(target >= {TARGET_RPS}{against(result.rps, ok, TARGET_RPS)})"))
        ok = result.p99_ms < TARGET_P99_MS
        lines.append((ok, f"{endpoint.name} @ {size}: p99 {ms(result.p99_ms)} ms at 16 conn "
                          f"(target < {TARGET_P99_MS:.0f} ms{against(result.p99_ms, ok, TARGET_P99_MS)})"))
    result = run.results["suggest", 1]
    ok = result.p99_ms < TARGET_SUGGEST_P99_MS
    lines.append((ok, f"suggest @ {size}: p99 {ms(result.p99_ms)} ms unloaded, 1 conn "
                      f"(target < {TARGET_SUGGEST_P99_MS:.0f} ms{against(result.p99_ms, ok, TARGET_SUGGEST_P99_MS)})"))
    failed = {f"{name}@{c}": result.errors or "no request finished" for (name, c), result in run.results.items()
              if result.errors or (not result.requests and not result.note)}
    lines.append((not failed, f"clean run @ {size}: " + (f"errors {failed}" if failed else "no errors or non-2xx")))
    writes = [f"{name}: {what}" for name, what in [*run.writes.items(), ("whole run", run.run_writes)] if what]
    lines.append((not writes, f"no database writes on GET paths @ {size}: " + ("; ".join(writes) or "none seen")))
    return lines


def growth_verdicts(small: ServerRun, large: ServerRun) -> list[tuple[bool, str]]:
    """(passed, line) per endpoint: p99 at 16 connections may grow at most TARGET_GROWTH times."""
    lines = []
    for endpoint in small.endpoints[1:]:
        a, b = small.results[endpoint.name, 16].p99_ms, large.results[endpoint.name, 16].p99_ms
        lines.append((not math.isinf(a) and b / a <= TARGET_GROWTH,
                      f"{endpoint.name}: p99 @ 16 conn {small.catalogue.size:,} -> {large.catalogue.size:,} books "
                      f"costs {ratio(b, a, digits=2)} (target <= {TARGET_GROWTH}x)"))
    return lines


def verdicts(runs: list[ServerRun]) -> list[tuple[bool, str]]:
    """(passed, line) for every target of the issue."""
    lines = [line for run in runs for line in run_verdicts(run)]
    return lines + (growth_verdicts(runs[0], runs[-1]) if len(runs) > 1 else [])


def report(runs: list[ServerRun], args) -> bool:
    """Print every table and the verdicts; True when all targets pass."""
    print()
    print(f"gunicorn 2 {WORKER_CLASSES[args.worker_class][1]}; wrk {args.warmup:g} s warm-up + {args.duration:g} s per run, "
          f"figures the median of {args.repeats} runs; "
          f"1 conn = wrk -t1 -c1, 16 conn = wrk -t2 -c16; Accept-Encoding: {'gzip' if args.gzip else 'none'}; "
          f"{os.cpu_count()} CPUs shared by server and wrk")
    for run in runs:
        print(f"\n== {run.catalogue.label} ==\n(latencies in ms; KB = uncompressed reply; urls = paths rotated;"
              " other CPU = share of all CPUs used by processes other than gunicorn, wrk and PostgreSQL"
              " during the 1/16-conn runs)")
        print(figures_table(run))
        for endpoint in run.endpoints:
            if run.results[endpoint.name, 1].note:
                print(f"* {endpoint.name}: {run.results[endpoint.name, 1].note} (its @1 figures are that request)")
        noisy = max(result.other_cpu for result in run.results.values())
        if noisy > QUIET:
            print(f"WARNING: other processes used up to {noisy:.0%} of the CPUs during these runs; "
                  "the figures are pessimistic (try --wait-idle 600)")
        print("\nratios to /api/health of the same server (rps: fraction of health's; latency: times health's)")
        print(ratios_table(run))
        print("\nCPU a request at 16 connections (from /proc; SQLite works inside gunicorn's processes)")
        print(cpu_table(run))
    if args.wait_idle:
        print(f"\n--wait-idle: {args.wait_idle - max(0.0, args.patience.left):.0f} of {args.wait_idle:.0f} s "
              "spent waiting for other processes")
    if len(runs) > 1:
        print(f"\n== growth {runs[0].catalogue.size:,} -> {runs[-1].catalogue.size:,} books ==")
        print(growth_table(runs[0], runs[-1]))
    print("\n== targets ==")
    results = verdicts(runs)
    for passed, line in results:
        print(f"{'PASS' if passed else 'FAIL'}  {line}")
    failed = sum(1 for passed, _ in results if not passed)
    print(f"\n{len(results) - failed} passed, {failed} failed")
    return failed == 0


# ---------------------------------------------------------------- --explain


def short_sql(statement: str) -> str:
    """One line of SQL with a long column list shown as '…': the FROM and WHERE are what matter."""
    flat = " ".join(statement.split())
    match = re.match(r"SELECT (.{60,}?) FROM ", flat)
    return (f"SELECT … FROM {flat[match.end():]}" if match else flat)[:500]


class StatementLog:
    """Every SQL statement an engine runs, with its parameters and duration."""

    def __init__(self, engine):
        self.engine = engine
        self.entries: list[tuple[str, object, float]] = []

    def _before(self, _conn, _cursor, _statement, _params, context, _many):
        context._bench_started = time.perf_counter()

    def _after(self, _conn, _cursor, statement, params, context, _many):
        self.entries.append((statement, params, time.perf_counter() - context._bench_started))

    def __enter__(self):
        from sqlalchemy import event
        event.listen(self.engine, "before_cursor_execute", self._before)
        event.listen(self.engine, "after_cursor_execute", self._after)
        return self

    def __exit__(self, *_exc):
        from sqlalchemy import event
        event.remove(self.engine, "before_cursor_execute", self._before)
        event.remove(self.engine, "after_cursor_execute", self._after)


def explain(catalogue: Catalogue, endpoints: list[Endpoint]) -> None:
    """In-process: per endpoint, time per request split into SQL and the rest, and each query's plan."""
    sys.path.insert(0, str(ROOT))  # the app's package, as gunicorn sees it from the project root
    from bookstore import create_app
    from bookstore.extensions import db

    env = app_env(catalogue, "production")
    app = create_app({name: env[name] for name in ("DATABASE_URL", "MEDIA_ROOT", "BOOKSTORE_ENV", "SECRET_KEY",
                                                      "JWT_SECRET_KEY", "PUBLIC_URL", "RATELIMIT_ENABLED")})
    print(f"\n== where the time goes: {catalogue.label} (in-process, first path of each endpoint) ==")
    with app.app_context():
        with StatementLog(db.engine) as log:
            for endpoint in endpoints[1:]:
                explain_endpoint(app.test_client(), endpoint.name, endpoint.paths[0], log)
        db.engine.dispose()


def explain_endpoint(client, name: str, path: str, log: StatementLog, max_repeats: int = 50) -> None:
    """Time one path in-process and print its statements, each with its query plan."""
    client.get(path)  # warm caches and compiled-statement caches
    started = time.perf_counter()
    client.get(path)
    # About a second per endpoint, but at least one request however slow.
    repeats = max(1, min(max_repeats, int(1.0 / (time.perf_counter() - started))))
    log.entries.clear()
    started = time.perf_counter()
    for _ in range(repeats):
        client.get(path)
    total_ms = (time.perf_counter() - started) * 1000 / repeats
    sql_ms = sum(seconds for _s, _p, seconds in log.entries) * 1000 / repeats
    print(f"\n{name}: {path}  ({repeats} requests)\n  {total_ms:.2f} ms per request = SQL {sql_ms:.2f} ms "
          f"({len(log.entries) / repeats:.0f} statements) + Python {total_ms - sql_ms:.2f} ms")
    grouped: dict[str, list] = {}
    for statement, params, seconds in log.entries:
        entry = grouped.setdefault(statement, [params, 0.0, 0])
        entry[1] += seconds
        entry[2] += 1
    prefix = "EXPLAIN QUERY PLAN " if log.engine.dialect.name == "sqlite" else "EXPLAIN "
    with log.engine.connect() as connection:
        for statement, (params, seconds, count) in grouped.items():
            print(f"  -- {seconds * 1000 / count:.2f} ms x{count // repeats}: {short_sql(statement)}")
            # The plan is looked up outside the log's timing: StatementLog only keeps what it records.
            for row in connection.exec_driver_sql(prefix + statement, params):
                print(f"     {row[-1]}")


# ---------------------------------------------------------------- main


def parse_args(argv: list[str]):
    """Options, with --sizes turned into a list of ints."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000",
                        help="catalogue sizes, comma-separated (default %(default)s)")
    parser.add_argument("--duration", type=float, default=5, help="seconds per measured wrk run (default %(default)s)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="measured runs per endpoint and connection count; figures are their medians "
                             "(default %(default)s)")
    parser.add_argument("--warmup", type=float, default=1,
                        help="seconds of warm-up before each run (default %(default)s)")
    parser.add_argument("--database-url", help="PostgreSQL server URL; databases <name>_<size> are made there")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR, help="where catalogues are cached")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the catalogues even if cached")
    parser.add_argument("--no-gzip", dest="gzip", action="store_false",
                        help="do not send Accept-Encoding: gzip (browsers do, so it is on by default)")
    parser.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                        help="on a shared machine: spend up to this long in total waiting for other processes "
                             "to leave the CPUs alone before runs, and repeating (twice at most) runs they disturbed")
    parser.add_argument("--max-request", type=float, default=1.0,
                        help="skip wrk for an endpoint when one request takes longer (s, default %(default)s)")
    parser.add_argument("--explain", action="store_true",
                        help="also time each endpoint's SQL in-process and print the query plans")
    parser.add_argument("--worker-class", choices=sorted(WORKER_CLASSES), default="conf",
                        help="conf: the workers gunicorn.conf.py sets (threaded); sync: gunicorn's sync workers, "
                             "to compare (default %(default)s)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target fails")
    args = parser.parse_args(argv)
    try:
        args.sizes = [int(size.replace("_", "")) for size in args.sizes.split(",") if size.strip()]
    except ValueError:
        parser.error("--sizes takes whole numbers, like 10000,100000")
    if not args.sizes or min(args.sizes) < 1:
        parser.error("--sizes needs at least one positive size")
    args.patience = Patience(args.wait_idle)
    return args


def main(argv: list[str]) -> int:
    """Build, measure and report; the exit status says whether it could and whether targets held."""
    from sqlalchemy.exc import SQLAlchemyError

    args = parse_args(argv)
    raise_on_sigterm()
    runs: list[ServerRun] = []
    try:
        require_wrk()
        with tempfile.TemporaryDirectory(prefix="bench-api-") as scratch:
            for size in args.sizes:
                catalogue = (postgres_catalogue(size, args.database_url, args.data_dir, args.rebuild)
                             if args.database_url else sqlite_catalogue(size, args.data_dir, args.rebuild))
                print(f"\n{catalogue.label}", flush=True)
                runs.append(bench_catalogue(catalogue, args, Path(scratch)))
                if args.explain:
                    explain(catalogue, runs[-1].endpoints)
        passed = report(runs, args)
    except (BenchError, SQLAlchemyError) as error:
        if runs:  # what was measured before the failure is still worth seeing
            report(runs, args)
        message = str(error) if isinstance(error, BenchError) else f"database error: {str(error).splitlines()[0]}"
        print(f"\nbench/api.py: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted; server stopped", file=sys.stderr)
        return 130
    return 0 if passed or not args.strict else 1


if __name__ == "__main__":
    ensure_venv_python()
    sys.exit(main(sys.argv[1:]))
