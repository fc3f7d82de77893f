"""How the shop is served: gunicorn started as production and `make run` start it, with the project's
gunicorn.conf.py, on the test database.

Before, two connections that sent half a request line stalled the whole shop for 30 s (a sync worker
waits for the headers), four create-order calls against a slow Razorpay delayed /api/health by 19.5 s,
and `make run`'s two workers each counted the rate limits on their own (40 orders got through a limit
of 30).
"""
import shlex
import socket
import subprocess
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from bookstore.extensions import db
from bookstore.models import ContactMessage
from tests.conftest import RAZORPAY_KEYS
from tests.factories import ADDRESS, Factories, count, order_payload
from tests.jobs.consumer import wait_until
from tests.server import ROOT, Gunicorn, free_port, request

HEALTHY = (200, {"status": "ok", "database": "ok"})
TIMED_OUT = "The payment service did not answer in time. Nothing was charged; please try again."


@pytest.fixture
def shop(database_url, tmp_path, razorpay, app):
    """gunicorn as the Procfile runs it (2 workers of gunicorn.conf.py), online payment on the fake Razorpay,
    clients cut off after 3 s of silence; an empty database."""
    db.session.remove()
    server = Gunicorn(database_url, tmp_path, workers=2, threads=None)
    server.env.update(RAZORPAY_KEYS, RAZORPAY_BASE_URL=razorpay.base_url, CLIENT_TIMEOUT_SECONDS="3")
    with server:
        yield server


def half_open(port: int, number: int) -> list[socket.socket]:
    """Connections that sent the start of a request line, and then nothing."""
    sockets = []
    for _ in range(number):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        sock.sendall(b"GET /api/hea")
        sockets.append(sock)
    return sockets


def health_seconds(port: int) -> float:
    """How long GET /api/health took, on a new connection; it must answer healthy."""
    started = time.monotonic()
    assert request(port, "GET", "/api/health", timeout=60) == HEALTHY
    return time.monotonic() - started


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (reading gives end of file)."""
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True


def online_orders(port: int, number: int) -> list[str]:
    """`number` online orders of different guests, placed over HTTP; their public ids."""
    book = Factories().book(title="NEET Biology", price_paise=50000, stock=50)
    payloads = [order_payload([(book, 1)], "online", shippingAddress={
        **ADDRESS, "email": f"payer{n}@example.in", "phone": f"98765432{n:02d}"}) for n in range(number)]
    db.session.remove()
    ids = []
    for payload in payloads:
        status, reply = request(port, "POST", "/api/orders", payload)
        assert status == 201, reply
        ids.append(reply["order"]["_id"])
    return ids


def test_half_open_connections_and_a_slow_razorpay_leave_the_shop_answering(shop, razorpay):
    """4 connections holding half a request line and 4 create-order calls waiting on a Razorpay that does
    not answer: while all 8 wait, /api/health answers in under a second every time."""
    orders = online_orders(shop.port, 4)
    razorpay.delay_all(30)
    stalled = half_open(shop.port, 4)
    results = []
    callers = [threading.Thread(target=lambda order=order: results.append(
        request(shop.port, "POST", "/api/payments/create-order", {"orderId": order}))) for order in orders]
    try:
        for caller in callers:
            caller.start()
        wait_until(lambda: len(razorpay.calls("POST", "/v1/orders")) == 4, 20,
                   f"the create-order calls never reached Razorpay\n{shop.log()[-3000:]}")
        seconds = [health_seconds(shop.port) for _ in range(6)]
        assert max(seconds) < 1, seconds
        assert all(caller.is_alive() for caller in callers)  # still waiting on Razorpay meanwhile
    finally:
        for caller in callers:
            caller.join(timeout=30)
        for sock in stalled:
            sock.close()
    assert [status for status, _ in results] == [503] * 4, results
    assert all(reply["message"] == TIMED_OUT for _, reply in results)
    assert not shop.errors_logged(), shop.log()[-3000:]


def test_a_client_that_stops_mid_request_is_cut_off(shop):
    """A connection that sent half a request line and went quiet is closed after CLIENT_TIMEOUT_SECONDS
    (3 s here), freeing its thread; no answer is sent and nothing is logged as an error."""
    [sock] = half_open(shop.port, 1)
    started = time.monotonic()
    with sock:
        assert closed_by_server(sock)
    assert 2.5 < time.monotonic() - started < 8
    assert not shop.errors_logged(), shop.log()[-3000:]


def test_more_stalled_connections_than_threads_hold_the_shop_for_the_client_timeout_at_most(shop):
    """20 quiet connections, more than the 16 threads of 2 workers: each is cut off after 3 s, so
    /api/health waits for a few of those timeouts at most (under sync workers: until gunicorn killed them)."""
    stalled = half_open(shop.port, 20)
    try:
        assert health_seconds(shop.port) < 3 * 3 + 2
        for sock in stalled:
            assert closed_by_server(sock)
    finally:
        for sock in stalled:
            sock.close()


def make_run_command(port: int) -> list[str]:
    """The gunicorn command `make run` executes, as `make -n` prints it."""
    printed = subprocess.run(["make", "-n", "--no-print-directory", "run", f"PORT={port}"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert printed.returncode == 0, printed.stderr
    [line] = [line for line in printed.stdout.replace("\\\n", " ").splitlines() if line.startswith("exec ")]
    return shlex.split(line)[1:]


def test_make_run_counts_each_rate_limit_once_for_the_whole_shop(database_url, tmp_path, app):
    """`make run`'s gunicorn (development settings, rate limits in memory://): 40 contact messages from
    one address meet FORM_LIMIT_PER_IP's 5 a minute once, whichever worker or thread takes them."""
    db.session.remove()
    port = free_port()
    server = Gunicorn(database_url, tmp_path)
    # make run's settings: development, rate limits at their defaults (on, in memory://).
    env = {name: value for name, value in server.env.items()
           if not name.startswith(("RATELIMIT_", "BOOKSTORE_ENV", "PUBLIC_URL", "GUNICORN_READY"))}
    command = make_run_command(port)
    with open(tmp_path / "make-run.log", "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=log, start_new_session=True)
    server.process, server.port = process, port
    try:
        wait_until(lambda: _healthy(port) or process.poll() is not None, 90, "make run's gunicorn never answered")
        assert process.poll() is None, (tmp_path / "make-run.log").read_text()[-3000:]
        message = {"name": "Ravi", "email": "ravi@example.in", "subject": "general",
                   "message": "Is the new edition of HC Verma in stock?"}
        with ThreadPoolExecutor(8) as pool:
            statuses = list(pool.map(lambda _: request(port, "POST", "/api/contact", message)[0], range(40)))
    finally:
        server.stop()
    assert Counter(statuses) == {201: 5, 429: 35}
    assert count(ContactMessage) == 5


def _healthy(port: int) -> bool:
    try:
        return request(port, "GET", "/api/health", timeout=2) == HEALTHY
    except OSError:
        return False
