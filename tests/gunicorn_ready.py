"""gunicorn config for the tests: each worker marks itself ready once the app is loaded.

tests/server.py passes it with `-c` and sets GUNICORN_READY_DIR; it waits for one file per worker,
so a burst of requests meets every worker, not the first one to boot.
"""
import os
from pathlib import Path


def post_worker_init(worker):
    folder = os.environ.get("GUNICORN_READY_DIR")
    if folder:
        (Path(folder) / f"worker-{worker.pid}").touch()
