"""Bill numbers under concurrency, against a real gunicorn (4 workers × 4 threads) on the test database: orders
delivered at the same moment get consecutive numbers, none twice and none skipped; the same order delivered or
downloaded by many at once keeps one number. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL."""
from sqlalchemy import select, update

from bookstore.extensions import db
from bookstore.models import BillCounter, Order
from bookstore.services import bills
from tests.server import request
from tests.test_concurrency import assert_no_failures, burst, order_body, server  # noqa: F401 - the fixture


def admin_headers(server, factories) -> dict:
    factories.user(email="admin@example.in", password="admin-pass-1", role="admin")
    db.session.remove()
    status, reply = request(server.port, "POST", "/api/auth/login",
                            {"email": "admin@example.in", "password": "admin-pass-1"})
    assert status == 200, reply
    return {"Authorization": f"Bearer {reply['token']}"}


def place_shipped(server, bodies: list[dict]) -> list[str]:
    """Cash-on-delivery orders, moved to shipped behind the API's back; their `_id`s."""
    ids = []
    for body in bodies:
        status, reply = request(server.port, "POST", "/api/orders", body)
        assert status == 201, reply
        ids.append(reply["order"]["_id"])
    db.session.execute(update(Order).where(Order.public_id.in_(ids)).values(status="shipped"))
    db.session.commit()
    db.session.remove()
    return ids


def stored_numbers() -> dict[str, str]:
    db.session.expire_all()
    return {order.public_id: order.bill_number for order in db.session.scalars(select(Order))}


def test_orders_delivered_at_once_get_consecutive_numbers(server, app, factories):
    """12 orders delivered at the same moment (4 of them twice): 12 numbers, 1 to 12 in this financial year, each
    once; the counter stands at 12."""
    book = factories.book(title="Numbering Under Load", price_paise=30000, stock=40)
    bodies = [order_body([(book, 1)], n) for n in range(12)]
    headers = admin_headers(server, factories)
    ids = place_shipped(server, bodies)

    calls = [("PUT", f"/api/admin/orders/{order_id}/status", {"status": "delivered"}, headers)
             for order_id in ids + ids[:4]]
    results = burst(server, calls)

    statuses = assert_no_failures(results, server)
    assert set(statuses) <= {200, 409} and statuses[200] >= 12, statuses
    numbers = stored_numbers()
    assert all(numbers[order_id] for order_id in ids), numbers
    year = bills.financial_year(db.session.scalar(select(Order.billed_at).limit(1)))
    prefix = f"BS/{year[2:4]}{year[5:7]}/"
    assert sorted(numbers[order_id] for order_id in ids) == [f"{prefix}{n:06d}" for n in range(1, 13)]
    assert db.session.get(BillCounter, year).last_number == 12


def test_many_downloads_at_once_change_nothing(server, app, factories):
    """A bill asked for 10 times at once: every answer is the same PDF and nothing moves (the download only
    reads); an order without a number (migration 0024 numbers those paid before bills existed) is 404 every
    time and is never numbered by a download."""
    book = factories.book(title="Lazy Numbering", price_paise=30000, stock=5)
    bodies = [order_body([(book, 1)], 1), order_body([(book, 1)], 2)]
    headers = admin_headers(server, factories)
    billed, unnumbered = place_shipped(server, bodies)
    delivered = burst(server, [("PUT", f"/api/admin/orders/{billed}/status", {"status": "delivered"}, headers)])
    assert assert_no_failures(delivered, server) == {200: 1}
    db.session.execute(update(Order).where(Order.public_id == unnumbered).values(status="delivered",
                                                                                payment_status="paid"))
    db.session.commit()
    db.session.remove()

    results = burst(server, [("GET", f"/api/orders/{billed}/bill", None, headers)] * 10
                    + [("GET", f"/api/orders/{unnumbered}/bill", None, headers)] * 5)

    statuses = assert_no_failures(results, server)
    assert statuses == {200: 10, 404: 5}, statuses
    numbers = stored_numbers()
    assert numbers[billed].endswith("/000001") and numbers[unnumbered] is None
    assert [counter.last_number for counter in db.session.scalars(select(BillCounter))] == [1]
