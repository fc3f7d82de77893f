"""The project's gunicorn settings (gunicorn.conf.py), as a worker runs them."""
import secrets
import subprocess
import sys
from pathlib import Path

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
                                 "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.db'}",
                                 "MEDIA_ROOT": str(tmp_path / "media")})
    assert result.returncode == 0, result.stderr[-2000:]
    before, after = map(int, result.stdout.split())
    assert before == 0
    assert after > 50_000  # modules, mappers and schemas: ~140,000 objects
