"""Races at the till, against a real gunicorn (4 gthread workers × 4 threads) on the test database.

Every request of a burst waits at a barrier on its own open connection, so they reach the server
together. The shop must never oversell, never answer 5xx (no "database is locked", no PostgreSQL
deadlock) and never give stock back twice. Runs on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
"""
import http.client
import threading
from collections import Counter

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Book, Order, OrderLine, OrderStatusChange, OutboxMail
from tests.factories import order_payload
from tests.server import Gunicorn, request, send

@pytest.fixture(scope="module")
def server(database_url, tmp_path_factory):
    """One gunicorn for the module; each test empties the database and makes its own books."""
    with Gunicorn(database_url, tmp_path_factory.mktemp("gunicorn"), workers=4, threads=4) as running:
        yield running


def address(n: int) -> dict:
    return {"firstName": "Buyer", "lastName": f"Number {n}", "email": f"buyer{n}@example.in",
            "phone": "9876543210", "address": f"{n} FC Road", "city": "Pune", "state": "Maharashtra",
            "zipCode": "411001"}


def order_body(basket: list[tuple[Book, int]], n: int) -> dict:
    """A cash-on-delivery order of buyer n for (book, quantity) pairs, with the right total (items + ₹40)."""
    return order_payload(basket, shippingAddress=address(n))


def burst(server: Gunicorn, calls: list[tuple[str, str, dict | None, dict | None]]) -> list[tuple]:
    """Send every (method, path, body, headers) at once, each on its own connection; [(status, body)]."""
    barrier = threading.Barrier(len(calls))
    results: list[tuple] = [("not run", None)] * len(calls)

    def run(index, method, path, body, headers):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            connection.connect()
            barrier.wait(timeout=30)
            results[index] = send(connection, method, path, body, headers)
        except Exception as error:  # noqa: BLE001 - reported with the results
            results[index] = ("error", repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    return results


def assert_no_failures(results: list[tuple], server: Gunicorn) -> Counter:
    """No 5xx, no transport error, no traceback in the server's log; the statuses, counted."""
    statuses = Counter(status for status, _body in results)
    broken = [(status, body) for status, body in results if not isinstance(status, int) or status >= 500]
    assert not broken, f"{broken[:3]}\n--- server log ---\n{server.log()[-4000:]}"
    assert not server.errors_logged(), server.log()[-4000:]
    return statuses


def fresh(model, ident):
    """A row as committed now, not as this session remembers it."""
    db.session.expire_all()
    return db.session.get(model, ident)


def count(statement) -> int:
    return db.session.scalar(statement)


def sold_quantity(book_id: int) -> int:
    return count(select(func.coalesce(func.sum(OrderLine.quantity), 0)).where(OrderLine.book_id == book_id))


def test_forty_buyers_for_the_last_five_copies(server, app, factories):
    """40 buyers of 1 copy each meet 5 copies: 5 orders, 35 polite 409s, stock 0, nothing oversold."""
    book = factories.book(title="Concepts of Physics Vol 1", price_paise=59900, discounted_price_paise=44950,
                          stock=5)
    body = [order_body([(book, 1)], n) for n in range(40)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body[n], None) for n in range(40)])

    statuses = assert_no_failures(results, server)
    assert statuses == {201: 5, 409: 35}, statuses
    for status, reply in results:
        if status == 201:
            order = reply["order"]
            assert order["totalPrice"] == 489.5 and order["itemsPrice"] == 449.5 and order["shippingPrice"] == 40
            assert [(item["book"], item["quantity"]) for item in order["orderItems"]] == [(str(book.id), 1)]
            assert order["orderNumber"].startswith("BK-")
        else:
            assert reply["success"] is False
            assert reply["message"] == "Sorry, 'Concepts of Physics Vol 1' is out of stock.", reply
            assert reply["bookId"] == str(book.id) and reply["available"] == 0

    stored = fresh(Book, book.id)
    assert (stored.stock, stored.copies_sold) == (0, 5)
    assert count(select(func.count()).select_from(Order)) == 5
    assert count(select(func.count()).select_from(OrderLine)) == 5
    assert sold_quantity(book.id) == 5
    numbers = {reply["order"]["orderNumber"] for status, reply in results if status == 201}
    assert set(db.session.scalars(select(Order.order_number))) == numbers
    assert count(select(func.count()).select_from(OutboxMail)) == 5  # one confirmation per order, no more


def test_twenty_buyers_of_two_copies_each_share_five(server, app, factories):
    """Buyers of 2 copies each: two orders fit into 5 copies, the third would oversell; 1 copy is left."""
    book = factories.book(title="GATE Mechanical Guide", price_paise=79900, stock=5)
    body = [order_body([(book, 2)], n) for n in range(20)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body[n], None) for n in range(20)])

    statuses = assert_no_failures(results, server)
    assert statuses == {201: 2, 409: 18}, statuses
    for status, reply in results:
        if status == 201:
            assert reply["order"]["totalPrice"] == 2 * 799 + 40
        else:
            assert reply["message"] == "Only 1 copy of 'GATE Mechanical Guide' is left.", reply
            assert reply["available"] == 1
    stored = fresh(Book, book.id)
    assert (stored.stock, stored.copies_sold) == (1, 4)
    assert count(select(func.count()).select_from(Order)) == 2
    assert sold_quantity(book.id) == 4


