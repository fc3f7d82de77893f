"""Bills of supply (issue 17): numbered once per financial year when an order is paid or delivered, read by
the owner, an administrator or the order e-mail's link, and printed as a PDF whose text says what the law asks."""
import io
from datetime import datetime, timedelta, timezone

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import BillCounter, Order, OrderLine
from bookstore.services import bills
from bookstore.services.india import IST
from tests.factories import ADDRESS, count, place
from tests.helpers import assert_refused, order_row, recorded_statements, set_order, writes

SELLER = {"sellerName": "Pustak Ghar Books", "sellerAddress": "12 Residency Road, Bengaluru, Karnataka 560025",
          "sellerGstin": "29ABCDE1234F1Z5"}


@pytest.fixture
def app(shop_app):
    """client, factories and auth of this module use the shop app (fake Razorpay, SMTP sink)."""
    return shop_app


def at(moment: datetime):
    """A clock standing still at `moment`."""
    return lambda: moment


def ist(*parts) -> datetime:
    return datetime(*parts, tzinfo=IST).astimezone(timezone.utc)


def deliver(client, admin, order_id: str) -> dict:
    """An administrator moves a cash-on-delivery order through to delivered (the cash is collected)."""
    for status in ("processing", "shipped", "delivered"):
        response = client.put(f"/api/admin/orders/{order_id}/status", json={"status": status}, headers=admin)
        assert response.status_code == 200, response.get_json()
    return response.get_json()["order"]


