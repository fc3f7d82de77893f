"""Kits (issue 15): several books at a kit price. The kit's stock is its scarcest book's; an order of a kit
takes every book in the order's transaction or refuses the whole order; a cancel or an expired hold gives each
book back; the quote and coupons treat the kit price like any line; admins create, change and archive kits."""
import pytest

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, Kit, KitBook, Order, OrderLine, OrderLineBook
from bookstore.services import orders as order_service
from tests.factories import ADDRESS, count
from tests.helpers import assert_refused, expire_payment_window, order_row, stock_of

SHIPPING_PAISE = 4000


@pytest.fixture
def admin(auth):
    return auth.admin()


@pytest.fixture
def books(factories):
    """Three JEE books: ₹500 (10 left), ₹400 sold at ₹300 (7 left) and ₹200 (4 left)."""
    return (factories.book(title="JEE Physics", price_paise=50000, stock=10),
            factories.book(title="JEE Chemistry", price_paise=40000, discounted_price_paise=30000, stock=7),
            factories.book(title="JEE Maths", price_paise=20000, stock=4))


def make_kit(client, admin, books_and_copies, **fields) -> dict:
    """A kit made through the admin API."""
    body = {"name": "JEE Main 2027 complete set", "price": 900, "description": "Everything for JEE Main.",
            "books": [{"book": str(book.id), "quantity": copies} for book, copies in books_and_copies], **fields}
    response = client.post("/api/admin/kits", json=body, headers=admin)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["kit"]


def kit_order(lines, method="cod", total_paise=None, **changes) -> dict:
    """An order payload of (("kit"|"book", id, price_paise), quantity) lines with the server's total."""
    items = sum(price * quantity for (_kind, _id, price), quantity in lines)
    total = items + SHIPPING_PAISE if total_paise is None else total_paise
    return {"orderItems": [{kind: str(key), "quantity": quantity} for (kind, key, _price), quantity in lines],
            "shippingAddress": dict(ADDRESS), "paymentMethod": method, "totalPrice": total / 100, **changes}


def as_line(kit: dict) -> tuple:
    return ("kit", kit["_id"], round(kit["price"] * 100))


def test_a_kit_has_as_many_as_its_scarcest_book_allows(client, admin, books):
    """Stock 10, 7 and 4 with 1, 2 and 1 copies per kit: 3 kits (7 // 2); the page shows the books, their
    sum at sale prices (₹500 + 2 × ₹300 + ₹200 = ₹1,300), the kit price and the saving."""
    physics, chemistry, maths = books
    made = make_kit(client, admin, [(physics, 1), (chemistry, 2), (maths, 1)])
    assert made["slug"] == "jee-main-2027-complete-set"

    response = client.get("/api/kits/jee-main-2027-complete-set")
    assert response.status_code == 200, response.get_json()
    kit = response.get_json()["kit"]
    assert (kit["stock"], kit["inStock"], kit["price"], kit["booksPrice"], kit["saving"]) == (3, True, 900, 1300, 400)
    assert [(b["title"], b["quantity"], b["salePrice"]) for b in kit["books"]] == [
        ("JEE Physics", 1, 500), ("JEE Chemistry", 2, 300), ("JEE Maths", 1, 200)]

    db.session.execute(db.update(Book).where(Book.id == maths.id).values(stock=0))
    db.session.commit()
    kit = client.get("/api/kits/jee-main-2027-complete-set").get_json()["kit"]
    assert (kit["stock"], kit["inStock"]) == (0, False)


