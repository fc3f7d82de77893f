"""Returns of books bought inside a kit (product §7.10, §3.11): the order offers each printed book of a delivered
kit line; a request names it by book (and `kitLine` when the book is also on its own line or in two kits); its
refund is its share of the kit price (by the books' own prices when sold, largest remainder, after the coupon's
share); received resaleable copies go back to that book's stock; the order is returned once every delivered
copy, plain and kit, is back. Refusals change nothing.

The kit: JEE Physics ₹500 × 1, JEE Chemistry (₹400 sold at ₹300) × 2, JEE Maths ₹200 × 1, sold at ₹900.
Weights 500 : 600 : 200, so its ₹900.00 is shared 346.15 + 415.39 + 138.46 (the one paisa left over goes to
Chemistry, whose remainder is the largest); Chemistry's two copies are worth 207.70 then 207.69.
"""
import pytest
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import KitBook, OrderLineBook
from tests.api.test_digital_books import ebook, pay_online
from tests.api.test_kits import SHIPPING_PAISE, as_line, kit_order, make_kit
from tests.api.test_payments import pay, verify
from tests.api.test_returns import UPI, ask, deliver, history, mails_to, return_count, return_row, step
from tests.factories import ADDRESS
from tests.helpers import assert_refused, order_row, set_order, stock_of

KIT = "JEE Main 2027 complete set"


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def books(factories):
    return (factories.book(title="JEE Physics", price_paise=50000, stock=10),
            factories.book(title="JEE Chemistry", price_paise=40000, discounted_price_paise=30000, stock=10),
            factories.book(title="JEE Maths", price_paise=20000, stock=10))


@pytest.fixture
def kit(client, admin, books) -> dict:
    physics, chemistry, maths = books
    return make_kit(client, admin, [(physics, 1), (chemistry, 2), (maths, 1)])


