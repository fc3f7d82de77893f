"""Digital books (product §7.11): an administrator uploads an e-book's or audiobook's file, checked by its bytes; an
order of digital lines only needs no address or shipping and pays online; once paid, each line has a limited number
of counted downloads through short-lived signed links, until DOWNLOAD_DAYS after payment."""
import io
import zipfile
from datetime import timedelta

import pytest

from bookstore.extensions import db
from bookstore.models import AuditEntry, Book, Coupon, Order, OrderLine, utcnow
from bookstore.services import digital
from tests.factories import ADDRESS, SHIPPING_PAISE, count, rupees
from tests.helpers import assert_refused, order_row, set_order, stock_of


@pytest.fixture
def app(shop_app):
    """client, factories and auth of this module use the shop app (fake Razorpay, SMTP sink)."""
    return shop_app


PDF = b"%PDF-1.4\n1 0 obj\n<< >>\nendobj\ntrailer\n<< >>\n%%EOF\n" + b"x" * 300
MP3 = b"ID3\x04\x00\x00\x00\x00\x00\x00" + (b"\xff\xfb\x90\x64" + bytes(413)) * 3
M4B = b"\x00\x00\x00\x20ftypM4B \x00\x00\x02\x00" + bytes(64)


def epub() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("OEBPS/content.opf", "<package/>")
    return buffer.getvalue()


def not_epub() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w/>")
    return buffer.getvalue()


def upload(client, admin, book, data: bytes, name: str = "book.pdf"):
    return client.put(f"/api/admin/books/{book.id}/file", data={"file": (io.BytesIO(data), name)},
                      headers=admin, content_type="multipart/form-data")


def ebook(factories, client=None, admin=None, data: bytes = PDF, **fields) -> Book:
    """An e-book with its file uploaded through the API (or stored directly without `client`)."""
    book = factories.book(format=fields.pop("format", "E-Book"), stock=fields.pop("stock", 0), **fields)
    if client is not None:
        assert upload(client, admin, book, data).status_code == 200
    else:
        digital.store_demo_file(book)
        db.session.commit()
    return book


def digital_payload(lines, method="online", shipping=0, **changes) -> dict:
    """An order of these (book, quantity) lines with a name, e-mail and phone only (no street)."""
    contact = {key: ADDRESS[key] for key in ("firstName", "lastName", "email", "phone")}
    total = sum(book.sale_price_paise * quantity for book, quantity in lines) + shipping
    payload = {"orderItems": [{"book": str(book.id), "quantity": quantity} for book, quantity in lines],
               "shippingAddress": contact, "paymentMethod": method, "totalPrice": rupees(total)}
    payload.update(changes)
    return payload


