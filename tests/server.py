"""A real gunicorn serving the app on a test database, and a plain HTTP client for it.

Used by the concurrency and crash tests: the shop runs as gunicorn processes in production, so
races and crashes are exercised there rather than in Flask's test client. gunicorn runs in its own
process group, so a test can SIGKILL the master and every worker at once without touching pytest.
"""
import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
READY_HOOK = Path(__file__).resolve().parent / "gunicorn_ready.py"


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerError(AssertionError):
    """gunicorn would not start; the message carries the end of its log."""


class Gunicorn:
    """`gunicorn wsgi:app` on `database_url`, in production mode, with rate limits off.

    `threads=None` serves with the worker class and threads of the project's gunicorn.conf.py, as
    production does; a number picks gunicorn's plain gthread worker with that many threads.
    Use as a context manager (started on entry, stopped on exit), or call start() and stop().
    The server's stdout and stderr go to `log_path`; `log()` reads them for assertion messages.
    """

    def __init__(self, database_url: str, workdir: Path, *, workers: int = 4, threads: int | None = 4):
        self.database_url = database_url
        self.workdir = Path(workdir)
        self.workers = workers
        self.threads = threads
        self.port: int | None = None
        self.process: subprocess.Popen | None = None
        self.starts = 0
        self.log_path = self.workdir / "gunicorn.log"
        self.ready_dir = self.workdir / "ready"
        self._own_public_url = "http://127.0.0.1"  # PUBLIC_URL while it follows this server's port
        # One pair of secrets for every start, so tokens survive a restart of this server.
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "BOOKSTORE_ENV": "production",
            "SECRET_KEY": secrets.token_hex(32),
            "JWT_SECRET_KEY": secrets.token_hex(32),
            "RATELIMIT_ENABLED": "false",
            "RATELIMIT_STORAGE_URI": "memory://",
            "MEDIA_ROOT": str(self.workdir / "media"),
            "PROXY_COUNT": "0",
            "MAIL_SERVER": "",
            "RAZORPAY_KEY_ID": "",
            "RAZORPAY_KEY_SECRET": "",
            "PYTHONUNBUFFERED": "1",
            "GUNICORN_READY_DIR": str(self.ready_dir),
            # Production refuses to start without PUBLIC_URL. Until start() knows the port this names the
            # host alone (enough for commands run first, such as migrations); start() then sets this
            # server's own address, unless the caller chose another.
            "PUBLIC_URL": "http://127.0.0.1",
            # Load and crash tests order many times from one address and phone.
            "OPEN_COD_ORDERS_PER_CONTACT": "100000", "ORDER_LIMIT_PER_IP": "100000 per hour",
            "ORDER_LIMIT_PER_CONTACT": "100000 per day", "LOOKUP_LIMIT_PER_IP": "100000 per minute",
            "UNPAID_COPIES_PER_BUYER": "100000",
            "PAYMENT_LIMIT_PER_IP": "100000 per minute",
            # The embedded consumer's queue lives beside this server, never in the project's instance folder.
            "JOBS_URL": f"sqlite:///{self.workdir / 'jobs.sqlite3'}",
        }

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> "Gunicorn":
        self.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90) -> None:
        """Start on a free port and wait for /api/health; retry on another port if it was taken meanwhile."""
        assert self.process is None or self.process.poll() is not None, "already running"
        self.ready_dir.mkdir(parents=True, exist_ok=True)
        for _attempt in range(3):
            self.port = free_port()
            self.starts += 1
            if self.env.get("PUBLIC_URL") == self._own_public_url:
                self._own_public_url = self.env["PUBLIC_URL"] = self.base_url
            for stale in self.ready_dir.iterdir():
                stale.unlink()
            worker = [] if self.threads is None else ["-k", "gthread", "--threads", str(self.threads)]
            command = [str(GUNICORN), "--no-control-socket", "-w", str(self.workers), *worker,
                       "-b", f"127.0.0.1:{self.port}",
                       "--graceful-timeout", "5", "--timeout", "60", "-c", str(READY_HOOK), "wsgi:app"]
            with open(self.log_path, "a") as log:
                offset = log.tell()
                log.write(f"\n===== start {self.starts}: {' '.join(command)}\n")
                log.flush()
                self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL,
                                                stdout=log, stderr=log, start_new_session=True)
            try:
                self._wait_healthy(timeout)
                return
            except ServerError:
                address_taken = "Address already in use" in self.log()[offset:]
                self.stop()
                if not address_taken:
                    raise
            except BaseException:
                self.stop()
                raise
        raise ServerError(f"gunicorn found no free port:\n{self.log()[-3000:]}")

    def _wait_healthy(self, timeout: float) -> None:
        """Every worker has loaded the app, and /api/health says the database answers."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(f"gunicorn exited with {self.process.returncode}:\n{self.log()[-3000:]}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                status, body = request(self.port, "GET", "/api/health", timeout=2)
                ready = len(list(self.ready_dir.iterdir()))
                if ready >= self.workers and status == 200 and body == {"status": "ok", "database": "ok"}:
                    return
            time.sleep(0.1)
        raise ServerError(f"gunicorn was not healthy after {timeout:.0f} s:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        """SIGTERM to the whole group (a graceful stop), SIGKILL if it lingers; always reaped."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
                self.process.wait(timeout=10)
        self._wait_group_gone()

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut or OOM killer would."""
        assert self.process is not None and self.process.poll() is None, "not running"
        self._signal_group(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._wait_group_gone()

    def _signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)  # start_new_session: the group id is the master's pid

    def _wait_group_gone(self, timeout: float = 10) -> None:
        """Wait until no live process of the group is left (zombies awaiting their reaper don't count)."""
        deadline = time.monotonic() + timeout
        while self._live_group_members() and time.monotonic() < deadline:
            time.sleep(0.05)
        if self._live_group_members():
            self._signal_group(signal.SIGKILL)

    def _live_group_members(self) -> list[int]:
        pgid, members = self.process.pid, []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            state, group = fields[0], int(fields[2])
            if group == pgid and state not in ("Z", "X"):
                members.append(int(entry))
        return members

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def errors_logged(self) -> list[str]:
        """Tracebacks the app logged (a 500 answered 'Something went wrong')."""
        text = self.log()
        return [chunk for chunk in text.split("\n\n") if "Traceback" in chunk or "Unhandled error" in chunk]


def request(port: int, method: str, path: str, body=None, headers: dict | None = None,
            timeout: float = 60) -> tuple[int, dict | None]:
    """One request on its own connection; (status, JSON body or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        return send(connection, method, path, body, headers)
    finally:
        connection.close()


def send(connection: http.client.HTTPConnection, method: str, path: str, body=None,
         headers: dict | None = None) -> tuple[int, dict | None]:
    """A request on an already open connection (so a barrier can release requests, not handshakes)."""
    all_headers = {"Accept": "application/json", **(headers or {})}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        all_headers["Content-Type"] = "application/json"
    connection.request(method, path, body=payload, headers=all_headers)
    response = connection.getresponse()
    raw = response.read()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, {"raw": raw.decode(errors="replace")[:500]}