def test_the_shop_lists_kits_on_sale_and_an_exams_kits(client, admin, books):
    """GET /api/kits lists kits on sale by name, `exam` keeps one exam's; an archived kit is neither listed
    nor found (404)."""
    physics, chemistry, _maths = books
    jee = db.session.scalar(db.select(db.text("id")).select_from(db.text("exams")).where(db.text("slug = 'jee-main'")))
    make_kit(client, admin, [(physics, 1)], name="B physics kit", exam=str(jee))
    old = make_kit(client, admin, [(chemistry, 1)], name="A chemistry kit")
    assert [k["name"] for k in client.get("/api/kits").get_json()["kits"]] == ["A chemistry kit", "B physics kit"]
    listed = client.get("/api/kits?exam=jee-main").get_json()["kits"]
    assert [(k["name"], k["exam"]["slug"]) for k in listed] == [("B physics kit", "jee-main")]

    response = client.put(f"/api/admin/kits/{old['_id']}", json={"archived": True}, headers=admin)
    assert response.status_code == 200 and response.get_json()["kit"]["archived"] is True
    assert [k["name"] for k in client.get("/api/kits").get_json()["kits"]] == ["B physics kit"]
    assert_refused(client.get("/api/kits/a-chemistry-kit"), 404, "Kit not found.")


def test_an_order_of_kits_takes_each_book_and_records_the_kit(client, admin, books):
    """2 kits and 1 more Physics: each book's stock falls by its copies (Physics 2 + 1, Chemistry 4, Maths 2)
    in one order; the kit's line carries its name, kit price and books; the money adds up like any line."""
    physics, chemistry, maths = books
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 2), (maths, 1)])
    body = kit_order([(as_line(kit), 2), (("book", physics.id, 50000), 1)])
    response = client.post("/api/orders", json=body)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert (order["itemsPrice"], order["shippingPrice"], order["totalPrice"]) == (2300, 40, 2340)
    kit_line, book_line = order["orderItems"]
    assert (kit_line["kit"], kit_line["book"], kit_line["title"], kit_line["price"], kit_line["quantity"],
            kit_line["lineTotal"]) == (kit["_id"], None, "JEE Main 2027 complete set", 900, 2, 1800)
    assert [(b["title"], b["quantity"]) for b in kit_line["kitBooks"]] == [
        ("JEE Physics", 1), ("JEE Chemistry", 2), ("JEE Maths", 1)]
    assert (book_line["book"], book_line["kit"], book_line["kitBooks"]) == (str(physics.id), None, [])
    assert (stock_of(physics), stock_of(chemistry), stock_of(maths)) == ((7, 3), (3, 4), (2, 2))
    assert client.get("/api/kits/jee-main-2027-complete-set").get_json()["kit"]["stock"] == 1
    row = order_row(order["_id"])
    assert (row.items_paise, row.total_paise) == (230000, 234000)


def test_one_book_short_refuses_the_whole_order(client, admin, books, factories):
    """2 kits need 2 Maths but 1 is left: 409 with the existing out-of-stock shape naming the book and the kit;
    no book loses stock (not the kit's others, not a book line beside it), no order or line is written."""
    physics, chemistry, maths = books
    other = factories.book(title="Other", price_paise=10000, stock=5)
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 1), (maths, 1)])
    db.session.execute(db.update(Book).where(Book.id == maths.id).values(stock=1))
    db.session.commit()

    response = client.post("/api/orders", json=kit_order([(("book", other.id, 10000), 1), (as_line(kit), 2)]))
    reply = assert_refused(response, 409, "Only 1 copy of 'JEE Maths' is left. It is part of the kit "
                                          "'JEE Main 2027 complete set'.")
    assert (reply["bookId"], reply["available"], reply["kitId"]) == (str(maths.id), 1, kit["_id"])
    assert (stock_of(physics), stock_of(chemistry), stock_of(maths), stock_of(other)) == (
        (10, 0), (7, 0), (1, 0), (5, 0))
    assert count(Order) == 0 and count(OrderLine) == 0 and count(OrderLineBook) == 0


def test_the_owner_cancelling_gives_each_book_back_once(client, admin, books, auth):
    """A cancelled kit order gives back each book's copies, once, even after the kit was changed."""
    physics, chemistry, maths = books
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 2)])
    owner = auth.customer()
    response = client.post("/api/orders", json=kit_order([(as_line(kit), 3)]), headers=owner)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert (stock_of(physics), stock_of(chemistry)) == ((7, 3), (1, 6))
    edited = client.put(f"/api/admin/kits/{kit['_id']}", json={"books": [{"book": str(maths.id), "quantity": 1}]},
                        headers=admin)
    assert edited.status_code == 200, edited.get_json()

    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 409
    assert (stock_of(physics), stock_of(chemistry), stock_of(maths)) == ((10, 0), (7, 0), (4, 0))


