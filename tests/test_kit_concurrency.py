"""Races for the last kits, against a real gunicorn on the test database (see tests/test_concurrency.py):
a kit takes each of its books in the order's transaction, so buyers of kits and of a kit's book alone
never oversell any book. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL."""
import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Book, Kit, KitBook, Order, OrderLineBook
from tests.factories import order_payload
from tests.server import Gunicorn
from tests.test_concurrency import address, assert_no_failures, burst, fresh


@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    """One gunicorn for the module; each test empties the database and makes its own books."""
    with Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=4, threads=4) as running:
        yield running


def kit_body(kit: Kit, n: int) -> dict:
    """A cash-on-delivery order of one kit for buyer n, with the right total (kit + ₹40)."""
    return {"orderItems": [{"kit": str(kit.id), "quantity": 1}], "shippingAddress": address(n),
            "paymentMethod": "cod", "totalPrice": (kit.price_paise + 4000) / 100}


def test_buyers_of_the_last_kits_and_of_their_book_never_oversell(server, app, factories):
    """15 buyers of a kit (Physics + 2 × Maths) and 10 of Maths alone meet 20 Physics and 5 Maths at once:
    every Maths copy goes to exactly one order, Physics falls by the kits sold, the rest are polite 409s."""
    physics = factories.book(title="Kit Physics", price_paise=50000, stock=20)
    maths = factories.book(title="Kit Maths", price_paise=30000, stock=5)
    kit = Kit(name="Last kits", slug="last-kits", description="", price_paise=90000,
              items=[KitBook(book_id=physics.id, quantity=1, position=0),
                     KitBook(book_id=maths.id, quantity=2, position=1)])
    db.session.add(kit)
    db.session.commit()
    bodies = [kit_body(kit, n) for n in range(15)] + [order_payload([(maths, 1)], shippingAddress=address(100 + n))
                                                       for n in range(10)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body, None) for body in bodies])

    statuses = assert_no_failures(results, server)
    kits_sold = sum(1 for status, _ in results[:15] if status == 201)
    alone_sold = sum(1 for status, _ in results[15:] if status == 201)
    assert statuses[201] == kits_sold + alone_sold and statuses[409] == 25 - statuses[201], statuses
    assert 2 * kits_sold + alone_sold <= 5 and kits_sold + alone_sold >= 3, (kits_sold, alone_sold)
    for status, reply in results:
        if status == 409:
            assert reply["bookId"] == str(maths.id) and "Kit Maths" in reply["message"], reply
    stored_maths, stored_physics = fresh(Book, maths.id), fresh(Book, physics.id)
    assert stored_maths.stock == 5 - 2 * kits_sold - alone_sold and stored_maths.stock >= 0
    assert stored_maths.copies_sold == 2 * kits_sold + alone_sold
    assert (stored_physics.stock, stored_physics.copies_sold) == (20 - kits_sold, kits_sold)
    assert db.session.scalar(select(func.count()).select_from(Order)) == statuses[201]
    assert db.session.scalar(select(func.count()).select_from(OrderLineBook)) == 2 * kits_sold
