"""A real job consumer (`python -m bookstore.jobs.worker`) in its own process group, for tests that
need jobs to run the way production runs them: from a queue, in another process. Being in its own group
puts it out of reach of whatever kills a test run, so it is told its parent (JOBS_PARENT_PID) and stops
itself when the test process is gone: a left-over consumer would take a later run's jobs."""
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEST_SECRETS = {"SECRET_KEY": "test-secret-key-0123456789abcdef0123456789",
                "JWT_SECRET_KEY": "test-jwt-key-0123456789abcdef0123456789abcdef"}


def worker_env(database_url: str, jobs_url: str, media_root: str, **settings) -> dict:
    """The environment of a consumer sharing the test app's database and queue."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("MAIL_", "RAZORPAY_"))}
    env.update({"BOOKSTORE_ENV": "testing", "DATABASE_URL": database_url, "JOBS_URL": jobs_url,
                "MEDIA_ROOT": media_root, "PYTHONUNBUFFERED": "1", "JOBS_PARENT_PID": str(os.getpid()),
                **TEST_SECRETS})
    env.update({key: str(value) for key, value in settings.items()})
    return env


class Consumer:
    """`with Consumer(env, log_path) as consumer:`; stop() is a graceful SIGINT, kill() a SIGKILL."""

    def __init__(self, env: dict, log_path: Path):
        self.env = env
        self.log_path = Path(log_path)
        self.process: subprocess.Popen | None = None

    def start(self) -> "Consumer":
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "bookstore.jobs.worker"], cwd=ROOT, env=self.env,
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            start_new_session=True)
        return self

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> "Consumer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_until(condition, timeout: float, message: str = "", interval: float = 0.1):
    """Poll `condition` until it is truthy (and return it) or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result := condition():
            return result
        time.sleep(interval)
    raise AssertionError(f"not within {timeout} s: {message}")
