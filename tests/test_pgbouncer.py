"""PgBouncer in transaction mode: each transaction may land on another server connection, where a
statement psycopg prepared elsewhere does not exist. With DATABASE_POOL_MODE=transaction the shop
prepares nothing, and reads and writes through PgBouncer work. PostgreSQL runs only; needs Debian's
pgbouncer (installed by .ci/run)."""
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bookstore.extensions import db
from tests.conftest import empty_database
from tests.factories import Factories, placed
from tests.server import free_port

needs_pgbouncer = [
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PgBouncer fronts PostgreSQL only"),
    # Skipped only on a developer's machine without it: CI installs it, so there a missing binary fails.
    pytest.mark.skipif(shutil.which("pgbouncer") is None and not Path("/usr/sbin/pgbouncer").exists()
                       and not os.environ.get("CI"), reason="pgbouncer is not installed (.ci/run installs it)"),
]


@pytest.fixture
def bouncer(database_url):
    """PgBouncer in transaction mode with two server connections, in front of the worker's database."""
    target = make_url(database_url)
    folder = Path(tempfile.mkdtemp(prefix="pgbouncer-"))
    folder.chmod(0o777)  # pgbouncer drops root for the postgres user, who must read and write here
    port = free_port()
    (folder / "users.txt").write_text('"postgres" ""\n')
    (folder / "pgbouncer.ini").write_text(f"""[databases]
shop = host=127.0.0.1 port={target.port or 5432} dbname={target.database} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder / 'users.txt'}
pool_mode = transaction
default_pool_size = 2
max_client_conn = 50
logfile = {folder / 'pgbouncer.log'}
pidfile = {folder / 'pgbouncer.pid'}
""")
    for name in ("users.txt", "pgbouncer.ini"):
        (folder / name).chmod(0o644)
    binary = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    process = subprocess.Popen([binary, "-u", "postgres", str(folder / "pgbouncer.ini")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    yield f"postgresql://postgres@127.0.0.1:{port}/shop"
    process.terminate()
    process.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


@needs_pgbouncer[0]
@needs_pgbouncer[1]
def test_the_shop_works_through_pgbouncer_in_transaction_mode(bouncer, app, make_app):
    """Through PgBouncer with DATABASE_POOL_MODE=transaction: no connection prepares statements, and
    the same queries run many times over (past psycopg's prepare threshold), orders included."""
    books = [Factories().book(title=f"Physics Part {n}", stock=20) for n in range(3)]
    db.session.commit()
    shop = make_app(DATABASE_URL=bouncer, DATABASE_POOL_MODE="transaction")
    with shop.app_context():
        client = shop.test_client()
        connection = db.engine.raw_connection()
        assert connection.driver_connection.prepare_threshold is None
        connection.close()
        for _ in range(12):
            assert client.get("/api/books?search=physics").status_code == 200
            assert client.get(f"/api/books/{books[0].id}").status_code == 200
            assert client.get("/api/books?page=1&limit=2").status_code == 200
        for book in books:
            order = placed(client, [(book, 2)])
            assert order["status"] == "pending"
        db.session.remove()


def test_an_unknown_pool_mode_refuses_to_start(make_app):
    """DATABASE_POOL_MODE takes 'transaction' or nothing; a typo stops the app at start-up."""
    with pytest.raises(RuntimeError, match="DATABASE_POOL_MODE"):
        make_app(DATABASE_URL="postgresql://postgres@127.0.0.1/x", DATABASE_POOL_MODE="session-ish")