def test_an_unpaid_kit_order_past_its_window_gives_each_book_back(shop_app, admin, books):
    """An online kit order left unpaid is cancelled by the expiry and its books come back."""
    client = shop_app.test_client()
    physics, chemistry, _maths = books
    kit = make_kit(client, admin, [(physics, 2), (chemistry, 1)])
    response = client.post("/api/orders", json=kit_order([(as_line(kit), 2)], method="online"))
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert (stock_of(physics), stock_of(chemistry)) == ((6, 4), (5, 2))
    expire_payment_window(order["_id"])
    assert order_service.release_expired_holds() == 1
    assert order_row(order["_id"]).status == "cancelled"
    assert (stock_of(physics), stock_of(chemistry)) == ((10, 0), (7, 0))


def test_the_quote_and_a_coupon_treat_the_kit_price_like_any_line(client, admin, books):
    """10% off a ₹900 kit and a ₹500 book: the quote and the order both take ₹140 off the books, not the
    shipping; a coupon of one category does not cover a kit (it is on no shelf)."""
    physics, chemistry, _maths = books
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 2)])
    assert client.post("/api/admin/coupons", json={"kind": "percent", "value": 10, "code": "KIT10"},
                       headers=admin).status_code == 201
    lines = [{"kit": kit["_id"], "quantity": 1}, {"book": str(physics.id), "quantity": 1}]
    response = client.post("/api/cart/quote", json={"orderItems": lines, "couponCode": "KIT10"})
    assert response.status_code == 200, response.get_json()
    figures = response.get_json()
    assert (figures["itemsPrice"], figures["discount"], figures["shippingPrice"], figures["totalPrice"]) == (
        1400, 140, 40, 1300)
    assert figures["orderItems"][0] == {"book": None, "kit": kit["_id"], "title": "JEE Main 2027 complete set",
                                        "price": 900, "quantity": 1, "digital": False}
    placed = client.post("/api/orders", json={**kit_order([], total_paise=130000), "orderItems": lines,
                                              "couponCode": "KIT10"})
    assert placed.status_code == 201, placed.get_json()
    assert placed.get_json()["order"]["discount"] == 140

    assert client.post("/api/admin/coupons", json={"kind": "percent", "value": 10, "code": "GATE10",
                                                   "category": "gate"}, headers=admin).status_code == 201
    only_kit = client.post("/api/cart/quote", json={"orderItems": lines[:1], "couponCode": "GATE10"}).get_json()
    assert only_kit["discount"] == 0 and only_kit["coupon"]["applied"] is False


@pytest.mark.parametrize("lines, message", [
    ([{"kit": "999999", "quantity": 1}], "One of the kits in your cart is no longer sold."),
    ([{"kit": "abc", "quantity": 1}], "One of the kits in your cart is no longer sold."),
])
def test_an_unknown_kit_is_refused(client, lines, message):
    """A kit the shop does not sell is refused by the quote and by the order, and nothing is written."""
    assert_refused(client.post("/api/cart/quote", json={"orderItems": lines}), 422, field="orderItems")
    response = client.post("/api/orders", json={**kit_order([]), "orderItems": lines})
    assert_refused(response, 422, field="orderItems")
    assert response.get_json()["errors"]["orderItems"] == [message]
    assert count(Order) == 0


