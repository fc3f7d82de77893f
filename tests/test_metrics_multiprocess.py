"""/metrics under gunicorn: every worker counts in one multiprocess folder, so whichever worker answers
a scrape reports the requests that all of them served."""
import http.client
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from tests.server import Gunicorn

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "multiprocess-metrics-token"


def get(port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


# An address only this test asks for: the harness's own start-up health checks (one of which may be
# answered after its client gave up waiting) never land in these counts.
PATH, ENDPOINT = "/robots.txt", "robots"


def requests_count(text: str) -> float:
    """bookstore_http_requests_total of GET /robots.txt answered 200, in a Prometheus text page."""
    return sum(sample.value for family in text_string_to_metric_families(text) for sample in family.samples
               if sample.name == "bookstore_http_requests_total"
               and sample.labels == {"endpoint": ENDPOINT, "method": "GET", "status": "200"})


def scraped(port: int) -> float:
    """The count in one scrape, answered by whichever worker takes the connection."""
    status, text = get(port, "/metrics", {"Authorization": f"Bearer {TOKEN}"})
    assert status == 200, text[:500]
    return requests_count(text)


def counted_by(folder: Path, pid: int) -> float:
    """The count in one worker's own file alone (a copy of it, read as prometheus_client reads a folder)."""
    with tempfile.TemporaryDirectory() as alone:
        source = folder / f"counter_{pid}.db"
        if source.exists():
            shutil.copy(source, alone)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=alone)
        return requests_count(generate_latest(registry).decode())


def burst(port: int, count: int) -> None:
    """`count` requests at once, each on its own connection, so several workers take some."""
    statuses = []
    threads = [threading.Thread(target=lambda: statuses.append(get(port, PATH)[0])) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert statuses == [200] * count


def test_a_scrape_of_any_worker_adds_up_the_requests_of_all_workers(database_url, tmp_path):
    """Whichever of two gunicorn workers answers a scrape, it counts the requests both served (stale files wiped)."""
    folder = tmp_path / "metrics"
    folder.mkdir()
    (folder / "counter_1.db").write_bytes(b"left by a previous run")
    server = Gunicorn(database_url, tmp_path / "gunicorn", workers=2, threads=4)
    server.env.update(METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=str(folder))
    with server:
        assert not (folder / "counter_1.db").exists()
        workers = [int(name.name.split("-")[1]) for name in server.ready_dir.iterdir()]
        assert len(workers) == 2
        before = scraped(server.port)
        assert before == 0
        before_by_worker = {pid: counted_by(folder, pid) for pid in workers}
        sent = 0
        # Bursts until each worker has served some of them (the kernel picks the worker); bounded.
        while sent < 400 and any(counted_by(folder, pid) == before_by_worker[pid] for pid in workers):
            burst(server.port, 20)
            sent += 20
        by_worker = {pid: counted_by(folder, pid) for pid in workers}
        assert all(by_worker[pid] > before_by_worker[pid] for pid in workers), (before_by_worker, by_worker)
        # Scrapes on fresh connections reach either worker; each reports the requests of both.
        assert [scraped(server.port) for _ in range(6)] == [before + sent] * 6
        assert before + sent == sum(by_worker.values())
        assert not server.errors_logged(), server.log()[-3000:]


_LOAD_CONFIG = """
import os, runpy
runpy.run_path("gunicorn.conf.py")
folder = os.environ["PROMETHEUS_MULTIPROC_DIR"]
print(folder, os.path.isdir(folder))
"""


def test_gunicorn_makes_a_fresh_metrics_folder_when_none_is_set(tmp_path):
    """Without PROMETHEUS_MULTIPROC_DIR, gunicorn.conf.py makes a fresh folder for the run and removes it at exit."""
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    result = subprocess.run([sys.executable, "-c", _LOAD_CONFIG], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={**env, "BOOKSTORE_ENV": "development"})
    assert result.returncode == 0, result.stderr[-2000:]
    folder, existed = result.stdout.split()
    assert existed == "True" and Path(folder).name.startswith("bookstore-metrics-")
    assert not Path(folder).exists()