def test_crossed_baskets_neither_deadlock_nor_oversell(server, app, factories):
    """Half the buyers send [A, B], half [B, A]: locks taken in basket order would deadlock on PostgreSQL."""
    book_a = factories.book(title="Book A", price_paise=30000, stock=10)
    book_b = factories.book(title="Book B", price_paise=45050, stock=10)
    baskets = [[(book_a, 1), (book_b, 1)] if n % 2 == 0 else [(book_b, 1), (book_a, 1)] for n in range(30)]
    body = [order_body(basket, n) for n, basket in enumerate(baskets)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body[n], None) for n in range(30)])

    statuses = assert_no_failures(results, server)
    assert "deadlock" not in server.log().lower()
    # Every basket holds one A and one B, so exactly 10 fit; each refusal names the book that ran out.
    assert statuses == {201: 10, 409: 20}, statuses
    for status, reply in results:
        if status == 409:
            assert "out of stock" in reply["message"] and reply["bookId"] in (str(book_a.id), str(book_b.id))
        else:
            assert {item["book"] for item in reply["order"]["orderItems"]} == {str(book_a.id), str(book_b.id)}
            assert reply["order"]["totalPrice"] == 300 + 450.5 + 40
    db.session.expire_all()
    for book in (book_a, book_b):
        stored = fresh(Book, book.id)
        containing = count(select(func.count(func.distinct(OrderLine.order_id))).where(OrderLine.book_id == book.id))
        assert containing == 10
        assert stored.stock == 10 - containing and stored.copies_sold == containing == sold_quantity(book.id)
    assert count(select(func.count()).select_from(Order)) == 10
    lines_per_order = db.session.execute(select(OrderLine.order_id, func.count()).group_by(OrderLine.order_id)).all()
    assert all(lines == 2 for _order_id, lines in lines_per_order)


def test_ten_concurrent_cancels_release_stock_once(server, app, factories):
    """The owner presses cancel ten times at once: one cancellation, stock given back exactly once."""
    book = factories.book(title="Indian Polity", price_paise=69900, stock=5)
    body = order_body([(book, 2)], 1)
    db.session.remove()
    status, reply = request(server.port, "POST", "/api/auth/register",
                            {"firstName": "Meera", "lastName": "Iyer", "email": "meera@example.in",
                             "password": "secret-pass", "phone": "9876543210"})
    assert status == 201, reply
    token = {"Authorization": f"Bearer {reply['token']}"}
    status, reply = request(server.port, "POST", "/api/orders", body, token)
    assert status == 201, reply
    order_id = reply["order"]["_id"]
    assert fresh(Book, book.id).stock == 3
    db.session.remove()

    results = burst(server, [("POST", f"/api/orders/{order_id}/cancel", None, token)] * 10)

    statuses = assert_no_failures(results, server)
    assert statuses == {200: 1, 409: 9}, statuses
    winner = next(reply for status, reply in results if status == 200)
    assert winner["order"]["status"] == "cancelled"
    assert all(reply["success"] is False for status, reply in results if status == 409)
    stored = fresh(Book, book.id)
    assert (stored.stock, stored.copies_sold) == (5, 0)
    order = db.session.scalar(select(Order).where(Order.public_id == order_id))
    assert order.status == "cancelled" and order.stock_released is True
    cancellations = count(select(func.count()).select_from(OrderStatusChange)
                          .where(OrderStatusChange.order_id == order.id, OrderStatusChange.status == "cancelled"))
    assert cancellations == 1
    cancel_mails = count(select(func.count()).select_from(OutboxMail).where(OutboxMail.subject.like("%cancelled")))
    assert cancel_mails == 1


def test_a_retry_racing_its_original_order_is_replayed_not_refused(server, app, factories):
    """A double-submit with one Idempotency-Key while the first is still in flight: the same order, not a 409.

    The original takes the last copy; a retry that passed the key look-up before the original
    committed must still answer with the original order (200, replayed), never "out of stock".
    """
    book = factories.book(title="Last Copy Atlas", price_paise=39900, stock=1)
    body = order_body([(book, 1)], 7)
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body, {"Idempotency-Key": "checkout-7f3a9c"})] * 8)

    statuses = assert_no_failures(results, server)
    assert fresh(Book, book.id).stock == 0 and count(select(func.count()).select_from(Order)) == 1
    assert statuses == {201: 1, 200: 7}, [reply["message"] for status, reply in results if status != 201]
    assert len({reply["order"]["_id"] for _status, reply in results}) == 1


def test_racing_buyers_each_write_their_ledger_row_and_the_ledger_stays_whole(server, app, factories):
    """30 buyers for 6 copies: 6 sale rows whose stock after runs 5 to 0 once each (each row is the stock its
    own UPDATE left), no row for a refused buyer, and the stock is the ledger's sum (product §5.9)."""
    from bookstore.models import StockMovement
    from bookstore.services import stock

    book = factories.book(title="Ledger Race", price_paise=30000, stock=6)
    stock.open_ledgers()
    db.session.commit()
    body = [order_body([(book, 1)], n) for n in range(30)]
    db.session.remove()

    results = burst(server, [("POST", "/api/orders", body[n], None) for n in range(30)])

    assert assert_no_failures(results, server) == {201: 6, 409: 24}
    db.session.expire_all()
    sales = db.session.scalars(select(StockMovement).where(StockMovement.book_id == book.id,
                                                            StockMovement.kind == "sale")).all()
    assert sorted(row.stock_after for row in sales) == [0, 1, 2, 3, 4, 5]
    assert {row.order_id for row in sales} == set(db.session.scalars(select(Order.id)))
    assert stock.differences() == [] and fresh(Book, book.id).stock == 0
