"""The stock ledger (product §5.9): every change of a book's stock is a row written in the same transaction,
the admin reads and adjusts it, form edits become count corrections, and `flask check-stock` proves it whole."""
from sqlalchemy import select, text

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, StockMovement
from bookstore.services import stock
from tests.factories import place, placed
from tests.helpers import assert_refused, recorded_statements, writes

COVER = "covers/ab/abc.webp"


def opened(*books):
    """The ledgers of books made by the factory, opened as the migration opens them."""
    stock.open_ledgers()
    db.session.commit()
    return books


def rows(book) -> list[tuple]:
    db.session.expire_all()
    return [(row.kind, row.quantity, row.stock_after) for row in db.session.scalars(
        select(StockMovement).where(StockMovement.book_id == book.id).order_by(StockMovement.id))]


def shelf(book) -> int:
    return db.session.scalar(select(Book.stock).where(Book.id == book.id))


def test_an_order_writes_one_sale_row_per_book_with_its_order(client, factories, auth):
    first, second = opened(factories.book(stock=5), factories.book(stock=3))
    order = placed(client, [(first, 2), (second, 1)], headers=auth.customer())
    assert rows(first) == [("opening", 5, 5), ("sale", -2, 3)]
    assert rows(second) == [("opening", 3, 3), ("sale", -1, 2)]
    sale = db.session.scalars(select(StockMovement).where(StockMovement.kind == "sale")).first()
    assert sale.order.public_id == order["_id"] and sale.actor == "customer"


def test_an_order_of_many_books_writes_its_ledger_in_one_insert(client, factories):
    """Checkout stays one conditional UPDATE per book and adds one multi-row INSERT for the whole ledger."""
    books = opened(*(factories.book(stock=5) for _ in range(4)))
    with recorded_statements() as statements:
        placed(client, [(book, 1) for book in books])
    ledger = [s for s in writes(statements) if "stock_movements" in s]
    book_updates = [s for s in writes(statements) if s.lstrip().upper().startswith("UPDATE BOOKS")]
    assert len(ledger) == 1 and len(book_updates) == 4
    assert [rows(book)[-1] for book in books] == [("sale", -1, 4)] * 4


def test_a_refused_checkout_writes_no_row(client, factories):
    plenty, short = opened(factories.book(stock=5), factories.book(stock=1))
    assert_refused(place(client, [(plenty, 2), (short, 2)]), 409)
    assert rows(plenty) == [("opening", 5, 5)] and rows(short) == [("opening", 1, 1)]
    assert shelf(plenty) == 5


def test_a_cancel_writes_a_cancel_row(client, factories, auth):
    (book,) = opened(factories.book(stock=5))
    owner = auth.customer()
    order = placed(client, [(book, 2)], headers=owner)
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    assert rows(book) == [("opening", 5, 5), ("sale", -2, 3), ("cancel", 2, 5)]


def test_the_admin_reads_the_ledger_newest_first(client, factories, admin):
    (book,) = opened(factories.book(stock=5))
    placed(client, [(book, 1)])
    reply = client.get(f"/api/admin/books/{book.id}/stock-movements?limit=1", headers=admin)
    assert reply.status_code == 200
    body = reply.get_json()
    assert body["success"] is True and body["stock"] == 4
    assert [(m["kind"], m["quantity"], m["stockAfter"]) for m in body["movements"]] == [("sale", -1, 4)]
    assert body["movements"][0]["orderId"] and body["pagination"]["totalMovements"] == 2


def test_an_adjustment_is_a_row_with_its_reason_and_is_audited(client, factories, admin):
    (book,) = opened(factories.book(stock=5))
    reply = client.post(f"/api/admin/books/{book.id}/stock-movements",
                        json={"quantity": -2, "reason": "damaged", "note": "Rain at the door"}, headers=admin)
    assert reply.status_code == 201, reply.get_json()
    assert reply.get_json()["stock"] == 3 and reply.get_json()["movement"]["reason"] == "damaged"
    assert rows(book)[-1] == ("adjustment", -2, 3) and shelf(book) == 3
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "book.stock_adjust")).one()
    assert entry.before["stock"] == 5 and entry.after["stock"] == 3 and entry.after["reason"] == "damaged"


def test_an_adjustment_never_takes_stock_below_zero(client, factories, admin):
    (book,) = opened(factories.book(stock=2))
    assert_refused(client.post(f"/api/admin/books/{book.id}/stock-movements",
                               json={"quantity": -3, "reason": "lost"}, headers=admin), 409)
    assert shelf(book) == 2 and rows(book) == [("opening", 2, 2)]


def test_bad_adjustments_change_nothing(client, factories, admin, auth):
    (book,) = opened(factories.book(stock=2))
    path = f"/api/admin/books/{book.id}/stock-movements"
    for body in ({"quantity": 0, "reason": "found"}, {"quantity": 1, "reason": "stolen"}, {"reason": "found"},
                 {"quantity": "two", "reason": "found"}):
        assert client.post(path, json=body, headers=admin).status_code in (400, 422), body
    assert client.post(path, json={"quantity": 1, "reason": "found"}, headers=auth.customer()).status_code == 403
    assert client.get("/api/admin/books/999999/stock-movements", headers=admin).status_code == 404
    assert shelf(book) == 2 and rows(book) == [("opening", 2, 2)]


def test_editing_the_stock_field_is_a_count_correction(client, factories, admin):
    (book,) = opened(factories.book(stock=5, cover_key=COVER))
    assert client.put(f"/api/books/{book.id}", json={"stock": 8}, headers=admin).status_code == 200
    assert rows(book)[-1] == ("adjustment", 3, 8)
    row = db.session.scalars(select(StockMovement).order_by(StockMovement.id.desc())).first()
    assert row.reason == "count_correction" and row.actor.startswith("admin:")


def test_a_new_book_opens_its_ledger_with_its_stock(client, factories, admin):
    from tests.api.test_admin_books import form
    reply = client.post("/api/books", json=form(stock=7), headers=admin)
    assert reply.status_code == 201, reply.get_json()
    book = db.session.get(Book, int(reply.get_json()["book"]["_id"]))
    assert rows(book) == [("opening", 7, 7)]


def test_check_stock_passes_after_a_mixed_scenario_and_fails_after_tampering(client, factories, admin, auth,
                                                                                runner):
    first, second = opened(factories.book(stock=6, cover_key=COVER), factories.book(stock=4))
    owner = auth.customer()
    kept = placed(client, [(first, 2)], headers=owner)
    cancelled = placed(client, [(first, 1), (second, 2)], headers=owner)
    assert client.post(f"/api/orders/{cancelled['_id']}/cancel", headers=owner).status_code == 200
    assert client.post(f"/api/admin/books/{second.id}/stock-movements",
                       json={"quantity": 5, "reason": "received_from_supplier"}, headers=admin).status_code == 201
    assert client.put(f"/api/books/{first.id}", json={"stock": 3}, headers=admin).status_code == 200
    assert kept
    result = runner.invoke(args=["check-stock"])
    assert result.exit_code == 0, result.output
    db.session.execute(text("UPDATE books SET stock = stock + 1 WHERE id = :id"), {"id": second.id})
    db.session.commit()
    result = runner.invoke(args=["check-stock"])
    assert result.exit_code == 1
    assert result.output.startswith(f"Book {second.id} '") and f"Book {first.id} '" not in result.output