def order_of(client, lines, headers=None, method="cod") -> dict:
    response = client.post("/api/orders", json=kit_order(lines, method), headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["order"]


def kit_line_id(order: dict) -> str:
    return next(item["lineId"] for item in order["orderItems"] if item["kit"])


def kit_book(book, quantity=1, kit_line=None, reason="damaged") -> dict:
    body = {"book": str(book.id), "quantity": quantity, "reason": reason}
    return {**body, "kitLine": kit_line} if kit_line else body


def test_checkout_records_each_kit_books_price_and_format(client, kit, books):
    """A kit line keeps each book's own sale price and whether it is a download, as sold."""
    order = order_of(client, [(as_line(kit), 1)])
    db.session.expire_all()
    parts = db.session.scalars(select(OrderLineBook).where(
        OrderLineBook.order_line_id == int(kit_line_id(order))).order_by(OrderLineBook.book_id)).all()
    assert [(p.title, p.unit_price_paise, p.digital) for p in parts] == [
        ("JEE Physics", 50000, False), ("JEE Chemistry", 30000, False), ("JEE Maths", 20000, False)]


def test_the_order_offers_kit_books_and_prices_a_copy_at_its_share(client, auth, admin, kit, books):
    """Delivered: the offer lists the book line, then each book of the kit with its copies (copies per kit ×
    kits) and "(from <kit>)". A copy of Chemistry costs its share: 207.70 less the ₹40 shipping (cash on
    delivery, once), the second copy 207.69, so the two add up to Chemistry's 415.39 exactly; the offer shrinks."""
    physics, chemistry, maths = books
    shopper = auth.customer()
    order = deliver(client, order_of(client, [(("book", physics.id, 50000), 1), (as_line(kit), 1)], shopper), admin)
    line = kit_line_id(order)
    offered = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"]
    assert offered == [
        {"book": str(physics.id), "quantity": 1},
        {"book": str(physics.id), "quantity": 1, "kitLine": line, "title": f"JEE Physics (from {KIT})"},
        {"book": str(chemistry.id), "quantity": 2, "kitLine": line, "title": f"JEE Chemistry (from {KIT})"},
        {"book": str(maths.id), "quantity": 1, "kitLine": line, "title": f"JEE Maths (from {KIT})"}]

    first = ask(client, order, [kit_book(chemistry)], shopper, refundTo=UPI)  # only in the kit: no kitLine needed
    assert first.status_code == 201, first.get_json()
    first = first.get_json()["returnRequest"]
    assert (return_row(first["_id"]).refund_paise, return_row(first["_id"]).shipping_deducted_paise) == (20770 - 4000, 4000)
    assert [(x["book"], x["kitLine"], x["title"], x["quantity"]) for x in first["lines"]] == [
        (str(chemistry.id), line, f"JEE Chemistry (from {KIT})", 1)]
    second = ask(client, order, [kit_book(chemistry, kit_line=line)], shopper, refundTo=UPI).get_json()["returnRequest"]
    assert (return_row(second["_id"]).refund_paise, return_row(second["_id"]).shipping_deducted_paise) == (20769, 0)
    offered = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"]
    assert [(x["book"], x.get("kitLine"), x["quantity"]) for x in offered] == [
        (str(physics.id), None, 1), (str(physics.id), line, 1), (str(maths.id), line, 1)]
    assert f"1 × JEE Chemistry (from {KIT}) (damaged)" in mails_to(ADDRESS["email"])[-1].body


def test_a_book_line_and_the_same_book_from_the_kit_in_one_return(client, auth, admin, kit, books):
    """Physics on its own line and in the kit: without kitLine the request means the book's own line, with it
    the kit's copy; both in one return (₹500 + 346.15 less ₹40). Received with only the own copy resaleable:
    Physics' stock gains 1; the history, mails and the admin's list name the kit's copy by its title."""
    physics, _chemistry, _maths = books
    shopper = auth.customer()
    order = deliver(client, order_of(client, [(("book", physics.id, 50000), 1), (as_line(kit), 1)], shopper), admin)
    line = kit_line_id(order)
    made = ask(client, order, [kit_book(physics), kit_book(physics, kit_line=line, reason="defective")], shopper,
               refundTo=UPI)
    assert made.status_code == 201, made.get_json()
    made = made.get_json()["returnRequest"]
    assert return_row(made["_id"]).refund_paise == 50000 + 34615 - 4000
    assert [(x["title"], x["kitLine"], x["reason"]) for x in made["lines"]] == [
        ("JEE Physics", None, "damaged"), (f"JEE Physics (from {KIT})", line, "defective")]
    listed = client.get("/api/admin/returns", headers=admin).get_json()["returns"][0]
    assert [x["title"] for x in listed["lines"]] == ["JEE Physics", f"JEE Physics (from {KIT})"]

    stock_before = stock_of(physics)
    assert step(client, made["_id"], admin, status="approved", method="pickup").status_code == 200
    reply = step(client, made["_id"], admin, status="received", lines=[
        {"book": str(physics.id), "resaleable": True}, {"book": str(physics.id), "kitLine": line, "resaleable": False}])
    assert reply.status_code == 200, reply.get_json()
    assert [x["resaleable"] for x in reply.get_json()["returnRequest"]["lines"]] == [True, False]
    assert stock_of(physics) == (stock_before[0] + 1, stock_before[1] - 1)
    assert history(order)[-1] == ("return_received", "Back in stock: 1 × JEE Physics")
    body = mails_to(ADDRESS["email"])[-1].body
    assert f"1 × JEE Physics (damaged), 1 × JEE Physics (from {KIT}) (defective)" in body
    assert order_row(order["_id"]).status == "delivered"  # the rest of the kit is still with the shopper


@pytest.fixture
def delivered_kit(client, auth, admin, kit, books):
    shopper = auth.customer()
    return deliver(client, order_of(client, [(as_line(kit), 1)], shopper), admin), shopper


@pytest.mark.parametrize("lines, message", [
    (lambda books, line: [kit_book(books[2], 2)], f"Only 1 of JEE Maths (from {KIT}) can still be returned."),
    (lambda books, line: [kit_book(books[1], 3, kit_line=line)], f"Only 2 of JEE Chemistry (from {KIT}) can still be returned."),
    (lambda books, line: [kit_book(books[1]), kit_book(books[1], kit_line=line)], "Each book may appear only once."),
    (lambda books, line: [kit_book(books[0], kit_line="999999")], "Kit line 999999 is not on this order."),
    (lambda books, line: [{"book": str(books[0].id), "quantity": 1, "reason": "damaged", "kitLine": "x1"}],
     "Kit line x1 is not on this order."),
])
def test_bad_kit_requests_are_refused_and_change_nothing(client, delivered_kit, books, lines, message):
    """More copies of a kit's book than the kits held, the same copy twice, an unknown kit line: 422, nothing
    written."""
    order, shopper = delivered_kit
    reply = assert_refused(ask(client, order, lines(books, kit_line_id(order)), shopper, refundTo=UPI), 422,
                           field="lines")
    assert message in str(reply["errors"]), reply
    assert return_count() == 0


def test_a_book_not_in_the_named_kit_or_in_two_kits_is_refused(client, auth, admin, kit, books, factories):
    """A book the named kit did not hold is 422; a book in two kits of the order, named without kitLine, is 422
    asking which kit; naming the kit line settles it."""
    physics, _chemistry, maths = books
    other = factories.book(title="JEE Biology", price_paise=10000, stock=5)
    second = make_kit(client, admin, [(physics, 1), (other, 1)], name="JEE physics and biology", price=600)
    shopper = auth.customer()
    order = deliver(client, order_of(client, [(as_line(kit), 1), (as_line(second), 1)], shopper), admin)
    second_line = order["orderItems"][1]["lineId"]
    reply = assert_refused(ask(client, order, [kit_book(maths, kit_line=second_line)], shopper, refundTo=UPI), 422)
    assert f"Book {maths.id} is not in the kit JEE physics and biology." in str(reply["errors"])
    reply = assert_refused(ask(client, order, [kit_book(physics)], shopper, refundTo=UPI), 422)
    assert "JEE Physics came in more than one kit of this order: say which kit it is from." in str(reply["errors"])
    assert return_count() == 0
    made = ask(client, order, [kit_book(physics, kit_line=second_line)], shopper, refundTo=UPI)
    assert made.status_code == 201, made.get_json()
    # ₹600 shared 500 : 100 → 500.00 + 100.00
    assert return_row(made.get_json()["returnRequest"]["_id"]).refund_paise == 50000 - 4000
    assert made.get_json()["returnRequest"]["lines"][0]["title"] == "JEE Physics (from JEE physics and biology)"


def test_an_ebook_in_a_kit_is_not_returned(client, auth, admin, books, factories, razorpay):
    """An e-book inside a kit (one made before the kit editor refused them, paid online) is neither offered nor
    accepted (the download's refusal); the printed book is."""
    physics = books[0]
    book = ebook(factories, title="JEE Formula E-Book", price_paise=15000)
    kit = make_kit(client, admin, [(physics, 1)], name="Physics with formulas", price=600)
    db.session.add(KitBook(kit_id=int(kit["_id"]), book_id=book.id, quantity=1, position=1))
    db.session.commit()
    shopper = auth.customer()
    order = deliver(client, pay_online(client, razorpay, order_of(client, [(as_line(kit), 1)], shopper, "online")),
                    admin)
    offered = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"]
    assert [(x["book"], x["quantity"]) for x in offered] == [(str(physics.id), 1)]
    reply = assert_refused(ask(client, order, [kit_book(book)], shopper), 422, field="lines")
    assert ("JEE Formula E-Book is a download and is not returned; if it does not open, please write to us from "
            "the contact page.") in str(reply["errors"])
    assert return_count() == 0


def test_a_kit_not_delivered_cannot_be_returned(client, auth, admin, kit, books):
    """Not delivered yet: 409. Delivered but the kit's parcel came back to the shop (RTO, received): its books
    are not offered and asking for one is 422; the book line that was delivered may be returned. Nothing is
    written by the refusals."""
    physics, chemistry, _maths = books
    shopper = auth.customer()
    order = order_of(client, [(("book", physics.id, 50000), 1), (as_line(kit), 1)], shopper)
    assert_refused(ask(client, order, [kit_book(chemistry)], shopper, refundTo=UPI), 409,
                   "Only a delivered order can be returned.")
    url = f"/api/admin/orders/{order['_id']}/shipments"
    first = client.post(url, json={"courier": "DTDC", "awb": "KR1", "lines": [{"book": str(physics.id)}]}, headers=admin)
    assert first.status_code == 201, first.get_json()
    shipments = client.post(url, json={"courier": "DTDC", "awb": "KR2"}, headers=admin).get_json()["order"]["shipments"]
    assert client.post(f"{url}/{shipments[1]['_id']}/events", json={"status": "rto"}, headers=admin).status_code == 201
    assert client.post(f"{url}/{shipments[1]['_id']}/received", headers=admin).status_code == 200
    reply = client.post(f"{url}/{shipments[0]['_id']}/events", json={"status": "delivered"}, headers=admin)
    assert reply.status_code == 201 and reply.get_json()["order"]["status"] == "delivered"
    offered = client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"]
    assert offered == [{"book": str(physics.id), "quantity": 1}]
    refused = assert_refused(ask(client, order, [kit_book(chemistry)], shopper, refundTo=UPI), 422, field="lines")
    assert f"JEE Chemistry (from {KIT}) was not delivered: its parcel came back to us." in str(refused["errors"])
    assert return_count() == 0
    made = ask(client, order, [kit_book(physics)], shopper, refundTo=UPI)
    assert made.status_code == 201, made.get_json()
    stock_before = stock_of(physics)
    made = made.get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="self-ship")
    step(client, made["_id"], admin, status="received", lines=[{"book": str(physics.id), "resaleable": True}])
    assert stock_of(physics)[0] == stock_before[0] + 1
    # Every copy the order delivered is back (the kit came back by itself): the order is returned.
    assert order_row(order["_id"]).status == "returned"


