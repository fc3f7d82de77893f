"""Races for a coupon's per-customer and first-order rules, against a real gunicorn on the test database
(see tests/test_concurrency.py): one shopper's parallel checkouts with a once-per-customer or first-order
code get the discount once. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Book, Coupon, CouponUse, Order
from tests.factories import order_payload
from tests.server import Gunicorn
from tests.test_concurrency import address, assert_no_failures, burst, fresh


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    """One gunicorn for the module; each test empties the database and makes its own books."""
    with Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=4, threads=4) as running:
        yield running


def coupon(code: str, **rules) -> int:
    """A 10% code with the given rules, stored; its id."""
    made = Coupon(code=code, kind="percent", value=10, uses=0, **rules)
    db.session.add(made)
    db.session.commit()
    return made.id


def one_shopper(book, n: int, code: str) -> dict:
    """The same shopper's n-th checkout (one e-mail; the phone changes, as a shopper's retries might):
    one ₹500 book, 10% off, ₹40 shipping. Each checkout buys another book, so no book's row lock
    happens to line them up."""
    contact = {**address(0), "phone": f"98765{n:05d}"}
    return order_payload([(book, 1)], shippingAddress=contact, couponCode=code, totalPrice=450 + 40)


def books(factories, count: int) -> list:
    return [factories.book(title=f"Coupon race {n}", price_paise=50000, stock=5) for n in range(count)]


def assert_one_discounted_order(results, server, coupon_id: int, code: str, reason: str) -> None:
    """One 201 with the discount; every other checkout is the 409 "prices changed" naming the reason;
    the code counts one use, and only the winner's order and copy exist."""
    statuses = assert_no_failures(results, server)
    assert statuses == {201: 1, 409: len(results) - 1}, [reply.get("message") for _status, reply in results]
    winner = next(reply["order"] for status, reply in results if status == 201)
    assert (winner["discount"], winner["couponCode"], winner["totalPrice"]) == (50, code, 490)
    for status, reply in results:
        if status == 409:
            assert reply["current"]["coupon"] == {"code": code, "applied": False, "discount": 0,
                                                  "reason": reason}, reply
            assert reply["current"]["totalPrice"] == 540
    assert fresh(Coupon, coupon_id).uses == 1
    assert db.session.scalar(select(func.count()).select_from(CouponUse)) == 1
    assert db.session.scalar(select(func.count()).select_from(Order)) == 1
    assert db.session.scalar(select(func.sum(Book.stock))) == 5 * len(results) - 1


def test_thirty_parallel_checkouts_use_a_once_per_customer_code_once(server, app, factories):
    """30 checkouts of one shopper with a maxUsesPerCustomer 1 code reach the server together: one order
    gets the discount, 29 are told they have already used it."""
    coupon_id = coupon("ONCE30", max_uses_per_customer=1)
    bodies = [one_shopper(book, n, "ONCE30") for n, book in enumerate(books(factories, 30))]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body, None) for body in bodies])

    assert_one_discounted_order(results, server, coupon_id, "ONCE30", "You have already used this coupon.")


def test_parallel_first_orders_use_a_first_order_code_once(server, app, factories):
    """A shopper's 20 parallel first orders with a first-order-only code (no per-customer limit): one is
    the first order, the other 19 are not."""
    coupon_id = coupon("FIRST20", first_order_only=True)
    bodies = [one_shopper(book, n, "FIRST20") for n, book in enumerate(books(factories, 20))]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body, None) for body in bodies])

    assert_one_discounted_order(results, server, coupon_id, "FIRST20", "This coupon is for a first order only.")
