"""Fixtures for tests that run jobs through a real queue (a SQLite file, or Redis) and consumers."""
import os

import pytest
import redis

REDIS_URL = "redis://127.0.0.1:6379"


def _redis_db() -> int:
    """A Redis database per xdist worker (10, 11, ...), so parallel workers never share a queue."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return 10 + int(worker[2:] or 0) if worker.startswith("gw") else 10


@pytest.fixture(params=["sqlite", "redis"])
def jobs_url(request, tmp_path):
    """The queue of the test: the embedded SQLite file, or Redis as on a fleet (emptied around the test)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'jobs.sqlite3'}"
        return
    url = f"{REDIS_URL}/{_redis_db()}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