def test_the_order_is_returned_only_when_the_kit_books_are_back_too(client, auth, admin, kit, books):
    """A book line and a kit: returning the book line leaves the order delivered (the kit's copies are still
    out); returning every book of the kit too makes it returned with its stock released. Resaleable kit copies
    go back to each book's stock; the ₹900 kit gives back exactly ₹900 over the returns."""
    physics, chemistry, maths = books
    shopper = auth.customer()
    order = deliver(client, order_of(client, [(("book", maths.id, 20000), 1), (as_line(kit), 1)], shopper), admin)
    line = kit_line_id(order)
    before = [stock_of(book)[0] for book in books]
    plain = ask(client, order, [kit_book(maths)], shopper, refundTo=UPI).get_json()["returnRequest"]
    step(client, plain["_id"], admin, status="approved", method="pickup")
    step(client, plain["_id"], admin, status="received", lines=[{"book": str(maths.id), "resaleable": True}])
    assert order_row(order["_id"]).status == "delivered"

    first = ask(client, order, [kit_book(chemistry, 1)], shopper, refundTo=UPI).get_json()["returnRequest"]
    rest = ask(client, order, [kit_book(physics, kit_line=line), kit_book(chemistry, kit_line=line),
                               kit_book(maths, kit_line=line, reason="missing")], shopper, refundTo=UPI)
    assert rest.status_code == 201, rest.get_json()
    rest = rest.get_json()["returnRequest"]
    assert return_row(first["_id"]).refund_paise + return_row(rest["_id"]).refund_paise == 90000
    assert client.get(f"/api/orders/{order['_id']}", headers=shopper).get_json()["order"]["returnableLines"] == []
    for made in (first, rest):
        step(client, made["_id"], admin, status="approved", method="pickup")
    step(client, first["_id"], admin, status="received", lines=[{"book": str(chemistry.id), "resaleable": True}])
    assert order_row(order["_id"]).status == "delivered"
    reply = step(client, rest["_id"], admin, status="received", lines=[
        {"book": str(physics.id), "resaleable": True}, {"book": str(chemistry.id), "kitLine": line, "resaleable": True},
        {"book": str(maths.id), "resaleable": False}])
    assert reply.status_code == 200, reply.get_json()
    row = order_row(order["_id"])
    assert row.status == "returned" and row.stock_released
    assert [stock_of(book)[0] for book in books] == [before[0] + 1, before[1] + 2, before[2] + 1]
    assert_refused(ask(client, order, [kit_book(maths)], shopper, refundTo=UPI), 409,
                   "Every book of this order has been returned.")