def test_an_archived_kit_cannot_be_ordered_and_lines_are_a_book_or_a_kit(client, admin, books):
    """An archived kit is refused (422, no stock taken); a line with both a book and a kit, or a kit twice,
    is refused by the schema."""
    physics, _chemistry, _maths = books
    kit = make_kit(client, admin, [(physics, 1)])
    client.put(f"/api/admin/kits/{kit['_id']}", json={"archived": True}, headers=admin)
    assert_refused(client.post("/api/orders", json=kit_order([(as_line(kit), 1)])), 422, field="orderItems")
    both = kit_order([], orderItems=[{"kit": kit["_id"], "book": str(physics.id), "quantity": 1}])
    reply = assert_refused(client.post("/api/orders", json=both), 422, "An item is a book or a kit, not both.")
    assert reply["errors"] == {"orderItems": {"0": {"kit": ["An item is a book or a kit, not both."]}}}
    twice = kit_order([], orderItems=[{"kit": kit["_id"], "quantity": 1}, {"kit": kit["_id"], "quantity": 2}])
    assert_refused(client.post("/api/orders", json=twice), 422, field="orderItems")
    assert stock_of(physics) == (10, 0) and count(Order) == 0


# --- admin ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, field, message", [
    ({"books": []}, "books", "A kit needs at least one book."),
    ({"books": [{"book": "999999", "quantity": 1}]}, "books", "Unknown book: 999999."),
    ({"books": [{"book": "not-an-id", "quantity": 1}]}, "books", "Unknown book: not-an-id."),
    ({"price": 0}, "price", "Price must be more than ₹0."),
    ({"price": -5}, "price", None),
    ({"name": "  "}, "name", "Name is required."),
    ({"books": "BOOKS"}, "books", None),
    ({"exam": "999999"}, "exam", "Unknown exam."),
    ({"slug": "two  words"}, "slug", None),
])
def test_admin_validation_refuses_and_writes_nothing(client, admin, books, change, field, message):
    """An empty kit, an unknown book, a price of ₹0 or less, a blank name, an unknown exam or a bad slug are
    422 on their field; no kit, kit book or audit entry is written."""
    physics = books[0]
    body = {"name": "Set", "price": 500, "books": [{"book": str(physics.id), "quantity": 1}], **change}
    reply = assert_refused(client.post("/api/admin/kits", json=body, headers=admin), 422, field=field)
    if message:
        assert reply["errors"][field] == [message], reply
    assert count(Kit) == 0 and count(KitBook) == 0 and count(AuditEntry) == 0


