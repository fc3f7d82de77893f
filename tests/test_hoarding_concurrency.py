"""Parallel orders from one IP against the cap on copies held by unpaid orders (product §5.7), on a real
gunicorn (see tests/test_concurrency.py): each buys another book, so no stock row lines them up, and still
no more copies than the cap are held. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Order, OrderLine
from tests.factories import order_payload
from tests.server import Gunicorn
from tests.test_concurrency import address, assert_no_failures, burst


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    """One gunicorn for the module at the default cap of 50 copies (the other servers raise it)."""
    running = Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=4, threads=4)
    running.env["UNPAID_COPIES_PER_BUYER"] = "50"
    with running:
        yield running


def test_parallel_orders_from_one_ip_hold_no_more_than_the_cap(server, app, factories):
    """12 cash orders of 10 copies, each of another book and by another buyer, reach the server together from
    one IP: 5 are placed (50 copies), 7 are refused with the reason."""
    books = [factories.book(title=f"Hoard race {n}", price_paise=20000, stock=20) for n in range(12)]
    bodies = [order_payload([(book, 10)], shippingAddress={**address(n), "phone": f"98{n:08d}"})
              for n, book in enumerate(books)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body, None) for body in bodies])

    statuses = assert_no_failures(results, server)
    assert statuses == {201: 5, 409: 7}, [reply.get("message") for _status, reply in results]
    for status, reply in results:
        if status == 409:
            assert reply["limit"] == 50 and reply["held"] + 10 > 50, reply
            assert reply["message"].startswith("Unpaid orders from your network or browser already hold")
    assert db.session.scalar(select(func.count()).select_from(Order)) == 5
    assert db.session.scalar(select(func.sum(OrderLine.quantity))) == 50
    assert set(db.session.scalars(select(Order.placed_ip))) == {"127.0.0.1"}