def pay_online(client, razorpay, order: dict) -> dict:
    """Pay an online order in the fake Razorpay Checkout and verify it; the order as the reply shows it."""
    created = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    assert created.status_code == 200, created.get_json()
    response = client.post("/api/payments/verify", json=razorpay.pay(created.get_json()["order"]["id"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()["order"]


def link_token(order: dict) -> str:
    return order["link"].split("token=", 1)[1]


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_no_bill_before_the_order_is_paid_or_delivered(client, factories):
    """A cash-on-delivery order on its way has no bill yet: 404 with a reason, and no number is used."""
    order = factories.order(client=client)
    assert order["billNumber"] is None and order["billDue"] is False and order["billUrl"] is None

    response = client.get(f"/api/orders/{order['_id']}/bill?token={link_token(order)}")

    assert_refused(response, 404, bills.NOT_YET)
    assert order_row(order["_id"]).bill_number is None and count(BillCounter) == 0


def test_payment_numbers_the_bill_and_the_pdf_says_what_the_law_asks(app, client, factories, auth, razorpay):
    """Paid online: the bill is numbered BS/<year>/000001 and the PDF reads back with the seller and GSTIN, the
    number, date, a Hindi buyer name, HSN 4901 on every line, shipping, the total in figures and in Indian words,
    and "Tax: NIL"."""
    app.config["CLOCK"] = at(ist(2026, 11, 25, 10, 0))
    admin = auth.admin()
    assert client.put("/api/admin/shop-settings", json=SELLER, headers=admin).status_code == 200
    book = factories.book(title="Indian Polity", author="M. Laxmikanth", price_paise=6249950, stock=5)
    order = factories.order([(book, 2)], client=client, method="online", buyerGstin="29aaacb1234c1zv",
                            shippingAddress={**ADDRESS, "firstName": "अनीता", "lastName": "शर्मा"})
    assert order["buyerGstin"] == "29AAACB1234C1ZV"
    assert_refused(client.get(f"/api/orders/{order['_id']}/bill", headers=admin), 404, bills.NOT_YET)

    paid = pay_online(client, razorpay, order)

    assert paid["billNumber"] == "BS/2627/000001" and paid["billDue"] is True
    row = order_row(order["_id"])
    assert row.bill_number == "BS/2627/000001" and row.payment_status == "paid"
    response = client.get(paid["billUrl"])
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert 'filename="bill-BS-2627-000001.pdf"' in response.headers["Content-Disposition"]
    text = pdf_text(response.data)
    for expected in ("Bill of Supply", "Pustak Ghar Books", "12 Residency Road", "GSTIN: 29ABCDE1234F1Z5",
                     "BS/2627/000001", "25 Nov 2026", order["orderNumber"], "अनीता", "शर्मा", "GSTIN: 29AAACB1234C1ZV",
                     "4901", "Indian Polity", "Shipping", "₹1,25,039.00",
                     "Rupees One Lakh Twenty-Five Thousand Thirty-Nine Only", "Tax: NIL"):
        assert expected in text, f"{expected!r} not in:\n{text}"
    assert text.count("4901") >= 3  # the book, shipping, and the note


def test_who_may_download_the_bill(client, factories, auth):
    """The owner, an administrator and the order link's token get the PDF; another shopper, a forged token and
    nobody at all do not, and an expired link says so."""
    mine = auth.customer("meera@example.in")
    other = auth.customer("ravi@example.in")
    admin = auth.admin()
    order = factories.order(client=client, headers=mine)
    deliver(client, admin, order["_id"])
    path = f"/api/orders/{order['_id']}/bill"

    assert client.get(path, headers=mine).mimetype == "application/pdf"
    assert client.get(path, headers=admin).mimetype == "application/pdf"
    assert client.get(f"{path}?token={link_token(order)}").mimetype == "application/pdf"
    assert_refused(client.get(path, headers=other), 404, "Order not found.")
    assert_refused(client.get(path), 401)
    assert_refused(client.get(f"{path}?token=forged.123.abc"), 404)
    another = factories.order(client=client)
    assert_refused(client.get(f"{path}?token={link_token(another)}"), 404)
    client.application.config["CLOCK"] = at(datetime.now(timezone.utc) + timedelta(days=91))
    assert_refused(client.get(f"{path}?token={link_token(order)}"), 403,
                   "This order link has expired. Please find the order by its number and e-mail instead.")


def test_numbers_restart_on_1_april_and_run_on_without_gaps(app, client, factories, auth):
    """Fixed clock: the last bills of March 2027 are BS/2627/…, the first of April BS/2728/000001; each year
    counts on by one and a number is never given twice, even when the same order is delivered again."""
    admin = auth.admin()
    orders = [factories.order(client=client) for _ in range(4)]
    app.config["CLOCK"] = at(ist(2027, 3, 31, 23, 59, 30))
    first = deliver(client, admin, orders[0]["_id"])
    second = deliver(client, admin, orders[1]["_id"])
    app.config["CLOCK"] = at(ist(2027, 4, 1, 0, 0, 0))
    third = deliver(client, admin, orders[2]["_id"])
    fourth = deliver(client, admin, orders[3]["_id"])

    assert [o["billNumber"] for o in (first, second, third, fourth)] == [
        "BS/2627/000001", "BS/2627/000002", "BS/2728/000001", "BS/2728/000002"]
    assert {c.financial_year: c.last_number for c in db.session.scalars(select(BillCounter))} == {
        "2026-27": 2, "2027-28": 2}
    again = client.get(f"/api/orders/{orders[0]['_id']}/bill", headers=admin)
    assert again.status_code == 200 and "BS/2627/000001" in pdf_text(again.data)
    assert order_row(orders[0]["_id"]).bill_number == "BS/2627/000001"


@pytest.mark.parametrize(("moment", "year"), [
    (ist(2027, 3, 31, 23, 59, 59), "2026-27"), (ist(2027, 4, 1, 0, 0, 0), "2027-28"),
    (ist(2026, 1, 1, 0, 0, 0), "2025-26"), (datetime(2027, 3, 31, 18, 30, tzinfo=timezone.utc), "2027-28")])
def test_financial_year_follows_india_time(moment, year):
    """April to March in IST: 31 March 18:30 UTC is already 1 April in India."""
    assert bills.financial_year(moment) == year


def test_numbers_stay_within_16_characters(app, client, factories, auth):
    """The largest serial still fits in 16 characters; past it the year's numbers are used up: the delivery
    goes through without a bill, the bill request is a 409, and the counter is not moved."""
    assert len(bills.format_number("2026-27", bills.MAX_SERIAL)) == 16
    app.config["CLOCK"] = at(ist(2026, 11, 25, 10, 0))
    db.session.add(BillCounter(financial_year="2026-27", last_number=bills.MAX_SERIAL))
    db.session.commit()
    admin = auth.admin()
    order = factories.order(client=client)

    delivered = deliver(client, admin, order["_id"])

    assert delivered["status"] == "delivered" and delivered["billNumber"] is None
    assert_refused(client.get(f"/api/orders/{order['_id']}/bill", headers=admin), 409, bills.USED_UP)
    row = order_row(order["_id"])
    assert row.bill_number is None and row.billed_at is None
    db.session.expire_all()
    assert db.session.get(BillCounter, "2026-27").last_number == bills.MAX_SERIAL


def test_the_bill_download_never_writes(app, client, factories, auth):
    """GET /api/orders/{id}/bill only reads (product §12.3): a billed order's PDF comes with no INSERT, UPDATE
    or DELETE, and a paid order that somehow has no number is 404, with nothing numbered or counted."""
    app.config["CLOCK"] = at(ist(2026, 11, 25, 10, 0))
    admin = auth.admin()
    billed = deliver(client, admin, factories.order(client=client)["_id"])
    unnumbered = factories.order(client=client)
    set_order(unnumbered["_id"], status="delivered", payment_status="paid")

    with recorded_statements() as statements:
        response = client.get(f"/api/orders/{billed['_id']}/bill", headers=admin)
        missing = client.get(f"/api/orders/{unnumbered['_id']}/bill", headers=admin)

    assert response.status_code == 200 and billed["billNumber"] in pdf_text(response.data)
    assert_refused(missing, 404, bills.NO_NUMBER)
    assert writes(statements) == [], writes(statements)
    assert order_row(unnumbered["_id"]).bill_number is None
    db.session.expire_all()
    assert db.session.get(BillCounter, "2026-27").last_number == 1


@pytest.mark.parametrize(("paise", "words"), [
    (0, "Rupees Zero Only"), (4000, "Rupees Forty Only"), (100, "Rupees One Only"),
    (12345678_00, "Rupees One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight Only"),
    (1_00000_00, "Rupees One Lakh Only"), (10_00_00_000_00, "Rupees Ten Crore Only"),
    (123_45_67_890_00, "Rupees One Hundred Twenty-Three Crore Forty-Five Lakh Sixty-Seven Thousand Eight Hundred "
                       "Ninety Only"),
    (94050, "Rupees Nine Hundred Forty and Fifty Paise Only"), (1101_05, "Rupees One Thousand One Hundred One and "
                                                                         "Five Paise Only")])
def test_amounts_in_words_use_indian_numbering(paise, words):
    """Lakh and crore, hyphenated tens, paise when there are any."""
    assert bills.rupees_in_words(paise) == words


def test_a_coupon_is_shared_out_over_the_book_lines(client, factories):
    """Values after discount: the coupon's share comes off each book in proportion and the lines add up to the
    books' total after the coupon; shipping and the COD fee are lines of their own."""
    order = Order(items_paise=30000, discount_paise=1000, shipping_paise=4000, cod_fee_paise=2000, lines=[])
    order.lines = [OrderLine(title="A", author="X", unit_price_paise=10000, quantity=1),
                   OrderLine(title="B", author="", unit_price_paise=10000, quantity=2)]

    lines = bills.lines_of(order)

    assert [(line.hsn, line.quantity, line.value_paise) for line in lines] == [
        ("4901", 1, 9667), ("4901", 2, 19333), ("4901", None, 4000), ("4901", None, 2000)]
    assert sum(line.value_paise for line in lines) == 30000 - 1000 + 4000 + 2000
    db.session.rollback()


@pytest.mark.parametrize("gstin", ["29ABCDE1234F1Z", "29abcde1234f1y5", "ABCDE1234F1Z529", "9".ljust(15, "9")])
def test_checkout_refuses_a_malformed_gstin(client, factories, gstin):
    """A GSTIN that is not 15 characters of the right pattern is a 422 on buyerGstin; nothing is placed."""
    book = factories.book(stock=3)
    response = place(client, [(book, 1)], buyerGstin=gstin)
    reply = assert_refused(response, 422)
    assert "buyerGstin" in reply["errors"], reply
    assert count(Order) == 0


def test_shop_settings_take_the_seller_and_refuse_a_bad_gstin(client, auth):
    """The seller's name, address and GSTIN are shop settings; GSTIN may be empty (not registered) but never
    malformed."""
    admin = auth.admin()
    saved = client.put("/api/admin/shop-settings", json={**SELLER, "sellerGstin": ""}, headers=admin)
    assert saved.status_code == 200, saved.get_json()
    assert saved.get_json()["settings"]["sellerGstin"] == ""
    assert saved.get_json()["settings"]["sellerName"] == "Pustak Ghar Books"
    refused = client.put("/api/admin/shop-settings", json={"sellerGstin": "12345"}, headers=admin)
    assert "sellerGstin" in assert_refused(refused, 422)["errors"]
    assert client.get("/api/admin/shop-settings", headers=admin).get_json()["settings"]["sellerGstin"] == ""


# Names and words in the scripts of India, each with the font that must be embedded to print it.
SCRIPTS = {"முருகன்": "NotoSansTamil", "সুমিতা": "NotoSansBengali", "ગીતા": "NotoSansGujarati",
           "ਹਰਪ੍ਰੀਤ": "NotoSansGurmukhi", "ಕಾವ್ಯ": "NotoSansKannada", "അനിൽ": "NotoSansMalayalam",
           "ସୁଭାଷ": "NotoSansOriya", "లక్ష్మి": "NotoSansTelugu", "عائشہ": "NotoNaskhArabic",
           "अनीता": "NotoSansDevanagari"}


def embedded_fonts(data: bytes) -> set[str]:
    """The base names of the fonts a PDF embeds (subset prefixes like ABCDEF+ dropped)."""
    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]).lstrip("/").split("+")[-1])
    return names