def test_admin_creates_changes_and_archives_kits_with_audit(client, admin, books):
    """Create, change (fields not sent kept) and archive are audited as kit.create / kit.update; a taken slug
    is 409; a bad change leaves the kit as it was; the admin list finds archived kits by status and name."""
    physics, chemistry, maths = books
    kit = make_kit(client, admin, [(physics, 1), (chemistry, 1)], slug="JEE-Set")
    assert kit["slug"] == "jee-set"
    assert_refused(client.post("/api/admin/kits", json={"name": "x", "price": 5, "slug": "jee-set",
                                                          "books": [{"book": str(maths.id)}]}, headers=admin), 409)
    bad = client.put(f"/api/admin/kits/{kit['_id']}", json={"books": [{"book": "999999"}], "price": 1},
                     headers=admin)
    assert_refused(bad, 422, field="books")
    response = client.put(f"/api/admin/kits/{kit['_id']}", json={"price": 850.5, "books": [
        {"book": str(maths.id), "quantity": 3}, {"book": str(physics.id)}]}, headers=admin)
    assert response.status_code == 200, response.get_json()
    changed = response.get_json()["kit"]
    assert (changed["name"], changed["price"], [(b["title"], b["quantity"]) for b in changed["books"]]) == (
        "JEE Main 2027 complete set", 850.5, [("JEE Maths", 3), ("JEE Physics", 1)])
    client.put(f"/api/admin/kits/{kit['_id']}", json={"archived": True}, headers=admin)

    entries = db.session.scalars(db.select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [(e.action, e.entity_type, e.entity_id) for e in entries] == [
        ("kit.create", "kit", kit["_id"]), ("kit.update", "kit", kit["_id"]), ("kit.update", "kit", kit["_id"])]
    assert entries[1].before["price_paise"] == 90000 and entries[1].after["price_paise"] == 85050
    assert entries[2].after == {"archived": True}

    listed = client.get("/api/admin/kits?status=archived&search=jee", headers=admin).get_json()
    assert [k["_id"] for k in listed["kits"]] == [kit["_id"]] and listed["pagination"]["totalKits"] == 1
    assert client.get("/api/admin/kits?status=active", headers=admin).get_json()["kits"] == []
    assert client.get(f"/api/admin/kits/{kit['_id']}", headers=admin).get_json()["kit"]["archived"] is True
    assert_refused(client.get("/api/admin/kits/424242", headers=admin), 404, "Kit not found.")


def test_a_book_in_a_kit_is_archived_not_deleted(client, admin, books):
    """Deleting a book that a kit holds archives it (the kit keeps its row) and the kit has no stock."""
    physics = books[0]
    make_kit(client, admin, [(physics, 1)])
    response = client.delete(f"/api/books/{physics.id}", headers=admin)
    assert response.status_code == 200, response.get_json()
    db.session.expire_all()
    assert db.session.get(Book, physics.id).archived is True
    assert client.get("/api/kits/jee-main-2027-complete-set").get_json()["kit"]["stock"] == 0


# --- e-books and audiobooks (product §7.11) -----------------------------------------------------------

def digital_book(factories, fmt: str = "E-Book", title: str = "JEE Formulae (PDF)") -> Book:
    """An e-book or audiobook with its file, so that it can be sold."""
    from bookstore.services import digital

    book = factories.book(title=title, format=fmt, price_paise=15000, stock=0)
    digital.store_demo_file(book)
    db.session.commit()
    return book


@pytest.mark.parametrize("fmt", ["E-Book", "Audiobook"])
def test_an_e_book_cannot_be_put_in_a_kit(client, admin, books, factories, fmt):
    """A kit travels in a parcel: a digital book in it is 422 on books with a clear message, at creation and at a
    change; nothing is written and the kit keeps its books."""
    physics = books[0]
    download = digital_book(factories, fmt)
    message = (f"‘JEE Formulae (PDF)’ is an {fmt.lower()}: e-books and audiobooks are downloaded, not shipped, "
               "so they cannot be sold in a kit. Sell it on its own.")
    body = {"name": "Set", "price": 500, "books": [{"book": str(physics.id)}, {"book": str(download.id)}]}
    reply = assert_refused(client.post("/api/admin/kits", json=body, headers=admin), 422, field="books")
    assert reply["errors"]["books"] == [message]
    assert count(Kit) == 0 and count(AuditEntry) == 0
    kit = make_kit(client, admin, [(physics, 1)])
    changed = client.put(f"/api/admin/kits/{kit['_id']}", json={"books": body["books"]}, headers=admin)
    assert assert_refused(changed, 422, field="books")["errors"]["books"] == [message]
    db.session.expire_all()
    assert [item.book_id for item in db.session.get(Kit, int(kit["_id"])).items] == [physics.id]


def test_a_kit_that_already_holds_an_e_book_is_never_paid_in_cash(client, admin, books, factories):
    """A kit made before the rule (or whose book became an e-book) is paid online only, like any order with a
    download: the quote says cash on delivery is not available and a COD order is 422, nothing taken."""
    from bookstore.services import digital

    physics = books[0]
    kit = make_kit(client, admin, [(physics, 1)])
    download = digital_book(factories)
    db.session.add(KitBook(kit_id=int(kit["_id"]), book_id=download.id, quantity=1, position=1))
    db.session.commit()
    quote = client.post("/api/cart/quote", json={"orderItems": [{"kit": kit["_id"], "quantity": 1}],
                                                 "zipCode": ADDRESS["zipCode"]})
    assert quote.status_code == 200, quote.get_json()
    assert quote.get_json()["cashOnDelivery"] == {"available": False, "reason": digital.ONLINE_ONLY}
    response = client.post("/api/orders", json=kit_order([(as_line(kit), 1)]))
    assert_refused(response, 422, digital.ONLINE_ONLY, field="paymentMethod")
    assert count(Order) == 0 and stock_of(physics) == (10, 0)