def test_a_received_mark_for_a_book_not_in_the_return_is_refused(client, delivered_kit, admin, books):
    """Marking a kit book the return does not hold (or under another kit line) is 422; the return stays approved."""
    order, shopper = delivered_kit
    made = ask(client, order, [kit_book(books[0])], shopper, refundTo=UPI).get_json()["returnRequest"]
    step(client, made["_id"], admin, status="approved", method="pickup")
    for mark in ({"book": str(books[1].id), "resaleable": True},
                 {"book": str(books[0].id), "kitLine": "999999", "resaleable": True}):
        assert_refused(step(client, made["_id"], admin, status="received", lines=[mark]), 422, field="lines")
    assert return_row(made["_id"]).status == "approved"


def test_an_online_kit_book_is_refunded_through_razorpay_after_the_coupon(client, auth, admin, kit, books, razorpay):
    """Online, with ₹90 off the ₹900 kit: one Chemistry copy is 207.70 less its 10% (20.77), 186.93 refunded
    through Razorpay by the refund job with the return's idempotency key; no shipping is deducted."""
    chemistry = books[1]
    shopper = auth.customer()
    order = order_of(client, [(as_line(kit), 1)], shopper, method="online")
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    order = deliver(client, order, admin)
    set_order(order["_id"], discount_paise=9000, total_paise=90000 + SHIPPING_PAISE - 9000)
    made = ask(client, order, [kit_book(chemistry, reason="missing")], shopper)
    assert made.status_code == 201, made.get_json()
    made = made.get_json()["returnRequest"]
    assert (made["refundRoute"], made["refundAmount"], made["shippingDeducted"]) == ("razorpay", 186.93, 0)
    assert step(client, made["_id"], admin, status="approved", method="pickup").status_code == 200
    assert step(client, made["_id"], admin, status="received").status_code == 200
    assert stock_of(chemistry)[0] == 8  # not marked resaleable: stays off the shelf
    assert step(client, made["_id"], admin, status="refunded").status_code == 200
    row = return_row(made["_id"])
    assert row.status == "refunded" and row.refund_paise == 18693 and row.razorpay_refund_id
    payment = razorpay.payment(order_row(order["_id"]).razorpay_payment_id)
    assert payment["amount_refunded"] == 18693 and payment["refund_status"] == "partial"
    assert razorpay.idempotency_keys == [f"return-{made['_id']}"]
    assert history(order)[-1] == ("return_refunded", "₹186.93 refunded")
    assert f"1 × JEE Chemistry (from {KIT}) (missing item)" in mails_to(ADDRESS["email"])[-1].body