def test_names_in_every_script_of_india_print(client, factories, auth):
    """A buyer named in Tamil, Bengali, Gujarati, Gurmukhi, Kannada, Malayalam, Oriya, Telugu, Urdu and Hindi:
    the bill embeds each script's Noto font and the names read back from the PDF (Urdu in logical order)."""
    words = list(SCRIPTS)
    order = factories.order(client=client, shippingAddress={
        **ADDRESS, "firstName": " ".join(words[:3]), "lastName": " ".join(words[3:6]),
        "landmark": " ".join(words[6:])})
    deliver(client, auth.admin(), order["_id"])
    response = client.get(f"/api/orders/{order['_id']}/bill?token={link_token(order)}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    fonts = embedded_fonts(response.data)
    for word, font in SCRIPTS.items():
        assert any(name.startswith(font) for name in fonts), (font, fonts)
    text = pdf_text(response.data)
    # pypdf reads Bengali's and Oriya's reordered vowel signs back in another order: their fonts are checked above.
    for word in ("முருகன்", "ગીતા", "ਹਰਪ੍ਰੀਤ", "ಕಾವ್ಯ", "അനിൽ", "లక్ష్మి", "عائشہ", "अनीता"):
        assert word in text, f"{word!r} not in:\n{text}"


def test_bidi_controls_in_names_are_dropped_on_input(client, factories, auth):
    """Embeddings, overrides and isolates (U+202A-202E, U+2066-2069) cannot reorder a bill: text fields drop
    them when an order or an account is written, and a name made of them alone is blank (422)."""
    order = factories.order(client=client, shippingAddress={
        **ADDRESS, "firstName": "Ravi\u202e Kumar", "lastName": "\u2066R\u202ao\u2069", "address": "12\u202d MG Road"})
    row = order_row(order["_id"])
    assert (row.first_name, row.last_name, row.address) == ("Ravi Kumar", "Ro", "12 MG Road")
    book = factories.book(stock=3)
    blank = place(client, [(book, 1)], shippingAddress={**ADDRESS, "firstName": "\u202e\u2067 \u202c"})
    assert_refused(blank, 422, field="shippingAddress")
    registered = client.post("/api/auth/register", json={
        "firstName": "\u202bAsha", "lastName": "Verma\u2068", "email": "asha.bidi@example.in",
        "password": "a-quiet-river-17", "phone": "9876543210"})
    assert registered.status_code == 201, registered.get_json()
    assert (registered.get_json()["user"]["firstName"], registered.get_json()["user"]["lastName"]) == ("Asha", "Verma")
    deliver(client, auth.admin(), order["_id"])
    text = pdf_text(client.get(f"/api/orders/{order['_id']}/bill?token={link_token(order)}").data)
    assert "Ravi Kumar Ro" in text and "\u202e" not in text


def test_the_bill_of_a_cancelled_and_refunded_order_is_marked_cancelled(app, client, factories, razorpay):
    """Paid online, then cancelled and refunded in full: the bill keeps its number, its download is named and
    marked cancelled and says so, and the next bill takes the next number (a number is never reused)."""
    app.config["CLOCK"] = at(ist(2026, 11, 25, 10, 0))
    order = factories.order(client=client, method="online")
    paid = pay_online(client, razorpay, order)
    assert paid["billNumber"] == "BS/2627/000001"
    before = client.get(paid["billUrl"])
    assert "CANCELLED" not in pdf_text(before.data) and "cancelled" not in before.headers["Content-Disposition"]
    cancelled = client.post(f"/api/orders/{order['_id']}/cancel?token={link_token(order)}")
    assert cancelled.status_code == 200, cancelled.get_json()
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.bill_number) == ("cancelled", "refunded", "BS/2627/000001")

    response = client.get(f"/api/orders/{order['_id']}/bill?token={link_token(order)}")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert 'filename="bill-BS-2627-000001-cancelled.pdf"' in response.headers["Content-Disposition"]
    text = pdf_text(response.data)
    assert "Bill of Supply — CANCELLED" in text and "BS/2627/000001" in text
    on = row.cancelled_at if row.cancelled_at.tzinfo else row.cancelled_at.replace(tzinfo=timezone.utc)
    on = on.astimezone(IST)
    assert (f"Cancelled on {on:%d %b %Y}: the order was cancelled and its payment of ₹539.00 refunded in full. "
            "This bill's number is not given to another.") in " ".join(text.split())
    other = pay_online(client, razorpay, factories.order(client=client, method="online"))
    assert other["billNumber"] == "BS/2627/000002"
