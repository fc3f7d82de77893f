"""The project's gunicorn settings (gunicorn.conf.py), as a worker runs them."""
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_WORKER = """
import gc, runpy, wsgi
before = gc.get_freeze_count()
runpy.run_path("gunicorn.conf.py")["post_worker_init"](None)
print(before, gc.get_freeze_count())
"""


def test_a_worker_freezes_what_the_app_built_at_start_up(tmp_path):
    """Full collections skip the app's start-up objects, so they no longer pause requests for tens of ms."""
    result = subprocess.run([sys.executable, "-c", _WORKER], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={"PATH": "/usr/bin:/bin", "BOOKSTORE_ENV": "production",
                                 "SECRET_KEY": secrets.token_hex(32), "JWT_SECRET_KEY": secrets.token_hex(32),
                                 "PUBLIC_URL": "http://127.0.0.1",
                                 "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.db'}",
                                 "MEDIA_ROOT": str(tmp_path / "media")})
    assert result.returncode == 0, result.stderr[-2000:]
    before, after = map(int, result.stdout.split())
    assert before == 0
    assert after > 50_000  # modules, mappers and schemas: ~140,000 objects


def _gunicorn(database_url: str, tmp_path, workers: int, **env):
    from tests.server import Gunicorn
    server = Gunicorn(database_url, tmp_path, workers=workers, threads=1)
    server.env.update(env)
    return server


@pytest.mark.parametrize("environment", ["production", "development"])
def test_per_worker_rate_limits_are_refused(database_url, tmp_path, environment):
    """With rate limits on, memory:// storage and two workers, gunicorn does not start, in production as
    in development: each worker would count on its own, and a limit of 10 would let 20 through."""
    from tests.server import ServerError
    server = _gunicorn(database_url, tmp_path, 2, RATELIMIT_ENABLED="true", RATELIMIT_STORAGE_URI="memory://",
                       BOOKSTORE_ENV=environment)
    try:
        server.start(timeout=20)
    except ServerError as refused:
        assert "RATELIMIT_STORAGE_URI is memory://" in str(refused)
    else:
        server.stop()
        raise AssertionError(f"{environment} started with per-worker rate limits")


def test_production_starts_with_shared_rate_limits_and_its_job_consumer(database_url, tmp_path):
    """Redis-backed limits start fine with two workers; the master starts one job consumer, restarts it
    when it dies and stops it with the server."""
    import os
    import signal
    from tests.jobs.consumer import wait_until
    server = _gunicorn(database_url, tmp_path, 2, RATELIMIT_ENABLED="true",
                       RATELIMIT_STORAGE_URI="redis://127.0.0.1:6379/13")
    with server:
        consumers = lambda: [pid for pid in server._live_group_members()  # noqa: E731
                             if b"bookstore.jobs.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        first = wait_until(consumers, 60, "no job consumer started")
        assert len(first) == 1
        os.kill(first[0], signal.SIGKILL)
        # On a loaded machine a new interpreter can take a while: the point is that one comes back.
        second = wait_until(lambda: [pid for pid in consumers() if pid != first[0]], 60, "the consumer was not restarted")
        assert len(second) == 1, server.log()[-3000:]
    assert not server._live_group_members()


def test_a_master_killed_outright_leaves_no_consumer_behind(database_url, tmp_path):
    """SIGKILL to gunicorn's master alone (the OOM killer's way): its job consumer sees it is gone and
    stops, as the workers do, instead of taking jobs with nobody left to stop it."""
    import os
    import signal
    from tests.jobs.consumer import wait_until
    server = _gunicorn(database_url, tmp_path, 1)
    with server:
        consumer = wait_until(lambda: [pid for pid in server._live_group_members()
                                       if b"bookstore.jobs.worker" in Path(f"/proc/{pid}/cmdline").read_bytes()],
                              60, "no job consumer started")
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)
        wait_until(lambda: not Path(f"/proc/{consumer[0]}").exists()
                   or Path(f"/proc/{consumer[0]}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z",
                   30, "the consumer outlived its master")
        assert "is gone; stopping the consumer" in server.log()
