"""gunicorn's access log keeps no credentials (issue 25, 18): a download link's signature in the path and an
e-mailed link's token in the query or the referer are redacted, in the text format (`make run`) and in JSON.

Each case runs gunicorn's own Logger, set up from the project's gunicorn.conf.py as the master does, in a
fresh interpreter (the file reads LOG_FORMAT when it is loaded)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIGNED = "eyJsaW5lIjo0Mn0.aGVsbG8tc2lnbmF0dXJl"
TOKEN = "5403b4d79b7a00a3a8c50f87.1803591150.hqZS1Q81HFYslI3"

_LOG_ONE_REQUEST = """
import runpy, sys, types
from datetime import timedelta
from gunicorn.config import Config
settings = runpy.run_path("gunicorn.conf.py")
cfg = Config()
cfg.set("accesslog", sys.argv[1])
logger = settings.get("logger_class") or __import__("gunicorn.glogging").glogging.Logger
logger = logger(cfg)
for method, path, query, referer in [
        ("GET", "/api/downloads/%(signed)s", "", "https://books.example.in/orders/7?token=%(token)s"),
        ("GET", "/api/orders/7", "token=%(token)s&x=1", "-"),
        ("POST", "/api/orders/7/bill", "TOKEN=%(token)s", "-")]:
    uri = path + ("?" + query if query else "")
    environ = {"REQUEST_METHOD": method, "RAW_URI": uri, "PATH_INFO": path, "QUERY_STRING": query,
               "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "203.0.113.9", "HTTP_REFERER": referer,
               "HTTP_USER_AGENT": "test"}
    resp = types.SimpleNamespace(status="200 OK", headers=[("X-Request-Id", "r-1")], sent=10)
    req = types.SimpleNamespace(headers=[("REFERER", referer)])
    logger.access(resp, req, environ, timedelta(milliseconds=12))
""" % {"signed": SIGNED, "token": TOKEN}


def _access_log(tmp_path, log_format: str) -> str:
    target = tmp_path / "access.log"
    result = subprocess.run([sys.executable, "-c", _LOG_ONE_REQUEST, str(target)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "LOG_FORMAT": log_format,
                                                        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")})
    assert result.returncode == 0, result.stderr[-2000:]
    return target.read_text()


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_access_log_redacts_download_signatures_and_link_tokens(tmp_path, log_format):
    """No signature or token reaches the access log, in either format; the rest of each line stays."""
    log = _access_log(tmp_path, log_format)
    lines = log.splitlines()
    assert len(lines) == 3, log
    assert SIGNED not in log and TOKEN not in log
    assert "/api/downloads/redacted" in lines[0] and "/orders/7?token=redacted" in lines[0]
    assert "token=redacted" in lines[1] and "x=1" in lines[1] and "TOKEN=redacted" in lines[2]
    if log_format == "json":
        first = json.loads(lines[0])
        assert first["path"] == "/api/downloads/redacted" and first["status"] == 200
        assert json.loads(lines[1])["query"] == "token=redacted&x=1"
    else:
        assert '"GET /api/orders/7?token=redacted&x=1 HTTP/1.1" 200' in lines[1]