def pay_online(client, razorpay, order: dict) -> dict:
    created = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    assert created.status_code == 200, created.get_json()
    response = client.post("/api/payments/verify", json=razorpay.pay(created.get_json()["order"]["id"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()["order"]


def paid_digital_order(client, razorpay, books, headers=None) -> dict:
    response = client.post("/api/orders", json=digital_payload([(book, 1) for book in books]), headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return pay_online(client, razorpay, response.get_json()["order"])


def token_of(order: dict) -> str:
    return order["link"].split("token=", 1)[1]


def download(client, order: dict, line: dict, token: str | None = None, headers=None):
    query = f"?token={token}" if token else ""
    return client.post(f"/api/orders/{order['_id']}/lines/{line['lineId']}/download{query}", headers=headers or {})


# ---- upload ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt, data, name, kind", [
    ("E-Book", PDF, "a.pdf", "application/pdf"),
    ("E-Book", None, "a.epub", "application/epub+zip"),
    ("Audiobook", MP3, "a.mp3", "audio/mpeg"),
    ("Audiobook", M4B, "a.m4b", "audio/mp4"),
])
def test_an_admin_uploads_a_digital_books_file_checked_by_its_bytes(client, factories, auth, fmt, data, name, kind):
    """PDF and EPUB for e-books, MP3 and M4B for audiobooks are stored privately; the book says it has a file."""
    admin = auth.admin()
    book = factories.book(format=fmt, stock=0)
    response = upload(client, admin, book, data if data is not None else epub(), name)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["book"]["file"]["type"] == kind
    assert response.get_json()["book"]["inStock"] is True
    db.session.expire_all()
    stored = db.session.get(Book, book.id)
    assert stored.file_type == kind and stored.file_key.startswith(f"books/{book.id}/")
    assert db.session.scalar(db.select(AuditEntry.action).where(AuditEntry.entity_id == str(book.id))) == "book.file"


@pytest.mark.parametrize("fmt, data, message", [
    ("E-Book", b"<html>not a book</html>" * 10, "The file must be a PDF or EPUB"),
    ("E-Book", None, "The file must be a PDF or EPUB"),
    ("E-Book", MP3, "upload a PDF or EPUB"),
    ("Audiobook", PDF, "upload an MP3 or M4B"),
    ("E-Book", b"", "The file is empty."),
])
def test_a_file_that_is_not_what_the_book_needs_is_refused(client, factories, auth, fmt, data, message):
    """Wrong content (whatever its name says) is 422 and nothing is stored."""
    book = factories.book(format=fmt, stock=0)
    response = upload(client, auth.admin(), book, data if data is not None else not_epub(), "book.pdf")
    assert_refused(response, 422, field="file")
    assert message in response.get_json()["message"]
    db.session.expire_all()
    assert db.session.get(Book, book.id).file_key is None


def test_a_printed_book_takes_no_file_and_a_shopper_cannot_upload(client, factories, auth):
    """A paperback is 409; a shopper is 403 (the admin guard)."""
    book = factories.book(format="Paperback")
    assert_refused(upload(client, auth.admin(), book, PDF), 409)
    ebook_ = factories.book(format="E-Book", stock=0)
    assert upload(client, auth.customer(), ebook_, PDF).status_code == 403
    db.session.expire_all()
    assert db.session.get(Book, book.id).file_key is None and db.session.get(Book, ebook_.id).file_key is None


def test_a_file_over_the_size_setting_is_413(make_app, factories):
    """DIGITAL_FILE_MAX_MB bounds the upload; this route alone may exceed the shop's 8 MB body limit."""
    app = make_app(DIGITAL_FILE_MAX_MB="0.01")
    with app.app_context():
        from tests.conftest import empty_database
        empty_database()
        client = app.test_client()
        admin = factories.user(role="admin", email="boss@example.in")
        token = client.post("/api/auth/login", json={"email": admin.email, "password": "secret-pass"}).get_json()["token"]
        book = factories.book(format="E-Book", stock=0)
        response = upload(client, {"Authorization": f"Bearer {token}"}, book, PDF + b"x" * 20_000)
        assert response.status_code == 413
        db.session.expire_all()
        assert db.session.get(Book, book.id).file_key is None


# ---- checkout ---------------------------------------------------------------------------------------------------

def test_an_order_of_digital_books_needs_no_address_or_shipping_and_pays_online(client, factories, razorpay):
    """No street, ₹0 shipping, stock untouched (none to count), online payment; paid, it is delivered with
    downloads open DOWNLOAD_DAYS."""
    book = ebook(factories, price_paise=29900)
    quote = client.post("/api/cart/quote", json={"orderItems": [{"book": str(book.id), "quantity": 1}]}).get_json()
    assert quote["shippingPrice"] == 0 and quote["digitalOnly"] is True
    assert quote["cashOnDelivery"]["available"] is False
    response = client.post("/api/orders", json=digital_payload([(book, 1)]))
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert order["shippingPrice"] == 0 and order["totalPrice"] == 299 and order["digitalOnly"] is True
    assert order["shippingAddress"]["address"] == "" and order["orderItems"][0]["digital"] is True
    db.session.expire_all()
    assert db.session.get(Book, book.id).stock == 0 and db.session.get(Book, book.id).copies_sold == 1
    paid = pay_online(client, razorpay, order)
    assert paid["status"] == "delivered" and paid["isPaid"] is True
    assert paid["downloadsUntil"] is not None and paid["orderItems"][0]["downloadsLeft"] == 5
    assert paid["billNumber"]


def test_cash_on_delivery_is_refused_for_digital_books(client, factories):
    """An e-book can't be paid at a door: 422 on paymentMethod, no order."""
    book = ebook(factories)
    before = count(OrderLine)
    response = client.post("/api/orders", json=digital_payload([(book, 1)], method="cod"))
    assert_refused(response, 422, digital.ONLINE_ONLY, field="paymentMethod")
    printed = factories.book()
    mixed = digital_payload([(book, 1), (printed, 1)], method="cod", shipping=SHIPPING_PAISE,
                            shippingAddress=dict(ADDRESS))
    assert_refused(client.post("/api/orders", json=mixed), 422, digital.ONLINE_ONLY, field="paymentMethod")
    assert count(OrderLine) == before


def test_a_digital_book_without_its_file_cannot_be_bought(client, factories):
    """409 with a clear message at the quote and at checkout; shown as not in stock."""
    book = factories.book(format="E-Book", stock=5, title="Waiting File")
    assert client.get(f"/api/books/{book.id}").get_json()["book"]["inStock"] is False
    assert_refused(client.post("/api/cart/quote", json={"orderItems": [{"book": str(book.id), "quantity": 1}]}), 409,
                   "‘Waiting File’ can't be bought yet: its file is not ready. Please try again later.")
    assert_refused(client.post("/api/orders", json=digital_payload([(book, 1)])), 409)
    assert count(OrderLine) == 0
    db.session.expire_all()
    assert db.session.get(Book, book.id).copies_sold == 0


def test_a_mixed_cart_needs_the_address_and_pays_shipping(client, factories, razorpay, auth):
    """Printed lines ship as today (address, ₹40); the order is `shipped` once the printed lines are in parcels,
    and the admin cannot put the e-book in a parcel."""
    book, printed = ebook(factories), factories.book(stock=3)
    no_street = digital_payload([(book, 1), (printed, 1)], shipping=SHIPPING_PAISE)
    response = client.post("/api/orders", json=no_street)
    assert_refused(response, 422, "Address is required.")
    assert set(response.get_json()["errors"]["shippingAddress"]) == {"address", "city", "state", "zipCode"}
    order = client.post("/api/orders", json={**no_street, "shippingAddress": dict(ADDRESS)}).get_json()["order"]
    assert order["shippingPrice"] == 40 and order["digitalOnly"] is False
    paid = pay_online(client, razorpay, order)
    assert paid["status"] == "pending" and paid["downloadsUntil"]
    admin = auth.admin()
    refused = client.post(f"/api/admin/orders/{order['_id']}/shipments",
                          json={"courier": "India Post", "awb": "EE123456789IN", "lines": [{"book": str(book.id)}]},
                          headers=admin)
    assert_refused(refused, 409)
    assert "downloaded, not shipped" in refused.get_json()["message"]
    shipped = client.post(f"/api/admin/orders/{order['_id']}/shipments",
                          json={"courier": "India Post", "awb": "EE123456789IN"}, headers=admin)
    assert shipped.status_code == 201 or shipped.status_code == 200, shipped.get_json()
    assert order_row(order["_id"]).status == "shipped"
    db.session.expire_all()
    assert db.session.get(Book, printed.id).stock == 2
    line = next(item for item in paid["orderItems"] if item["digital"])
    assert download(client, paid, line, token_of(paid)).status_code == 200


def test_a_download_is_not_returned_but_the_printed_books_of_the_order_are(client, factories, razorpay, auth):
    """After a mixed order is delivered, its printed book may be returned and its e-book may not (product
    §7.10-7.11): the e-book is not among the returnable lines, asking for it is 422 and writes nothing."""
    book, printed = ebook(factories), factories.book(stock=3)
    payload = digital_payload([(book, 1), (printed, 1)], shipping=SHIPPING_PAISE, shippingAddress=dict(ADDRESS))
    order = pay_online(client, razorpay, client.post("/api/orders", json=payload).get_json()["order"])
    admin = auth.admin()
    shipped = client.post(f"/api/admin/orders/{order['_id']}/shipments",
                          json={"courier": "India Post", "awb": "EE123456789IN"}, headers=admin).get_json()["order"]
    delivered = client.post(f"/api/admin/orders/{order['_id']}/shipments/{shipped['shipments'][0]['_id']}/events",
                            json={"status": "delivered"}, headers=admin)
    assert delivered.status_code == 201 and delivered.get_json()["order"]["status"] == "delivered"
    token = token_of(order)
    seen = client.get(f"/api/orders/{order['_id']}?token={token}").get_json()["order"]
    assert seen["returnableLines"] == [{"book": str(printed.id), "quantity": 1}]
    refused = client.post(f"/api/orders/{order['_id']}/returns?token={token}",
                          json={"lines": [{"book": str(book.id), "quantity": 1, "reason": "defective"}]})
    assert_refused(refused, 422, field="lines")
    assert "is a download and is not returned" in str(refused.get_json()["errors"]["lines"])
    assert client.get(f"/api/orders/{order['_id']}?token={token}").get_json()["order"]["returns"] == []
    accepted = client.post(f"/api/orders/{order['_id']}/returns?token={token}",
                           json={"lines": [{"book": str(printed.id), "quantity": 1, "reason": "damaged"}]})
    assert accepted.status_code == 201, accepted.get_json()


# ---- downloads --------------------------------------------------------------------------------------------------

def test_a_paid_line_downloads_the_very_bytes_up_to_the_limit(app, client, factories, auth, razorpay):
    """The owner counts a download and gets a 5-minute link whose GET hands over the stored bytes; after
    DOWNLOADS_PER_LINE downloads the next is 409."""
    admin = auth.admin()
    book = ebook(factories, client, admin, data=PDF)
    shopper = auth.customer()
    order = paid_digital_order(client, razorpay, [book], shopper)
    line = order["orderItems"][0]
    for used in range(1, 6):
        response = download(client, order, line, headers=shopper)
        assert response.status_code == 200, response.get_json()
        file = client.get(response.get_json()["url"])
        assert file.status_code == 200 and file.data == PDF
        assert file.headers["Cache-Control"] == "private, no-store"
        assert "attachment" in file.headers["Content-Disposition"]
        db.session.expire_all()
        assert db.session.get(OrderLine, int(line["lineId"])).downloads == used
    assert_refused(download(client, order, line, headers=shopper), 409, field=None)
    assert "All 5 downloads" in download(client, order, line, headers=shopper).get_json()["message"]
    # Another shopper, and nobody signed in without the link, cannot.
    assert download(client, order, line, headers=auth.customer(email="other@example.in")).status_code == 404
    assert download(client, order, line).status_code == 401


def test_no_download_before_payment_or_after_a_cancel(client, factories, auth, razorpay):
    """Awaiting payment: 409 and nothing counted; a cancelled (refunded) order's downloads are closed."""
    book = ebook(factories)
    shopper = auth.customer()
    order = client.post("/api/orders", json=digital_payload([(book, 1)]), headers=shopper).get_json()["order"]
    line = order["orderItems"][0]
    assert_refused(download(client, order, line, headers=shopper), 409, "Downloads open once the payment is received.")
    printed = factories.book()
    mixed = client.post("/api/orders", json=digital_payload([(book, 1), (printed, 1)], shipping=SHIPPING_PAISE,
                                                              shippingAddress=dict(ADDRESS)), headers=shopper)
    paid = pay_online(client, razorpay, mixed.get_json()["order"])
    assert client.post(f"/api/orders/{paid['_id']}/cancel", headers=shopper).status_code == 200
    digital_line = next(item for item in paid["orderItems"] if item["digital"])
    printed_line = next(item for item in paid["orderItems"] if not item["digital"])
    assert_refused(download(client, paid, digital_line, headers=shopper), 409,
                   "This order was cancelled or refunded, so its downloads are closed.")
    assert_refused(download(client, paid, printed_line, headers=shopper), 409)
    assert db.session.scalar(db.select(db.func.sum(OrderLine.downloads))) == 0


def test_links_expire_and_forged_links_open_nothing(app, client, factories, razorpay):
    """A signed link works for 5 minutes; the downloads for DOWNLOAD_DAYS (fixed clock); a forged or tampered
    link is 404; a guest with the order link's token downloads."""
    book = ebook(factories)
    order = paid_digital_order(client, razorpay, [book])
    line, token = order["orderItems"][0], token_of(order)
    url = download(client, order, line, token).get_json()["url"]
    now = utcnow()
    try:
        app.config["CLOCK"] = lambda: now + timedelta(minutes=6)
        assert_refused(client.get(url), 403)
        app.config["CLOCK"] = lambda: now + timedelta(days=29)
        assert client.get(download(client, order, line, token).get_json()["url"]).status_code == 200
        app.config["CLOCK"] = lambda: now + timedelta(days=31)
        assert_refused(download(client, order, line, token), 409,
                       "The downloads of this order have expired. Please write to us through the contact page.")
    finally:
        app.config.pop("CLOCK", None)
    signed = url.rsplit("/", 1)[1]
    assert_refused(client.get(f"/api/downloads/{signed[:-2]}xx"), 404)
    assert_refused(client.get("/api/downloads/not-a-link"), 404)
    assert_refused(download(client, order, line, "forged.token"), 404)
    db.session.expire_all()
    assert db.session.get(OrderLine, int(line["lineId"])).downloads == 2


# ---- totals under ₹1 (Razorpay takes at least 100 paise) ------------------------------------------------------

UNDER_A_RUPEE = ("With this coupon the order would come to less than ₹1, the least that can be paid online. "
                 "Add another book to use it.")


@pytest.mark.parametrize("rules", [{"kind": "flat", "value": 299}, {"kind": "percent", "value": 90}])
def test_a_coupon_that_would_leave_less_than_a_rupee_to_pay_online_is_not_applied(client, factories, auth, razorpay,
                                                                                   rules):
    """₹299 off a ₹299 e-book (₹0), or 90% off a ₹5 e-book (₹0.50): Razorpay can't take it, so the quote says the
    coupon does not apply and why; an order at the discounted total is 409 with those figures, nothing placed;
    at the full price it is placed without the coupon and can be paid."""
    price = 29900 if rules["kind"] == "flat" else 500
    book = ebook(factories, price_paise=price)
    made = client.post("/api/admin/coupons", json={"code": "FREEBOOK", **rules}, headers=auth.admin())
    assert made.status_code == 201, made.get_json()
    lines = [{"book": str(book.id), "quantity": 1}]
    quote = client.post("/api/cart/quote", json={"orderItems": lines, "couponCode": "FREEBOOK"})
    assert quote.status_code == 200, quote.get_json()
    figures = quote.get_json()
    assert figures["coupon"] == {"code": "FREEBOOK", "applied": False, "discount": 0, "reason": UNDER_A_RUPEE}
    assert (figures["discount"], figures["totalPrice"]) == (0, price / 100)
    discounted = digital_payload([(book, 1)], couponCode="FREEBOOK", totalPrice=0 if price == 29900 else 0.5)
    refused = assert_refused(client.post("/api/orders", json=discounted), 409)
    assert refused["current"]["coupon"]["reason"] == UNDER_A_RUPEE
    assert db.session.scalar(db.select(db.func.count()).select_from(Order)) == 0
    placed = client.post("/api/orders", json=digital_payload([(book, 1)], couponCode="FREEBOOK"))
    assert placed.status_code == 201, placed.get_json()
    order = placed.get_json()["order"]
    assert (order["totalPrice"], order["discount"], order["couponCode"]) == (price / 100, 0, None)
    assert pay_online(client, razorpay, order)["isPaid"] is True
    db.session.expire_all()
    assert db.session.scalar(db.select(Coupon.uses).where(Coupon.code == "FREEBOOK")) == 0


def test_a_book_sold_under_a_rupee_cannot_be_bought_online_alone(client, factories):
    """Without a coupon too: an e-book at ₹0.50 is 422 at the quote and the order (Razorpay would refuse its
    payment), nothing placed."""
    book = ebook(factories, price_paise=50)
    message = ("An order paid online must come to at least ₹1, the least Razorpay can take. Please add another "
               "book.")
    quote = client.post("/api/cart/quote", json={"orderItems": [{"book": str(book.id), "quantity": 1}]})
    assert assert_refused(quote, 422, field="orderItems")["errors"]["orderItems"] == [message]
    assert assert_refused(client.post("/api/orders", json=digital_payload([(book, 1)])), 422,
                          field="orderItems")["errors"]["orderItems"] == [message]
    assert db.session.scalar(db.select(db.func.count()).select_from(Order)) == 0


def mixed_paid_order(client, razorpay, factories, headers=None) -> tuple[dict, Book]:
    """A paid online order of an e-book and a printed book (3 in stock), with its printed book."""
    book, printed = ebook(factories, title="Downloaded Once"), factories.book(stock=3)
    payload = digital_payload([(book, 1), (printed, 1)], shipping=SHIPPING_PAISE, shippingAddress=dict(ADDRESS))
    response = client.post("/api/orders", json=payload, headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return pay_online(client, razorpay, response.get_json()["order"]), printed


DOWNLOADED = ("‘Downloaded Once’ has been downloaded, so this order can no longer be cancelled: a download "
              "cannot be given back.")


def test_a_downloaded_e_book_stops_the_cancel_of_its_order(client, factories, auth, razorpay):
    """Once a digital line has been downloaded, cancelling the order is 409 for its owner (signed in or through
    the order link) and for an administrator; nothing changes: still paid, no refund asked, stock still held."""
    shopper = auth.customer()
    order, printed = mixed_paid_order(client, razorpay, factories, shopper)
    line = next(item for item in order["orderItems"] if item["digital"])
    assert download(client, order, line, headers=shopper).status_code == 200
    cancel = f"/api/orders/{order['_id']}/cancel"
    assert_refused(client.post(cancel, headers=shopper), 409, DOWNLOADED)
    assert_refused(client.post(f"{cancel}?token={token_of(order)}"), 409, DOWNLOADED)
    assert_refused(client.put(f"/api/admin/orders/{order['_id']}/status", json={"status": "cancelled"},
                              headers=auth.admin()), 409, DOWNLOADED)
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.stock_released) == ("pending", "paid", False)
    assert [change.status for change in row.history] == ["pending"]
    assert stock_of(printed) == (2, 1)


@pytest.mark.parametrize("change", [{"status": "cancelled"}, {"status": "returned"},
                                    {"payment_status": "refund_pending"}, {"payment_status": "refunded"}])
def test_a_link_given_before_a_cancel_or_refund_no_longer_opens(client, factories, razorpay, change):
    """The order's state is checked when the link is opened, not only when it is given: a link asked for just
    before the order was cancelled or refunded is 409 and hands over nothing."""
    book = ebook(factories)
    order = paid_digital_order(client, razorpay, [book])
    url = download(client, order, order["orderItems"][0], token_of(order)).get_json()["url"]
    set_order(order["_id"], **change)
    response = client.get(url)
    assert_refused(response, 409, "This order was cancelled or refunded, so its downloads are closed.")
    assert response.data != PDF and b"%PDF" not in response.data


def test_a_download_link_opens_once(client, factories, razorpay):
    """A link hands the file over once (a link passed on is spent); the next download is a new, counted link,
    and opening a newer link spends the older ones not yet opened."""
    book = ebook(factories)
    order = paid_digital_order(client, razorpay, [book])
    line, token = order["orderItems"][0], token_of(order)
    url = download(client, order, line, token).get_json()["url"]
    assert client.get(url).status_code == 200
    used = "This download link has been used. Please press Download again on your order page."
    assert_refused(client.get(url), 403, used)
    older = download(client, order, line, token).get_json()["url"]
    newer = download(client, order, line, token).get_json()["url"]
    assert client.get(newer).status_code == 200
    assert_refused(client.get(older), 403, used)
    db.session.expire_all()
    assert db.session.get(OrderLine, int(line["lineId"])).downloads == 3


def test_the_paid_mail_says_how_many_downloads_and_until_when(client, factories, razorpay, smtp_sink):
    """The confirmation names the downloads and links to the order page (with its token), not to a file."""
    book = ebook(factories)
    paid_digital_order(client, razorpay, [book])
    body = smtp_sink.messages[-1].get_body(preferencelist=("plain",)).get_content()
    assert "download each up to 5 times until" in body and "/orders/" in body and "token=" in body
    assert "Delivering to" not in body


def test_an_all_digital_orders_bill_has_no_empty_address_lines(client, factories, razorpay):
    """The bill of supply of a downloads-only order lists the e-book and says the place of supply is not given."""
    from pypdf import PdfReader

    book = ebook(factories, title="Bill Of A Download")
    order = paid_digital_order(client, razorpay, [book])
    response = client.get(f"/api/orders/{order['_id']}/bill?token={token_of(order)}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert "Bill Of A Download" in text and "Not given (downloads only)" in text


def test_from_a_private_bucket_the_download_is_a_short_lived_presigned_address(make_app, factories, razorpay,
                                                                               monkeypatch):
    """With S3_PRIVATE_BUCKET the upload lands in the bucket, and the download link answers 303 to a 5-minute
    pre-signed address that gives the very bytes."""
    import requests

    from tests.conftest import RAZORPAY_KEYS, empty_database
    from tests.fakes.s3_server import CREDENTIALS, REGION, LocalS3

    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    with LocalS3("bookstore-private") as s3:
        app = make_app(S3_PRIVATE_BUCKET="bookstore-private", S3_ENDPOINT_URL=s3.endpoint_url, S3_REGION=REGION,
                       RAZORPAY_BASE_URL=razorpay.base_url, RAZORPAY_TIMEOUT_SECONDS="2", **RAZORPAY_KEYS)
        with app.app_context():
            empty_database()
            client = app.test_client()
            factories.user(role="admin", email="boss@example.in")
            login = client.post("/api/auth/login", json={"email": "boss@example.in", "password": "secret-pass"})
            admin = {"Authorization": f"Bearer {login.get_json()['token']}"}
            book = factories.book(format="Audiobook", stock=0)
            assert upload(client, admin, book, MP3, "talk.mp3").status_code == 200
            assert len(s3.keys()) == 1 and next(iter(s3.keys())).endswith(".mp3")
            order = paid_digital_order(client, razorpay, [book])
            url = download(client, order, order["orderItems"][0], token_of(order)).get_json()["url"]
            response = client.get(url)
            assert response.status_code == 303 and "X-Amz-Expires=300" in response.headers["Location"]
            fetched = requests.get(response.headers["Location"], timeout=10)
            assert fetched.status_code == 200 and fetched.content == MP3
            assert fetched.headers["Content-Type"] == "audio/mpeg"


def test_a_webhook_payment_delivers_the_downloads_too(client, factories, razorpay):
    """The browser never came back: Razorpay's signed webhook pays the order, and the all-digital order is
    delivered with its downloads open, exactly as after verify."""
    book = ebook(factories)
    order = client.post("/api/orders", json=digital_payload([(book, 1)])).get_json()["order"]
    created = client.post("/api/payments/create-order", json={"orderId": order["_id"]}).get_json()["order"]
    razorpay.pay(created["id"])
    raw, signature = razorpay.webhook_body("payment.captured", order_id=created["id"])
    response = client.post("/api/payments/webhook", data=raw, content_type="application/json",
                           headers={"X-Razorpay-Signature": signature, "X-Razorpay-Event-Id": "evt_digital_1"})
    assert response.status_code == 200, response.get_json()
    row = order_row(order["_id"])
    assert (row.payment_status, row.status) == ("paid", "delivered") and row.downloads_until is not None
    assert [change.status for change in row.history] == ["pending", "delivered"]
    assert download(client, order, order["orderItems"][0], token_of(order)).status_code == 200
