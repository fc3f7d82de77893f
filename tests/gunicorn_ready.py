"""gunicorn config for the tests: the project's own (gunicorn.conf.py), and each worker marks itself
ready once the app is loaded.

tests/server.py passes it with `-c` (which replaces the project's file, hence the load below: every
setting and hook of the project's file applies here too) and sets GUNICORN_READY_DIR; it waits for
one file per worker, so a burst of requests meets every worker, not the first one to boot.
"""
import os
import runpy
from pathlib import Path

_project = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
globals().update({name: value for name, value in _project.items() if not name.startswith("_")})


def post_worker_init(worker):
    _project["post_worker_init"](worker)
    folder = os.environ.get("GUNICORN_READY_DIR")
    if folder:
        (Path(folder) / f"worker-{worker.pid}").touch()
