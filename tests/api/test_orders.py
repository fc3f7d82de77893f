"""Placing orders and following them (product §5, §7): the server prices, stocks and limits every order."""
import re
from datetime import timedelta

import pytest

from bookstore.models import Order, OrderLine, OrderStatusChange, OutboxMail, utcnow
from tests.factories import ADDRESS, count, order_payload, place, placed
from tests.helpers import assert_refused, order_row, set_order, stock_of, subjects


def assert_nothing_placed(*books_and_stock):
    """A refused order leaves no order, line, history or e-mail, and every book's stock as it was."""
    assert count(Order) == 0 and count(OrderLine) == 0 and count(OrderStatusChange) == 0
    assert count(OutboxMail) == 0
    for book, stock in books_and_stock:
        assert stock_of(book) == (stock, 0)


# --- placing: cash on delivery ---------------------------------------------------------------------

def test_cod_order_is_priced_from_the_database(client, factories):
    """A COD order is created pending/pending, priced from the database (offer price, ₹40 shipping, no
    tax) whatever prices the client sends, and takes its copies from stock."""
    offer = factories.book(title="GATE Physics", price_paise=49900, discounted_price_paise=39900, stock=10)
    plain = factories.book(title="Banking Awareness", price_paise=25050, stock=3)
    payload = order_payload([(offer, 2), (plain, 1)], itemsPrice=1, shippingPrice=0, taxPrice=0)
    for line in payload["orderItems"]:
        line["price"] = 1
        line["title"] = "Free book"

    response = client.post("/api/orders", json=payload)

    assert response.status_code == 201, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and reply["message"] == "Order placed"
    order = reply["order"]
    assert re.fullmatch(r"[0-9a-f]{24}", order["_id"])
    assert re.fullmatch(rf"BK-{utcnow().year}-[A-HJKMNP-RT-Z2-46-9]{{6}}", order["orderNumber"])
    assert (order["status"], order["paymentStatus"], order["paymentMethod"]) == ("pending", "pending", "cod")
    assert order["isPaid"] is False and order["paidAt"] is None and order["paymentId"] is None
    lines = {line["book"]: line for line in order["orderItems"]}
    assert lines[str(offer.id)]["price"] == 399 and lines[str(offer.id)]["quantity"] == 2
    assert lines[str(offer.id)]["lineTotal"] == 798 and lines[str(offer.id)]["title"] == "GATE Physics"
    assert lines[str(plain.id)]["price"] == 250.5 and lines[str(plain.id)]["title"] == "Banking Awareness"
    assert (order["itemsPrice"], order["shippingPrice"], order["taxPrice"]) == (1048.5, 40, 0)
    assert order["totalPrice"] == 1088.5
    assert order["itemCount"] == 3
    assert [(h["status"], h["by"]) for h in order["statusHistory"]] == [("pending", "customer")]

    row = order_row(order["_id"])
    assert (row.items_paise, row.shipping_paise, row.tax_paise, row.total_paise) == (104850, 4000, 0, 108850)
    assert row.user_id is None and row.payment_expires_at is None
    assert sorted((line.unit_price_paise, line.quantity) for line in row.lines) == [(25050, 1), (39900, 2)]
    assert stock_of(offer) == (8, 2) and stock_of(plain) == (2, 1)


def test_order_ids_and_numbers_are_not_guessable(client, factories):
    """`_id` is 24 random hex characters (not derived from the row id); orderNumber is BK-<year>- and six
    random characters, so one order's number says nothing about the next one's."""
    book = factories.book(stock=5)
    first, second = placed(client, [(book, 1)]), placed(client, [(book, 1)])
    assert first["_id"] != second["_id"]
    assert all(re.fullmatch(r"[0-9a-f]{24}", o["_id"]) for o in (first, second))
    year = utcnow().year
    assert all(re.fullmatch(rf"BK-{year}-[A-Z2-9]{{6}}", o["orderNumber"]) for o in (first, second))
    assert first["orderNumber"] != second["orderNumber"]
    assert str(order_row(first["_id"]).id) not in first["orderNumber"] + second["orderNumber"]
    assert str(order_row(first["_id"]).id) not in (first["_id"], second["_id"])


def test_signed_in_order_is_linked_to_the_account(client, factories, auth):
    """With a token the order belongs to the shopper and shows in /mine; a guest order belongs to nobody."""
    book = factories.book(stock=5)
    headers = auth.customer("shopper@example.in")
    mine = placed(client, [(book, 1)], headers=headers)
    guest = placed(client, [(book, 1)])

    listed = client.get("/api/orders/mine", headers=headers)
    assert listed.status_code == 200 and listed.get_json()["success"] is True
    assert [o["_id"] for o in listed.get_json()["orders"]] == [mine["_id"]]
    assert order_row(mine["_id"]).user_id is not None
    assert order_row(guest["_id"]).user_id is None


def test_a_bad_token_is_401_not_a_guest_order(client, factories):
    """A forged token is refused rather than silently placing a guest order."""
    book = factories.book(stock=5)
    response = place(client, [(book, 1)], headers={"Authorization": "Bearer not-a-token"})
    assert_refused(response, 401)
    assert_nothing_placed((book, 5))


# --- tampering -------------------------------------------------------------------------------------

@pytest.mark.parametrize("quantity", [-1, 0, 1.5, "2", True, None, 10**9, [1]])
def test_quantity_must_be_a_positive_whole_number(client, factories, quantity):
    """Negative, zero, fractional, textual, boolean, missing and huge quantities are 422 and change nothing."""
    book = factories.book(stock=10)
    payload = order_payload([(book, 1)])
    payload["orderItems"][0]["quantity"] = quantity
    response = client.post("/api/orders", json=payload)
    assert_refused(response, 422, field="orderItems")
    assert_nothing_placed((book, 10))


@pytest.mark.parametrize("client_price", [0, 1, -5, "free"])
def test_client_prices_are_ignored(client, factories, client_price):
    """Prices, items total and shipping sent by the client are never used: the server's prices stand."""
    book = factories.book(price_paise=59900, stock=4)
    payload = order_payload([(book, 2)], itemsPrice=client_price, shippingPrice=client_price, taxPrice=client_price)
    payload["orderItems"][0]["price"] = client_price
    payload["orderItems"][0]["lineTotal"] = client_price
    response = client.post("/api/orders", json=payload)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert (order["itemsPrice"], order["shippingPrice"], order["taxPrice"], order["totalPrice"]) == (1198, 40, 0, 1238)
    assert order_row(order["_id"]).total_paise == 123800
    assert stock_of(book) == (2, 2)


def test_client_cannot_mark_a_cod_order_paid(client, factories):
    """isPaid, a made-up razorpayPaymentId, a status or a payment status from the client are ignored."""
    book = factories.book(stock=4)
    order = placed(client, [(book, 1)], isPaid=True, razorpayPaymentId="pay_MadeUp00000001", paymentStatus="paid",
                   status="delivered", paidAt="2026-01-01T00:00:00Z", user="1", orderNumber="BK-2026-999999")
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.razorpay_payment_id, row.paid_at) == ("pending", "pending", None, None)
    assert order["isPaid"] is False and order["orderNumber"] != "BK-2026-999999"
    assert row.user_id is None


@pytest.mark.parametrize("claimed", [1, 0, "1087.5", 1089, 10**6])
def test_a_total_that_is_not_the_servers_is_409_with_current_figures(client, factories, claimed):
    """When the client's total differs, nothing is created and the reply carries the server's figures."""
    offer = factories.book(title="UPSC Polity", price_paise=49900, discounted_price_paise=39900, stock=10)
    plain = factories.book(title="SSC Maths", price_paise=25050, stock=3)
    response = place(client, [(offer, 2), (plain, 1)], totalPrice=claimed)

    reply = assert_refused(response, 409,
                           "Prices have changed since you opened your cart. Please review the new total.")
    current = reply["current"]
    assert (current["itemsPrice"], current["shippingPrice"], current["totalPrice"]) == (1048.5, 40, 1088.5)
    assert sorted((i["book"], i["title"], i["price"], i["quantity"]) for i in current["orderItems"]) == sorted(
        [(str(offer.id), "UPSC Polity", 399, 2), (str(plain.id), "SSC Maths", 250.5, 1)])
    assert_nothing_placed((offer, 10), (plain, 3))


@pytest.mark.parametrize("claimed", ["abc", -1, True, None, 10**7, 499.999])
def test_a_total_that_is_not_an_amount_is_422(client, factories, claimed):
    """totalPrice must be an amount in rupees; anything else is a validation error."""
    book = factories.book(stock=3)
    response = place(client, [(book, 1)], totalPrice=claimed)
    assert_refused(response, 422, field="totalPrice")
    assert_nothing_placed((book, 3))


@pytest.mark.parametrize("spellings", [
    ("{id}", "{id}"),
    ("{id}", "int"),
    ("{id}", " {id} "),
    ("{id}", "0{id}"),
], ids=["same", "number-and-text", "padded", "leading-zero"])
def test_one_book_may_appear_only_once(client, factories, spellings):
    """Two lines for one book, however its id is written, are 422 and change nothing."""
    book = factories.book(stock=10)
    payload = order_payload([(book, 1), (book, 2)])
    for line, spelling in zip(payload["orderItems"], spellings):
        line["book"] = book.id if spelling == "int" else spelling.format(id=book.id)
    response = client.post("/api/orders", json=payload)
    assert_refused(response, 422, "Each book may appear only once; change its quantity instead.", "orderItems")
    assert_nothing_placed((book, 10))


@pytest.mark.parametrize("lines, message", [
    (0, "Your cart is empty!"),
    (None, "Your cart is empty!"),
    ("missing", "Your cart is empty!"),
    (21, "Cart has too many items. Please reduce the number of items."),
])
def test_a_cart_has_1_to_20_lines(client, factories, lines, message):
    """No lines, no orderItems or more than 20 lines are 422 with the messages of product §5.7."""
    book = factories.book(stock=10)
    payload = order_payload([(book, 1)])
    if lines == "missing":
        del payload["orderItems"]
    elif lines is None:
        payload["orderItems"] = None
    else:
        payload["orderItems"] = [{"book": str(book.id + 1000 + n), "quantity": 1} for n in range(lines)]
    response = client.post("/api/orders", json=payload)
    assert_refused(response, 422, message, "orderItems")
    assert_nothing_placed((book, 10))


def test_twenty_lines_are_allowed(client, factories):
    """The limit is inclusive: a cart of 20 different books is placed."""
    books = [factories.book(price_paise=10000, stock=1) for _ in range(20)]
    order = placed(client, [(book, 1) for book in books])
    assert len(order["orderItems"]) == 20 and order["totalPrice"] == 2040
    assert all(stock_of(book) == (0, 1) for book in books)


@pytest.mark.parametrize("book_id", ["999999", "abc", "", "-1", "1.5", "१२", "²", "x" * 41, 1.5, None, {"_id": "zz"}],
                         ids=["unknown", "letters", "empty", "negative", "decimal", "devanagari", "superscript",
                              "too-long", "float", "null", "object"])
def test_unknown_or_malformed_books_are_422(client, factories, book_id):
    """A line naming no sellable book is a validation error and takes nothing from any stock."""
    real = factories.book(stock=5)
    payload = order_payload([(real, 1)])
    payload["orderItems"].append({"book": book_id, "quantity": 1})
    response = client.post("/api/orders", json=payload)
    assert_refused(response, 422, field="orderItems")
    assert_nothing_placed((real, 5))


def test_archived_books_cannot_be_ordered(client, factories):
    """An archived book is no longer sold: 422, and the other line's stock is left alone."""
    real = factories.book(stock=5)
    archived = factories.book(stock=5, archived=True)
    response = place(client, [(real, 1), (archived, 1)])
    assert_refused(response, 422, "One of the books in your cart is no longer sold.", "orderItems")
    assert_nothing_placed((real, 5), (archived, 5))


def test_book_ids_may_be_sent_under_older_names(client, factories):
    """Older clients send the book as bookId, _id or the whole book object; all are understood."""
    books = [factories.book(price_paise=10000, stock=2) for _ in range(3)]
    payload = order_payload([(book, 1) for book in books])
    payload["orderItems"] = [{"bookId": str(books[0].id), "quantity": 1},
                             {"_id": str(books[1].id), "quantity": 1},
                             {"book": {"_id": str(books[2].id), "title": "x"}, "quantity": 1}]
    response = client.post("/api/orders", json=payload)
    assert response.status_code == 201, response.get_json()
    order = response.get_json()["order"]
    assert sorted(line["book"] for line in order["orderItems"]) == sorted(str(b.id) for b in books)


@pytest.mark.parametrize("stock, quantity, message", [
    (3, 4, "Only 3 copies of 'NEET Biology' are left."),
    (1, 2, "Only 1 copy of 'NEET Biology' is left."),
    (0, 1, "Sorry, 'NEET Biology' is out of stock."),
])
def test_more_than_the_stock_is_409_naming_the_book(client, factories, stock, quantity, message):
    """Asking for more copies than are left is 409 with the book and what is available; nothing changes."""
    other = factories.book(stock=5)
    book = factories.book(title="NEET Biology", stock=stock)
    response = place(client, [(other, 1), (book, quantity)])
    reply = assert_refused(response, 409, message)
    assert reply["bookId"] == str(book.id) and reply["available"] == stock
    assert_nothing_placed((other, 5), (book, stock))


def test_the_last_copies_can_be_bought(client, factories):
    """Quantity equal to the stock is allowed and leaves zero, never below."""
    book = factories.book(stock=2)
    placed(client, [(book, 2)])
    assert stock_of(book) == (0, 2)
    assert_refused(place(client, [(book, 1)]), 409, f"Sorry, '{book.title}' is out of stock.")
    assert stock_of(book) == (0, 2) and count(Order) == 1


@pytest.mark.parametrize("method, message", [
    ("card", "Invalid payment method"),
    ("COD", "Invalid payment method"),
    ("", "Invalid payment method"),
    (None, "Please select a payment method."),
    ("missing", "Please select a payment method."),
])
def test_payment_method_is_cod_or_online(client, factories, method, message):
    """Only cod and online are payment methods."""
    book = factories.book(stock=3)
    payload = order_payload([(book, 1)], method)
    if method == "missing":
        del payload["paymentMethod"]
    response = client.post("/api/orders", json=payload)
    assert_refused(response, 422, message, "paymentMethod")
    assert_nothing_placed((book, 3))


def test_online_payment_without_razorpay_keys_is_refused(client, factories):
    """With no Razorpay keys configured, an online order is 422 on paymentMethod saying to choose COD."""
    book = factories.book(stock=3)
    response = place(client, [(book, 1)], "online")
    assert_refused(response, 422, "Online payment is not available right now. Please choose cash on delivery.",
                   "paymentMethod")
    assert_nothing_placed((book, 3))


def test_payment_config_without_keys_says_cod_only(client):
    """/api/payments/config tells checkout that online payment is off, and why."""
    response = client.get("/api/payments/config")
    assert response.status_code == 200
    reply = response.get_json()
    assert reply["success"] is True and reply["onlineAvailable"] is False and reply["keyId"] is None
    assert "cash on delivery" in reply["message"]


_REQUIRED = {"firstName": "First name is required.", "lastName": "Last name is required.",
             "email": "E-mail is required.", "phone": "Phone is required.", "address": "Address is required.",
             "city": "City is required.", "state": "State is required.", "zipCode": "PIN code is required."}
_BAD_SHIPPING = (
    [({field: ""}, field, message) for field, message in _REQUIRED.items()]
    + [({field: "   "}, field, message) for field, message in _REQUIRED.items()]
    + [({field: None}, field, message) for field, message in _REQUIRED.items()]
    + [({field: "missing"}, field, message) for field, message in _REQUIRED.items()]
    + [
        ({"zipCode": "56000"}, "zipCode", "PIN code must be 6 digits and cannot start with 0."),
        ({"zipCode": "060001"}, "zipCode", "PIN code must be 6 digits and cannot start with 0."),
        ({"zipCode": "56O001"}, "zipCode", "PIN code must be 6 digits and cannot start with 0."),
        ({"zipCode": "5600011"}, "zipCode", "PIN code must be 6 digits and cannot start with 0."),
        ({"zipCode": "५६०००१"}, "zipCode", "PIN code must be 6 digits and cannot start with 0."),
        ({"zipCode": 560001}, "zipCode", None),
        ({"phone": "987654321"}, "phone", "Enter a 10-digit Indian mobile number."),
        ({"phone": "5876543210"}, "phone", "Enter a 10-digit Indian mobile number."),
        ({"phone": "98765432101"}, "phone", "Enter a 10-digit Indian mobile number."),
        ({"phone": "+1 9876543210"}, "phone", "Enter a 10-digit Indian mobile number."),
        ({"phone": "98765abcde"}, "phone", "Enter a 10-digit Indian mobile number."),
        ({"state": "Atlantis"}, "state", "Choose a state or union territory of India."),
        ({"country": "Nepal"}, "country", "We deliver within India only."),
        ({"country": "USA"}, "country", "We deliver within India only."),
        ({"email": "not-an-email"}, "email", "Enter a valid e-mail address."),
        ({"email": "asha@"}, "email", "Enter a valid e-mail address."),
        ({"addressType": "palace"}, "addressType", "Address type must be home, work or other."),
        ({"firstName": "x" * 101}, "firstName", None),
        ({"address": "x" * 301}, "address", None),
    ]
)


@pytest.mark.parametrize("changes, field, message", _BAD_SHIPPING,
                         ids=[f"{field}={str(list(c.values())[0])[:12]!r}" for c, field, _ in _BAD_SHIPPING])
def test_shipping_address_is_validated(client, factories, changes, field, message):
    """Every required shipping field, the PIN, the phone, the state, the country and the e-mail are
    checked: 422 naming the field, and nothing is placed."""
    book = factories.book(stock=3)
    address = {**ADDRESS, **changes}
    if list(changes.values())[0] == "missing":
        del address[field]
    response = place(client, [(book, 1)], shippingAddress=address)
    reply = assert_refused(response, 422, message, "shippingAddress")
    assert field in reply["errors"]["shippingAddress"]
    if message:
        assert reply["errors"]["shippingAddress"][field] == [message]
    assert_nothing_placed((book, 3))


@pytest.mark.parametrize("address", [None, "Bengaluru", ["x"], {}])
def test_shipping_address_must_be_an_address(client, factories, address):
    """A missing or non-object shipping address is 422."""
    book = factories.book(stock=3)
    response = place(client, [(book, 1)], shippingAddress=address)
    assert_refused(response, 422, field="shippingAddress")
    assert_nothing_placed((book, 3))


def test_shipping_address_is_normalised_and_stored_as_given(client, factories):
    """+91 phones are normalised, states and country canonicalised, e-mail lower-cased, and any text
    (<script> included) is stored exactly as typed."""
    book = factories.book(stock=3)
    address = {**ADDRESS, "phone": "+91 98765 43210", "state": "  tamil NADU ", "country": "india",
               "email": "  Asha@Example.IN ", "address": "<script>alert('x')</script> 4th Cross",
               "firstName": "  Ánanya ", "city": "Chennai", "zipCode": "600001"}
    del address["landmark"], address["addressType"]
    order = placed(client, [(book, 1)], shippingAddress=address)

    shown = order["shippingAddress"]
    assert shown["phone"] == "9876543210" and shown["state"] == "Tamil Nadu" and shown["country"] == "India"
    assert shown["email"] == "asha@example.in" and shown["firstName"] == "Ánanya"
    assert shown["address"] == "<script>alert('x')</script> 4th Cross"
    assert shown["landmark"] == "" and shown["addressType"] == "home"
    row = order_row(order["_id"])
    assert (row.phone, row.state, row.country, row.email) == ("9876543210", "Tamil Nadu", "India", "asha@example.in")
    assert row.address == "<script>alert('x')</script> 4th Cross"


@pytest.mark.parametrize("raw", [b"not json", b"[]", b'"order"'])
def test_a_body_that_is_not_an_object_is_400(client, factories, raw):
    """Malformed JSON or a JSON value that is not an object is 400, never 500."""
    book = factories.book(stock=3)
    response = client.post("/api/orders", data=raw, content_type="application/json")
    assert_refused(response, 400)
    assert_nothing_placed((book, 3))


# --- idempotency -----------------------------------------------------------------------------------

def test_a_retried_order_with_the_same_key_is_placed_once(client, factories):
    """The same Idempotency-Key and body twice: one order, the second reply 200, marked replayed, same _id."""
    book = factories.book(stock=5)
    key = {"Idempotency-Key": "checkout-7f3a2c"}
    first = place(client, [(book, 2)], headers=key)
    second = place(client, [(book, 2)], headers=key)

    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    assert second.status_code == 200, second.get_json()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.get_json()["success"] is True and second.get_json()["message"] == "Order already placed"
    assert second.get_json()["order"]["_id"] == first.get_json()["order"]["_id"]
    assert count(Order) == 1 and stock_of(book) == (3, 2)


def test_the_same_key_with_another_body_is_409(client, factories):
    """Reusing an Idempotency-Key for a different order is refused and creates nothing more."""
    book = factories.book(stock=5)
    key = {"Idempotency-Key": "checkout-1"}
    placed(client, [(book, 1)], headers=key)
    response = place(client, [(book, 2)], headers=key)
    assert_refused(response, 409, "This Idempotency-Key was already used for a different order.")
    assert count(Order) == 1 and stock_of(book) == (4, 1)


def test_idempotency_keys_are_scoped_to_the_account(client, factories, auth):
    """A guest and a shopper (and two shoppers) using the same key get separate orders."""
    book = factories.book(stock=5)
    key = {"Idempotency-Key": "same-key"}
    guest = placed(client, [(book, 1)], headers=key)
    asha = placed(client, [(book, 1)], headers={**key, **auth.customer("asha@example.in")})
    ravi = placed(client, [(book, 1)], headers={**key, **auth.customer("ravi@example.in")})
    assert len({guest["_id"], asha["_id"], ravi["_id"]}) == 3
    assert count(Order) == 3 and stock_of(book) == (2, 3)


@pytest.mark.parametrize("key", ["k" * 101, ""], ids=["too-long", "empty"])
def test_a_bad_idempotency_key_is_400(client, factories, key):
    """Keys are 1 to 100 printable characters; anything else is 400 and places nothing."""
    book = factories.book(stock=5)
    response = place(client, [(book, 1)], headers={"Idempotency-Key": key})
    assert_refused(response, 400, "Idempotency-Key must be 1 to 100 printable characters.")
    assert_nothing_placed((book, 5))


def test_a_refused_order_does_not_burn_its_key(client, factories):
    """A key whose first attempt was refused (price changed) can place the corrected order."""
    book = factories.book(stock=5)
    key = {"Idempotency-Key": "retry-after-409"}
    assert place(client, [(book, 1)], headers=key, totalPrice=1).status_code == 409
    response = place(client, [(book, 1)], headers=key)
    assert response.status_code == 201 and count(Order) == 1


# --- following an order ----------------------------------------------------------------------------

def test_my_orders_are_paged_newest_first_and_only_mine(client, factories, auth):
    """/api/orders/mine lists only the shopper's orders, newest first, with pagination."""
    book = factories.book(stock=10)
    asha = auth.customer("asha@example.in")
    ravi = auth.customer("ravi@example.in")
    mine = [placed(client, [(book, 1)], headers=asha)["_id"] for _ in range(3)]
    placed(client, [(book, 1)], headers=ravi)
    placed(client, [(book, 1)])

    first = client.get("/api/orders/mine?limit=2", headers=asha)
    assert first.status_code == 200
    reply = first.get_json()
    assert reply["success"] is True
    assert [o["_id"] for o in reply["orders"]] == [mine[2], mine[1]]
    assert reply["totalOrders"] == 3 and reply["totalPages"] == 2
    assert reply["pagination"] == {"page": 1, "limit": 2, "total": 3, "totalPages": 2}
    second = client.get("/api/orders/mine?limit=2&page=2", headers=asha).get_json()
    assert [o["_id"] for o in second["orders"]] == [mine[0]]
    assert_refused(client.get("/api/orders/mine"), 401, "Please sign in to continue.")


def test_one_order_is_shown_to_its_owner_and_admins_only(client, factories, auth):
    """Owner and admin see the order; another shopper gets 404 (ids don't leak); a guest 401."""
    book = factories.book(stock=10)
    owner = auth.customer("asha@example.in")
    order = placed(client, [(book, 1)], headers=owner)
    url = f"/api/orders/{order['_id']}"

    for headers in (owner, auth.admin()):
        response = client.get(url, headers=headers)
        assert response.status_code == 200 and response.get_json()["success"] is True
        assert response.get_json()["order"]["orderNumber"] == order["orderNumber"]
    assert_refused(client.get(url, headers=auth.customer("ravi@example.in")), 404, "Order not found.")
    assert_refused(client.get(url), 401)
    assert_refused(client.get("/api/orders/" + "0" * 24, headers=owner), 404)
    assert_refused(client.get("/api/orders/" + "a" * 300, headers=owner), 404)


def test_a_guest_order_is_found_by_number_and_email(client, factories):
    """A guest looks an order up by its number and e-mail (any case); a wrong e-mail is 404."""
    book = factories.book(stock=10)
    order = placed(client, [(book, 1)])
    number = order["orderNumber"]

    for query in (f"orderNumber={number}&email=asha@example.in",
                  f"orderNumber={number.lower()}&email=ASHA@Example.IN",
                  f"orderNumber=%20{number}%20&email=%20asha@example.in"):
        response = client.get(f"/api/orders/lookup?{query}")
        assert response.status_code == 200, (query, response.get_json())
        assert response.get_json()["order"]["_id"] == order["_id"]
    assert_refused(client.get(f"/api/orders/lookup?orderNumber={number}&email=ravi@example.in"), 404,
                   "No order matches that number and e-mail.")
    assert_refused(client.get("/api/orders/lookup?orderNumber=BK-2026-999999&email=asha@example.in"), 404)
    assert_refused(client.get(f"/api/orders/lookup?orderNumber={number}"), 422, field="email")
    assert_refused(client.get("/api/orders/lookup?email=asha@example.in"), 422, field="orderNumber")


# --- cancelling (without e-mail; the e-mail is checked below) ----------------------------------------

@pytest.mark.parametrize("status", ["pending", "processing"])
def test_the_owner_cancels_within_the_hour_and_stock_comes_back_once(client, factories, auth, status):
    """A pending or processing order is cancelled by its owner within 1 hour; a second cancel is 409
    and the stock is not given back twice."""
    book = factories.book(stock=5)
    owner = auth.customer()
    order = placed(client, [(book, 2)], headers=owner)
    set_order(order["_id"], status=status)
    assert stock_of(book) == (3, 2)

    response = client.post(f"/api/orders/{order['_id']}/cancel", headers=owner)
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and reply["order"]["status"] == "cancelled"
    assert reply["order"]["cancelledAt"] is not None
    last = reply["order"]["statusHistory"][-1]
    assert (last["status"], last["by"]) == ("cancelled", "customer") and last["at"]
    assert stock_of(book) == (5, 0)

    again = client.post(f"/api/orders/{order['_id']}/cancel", headers=owner)
    assert_refused(again, 409)
    assert stock_of(book) == (5, 0)
    row = order_row(order["_id"])
    assert row.status == "cancelled" and row.stock_released is True
    assert [h.status for h in row.history].count("cancelled") == 1


@pytest.mark.parametrize("change", [
    {"created_at": "old"}, {"status": "shipped"}, {"status": "delivered"},
], ids=["after-an-hour", "shipped", "delivered"])
def test_too_late_to_cancel_is_409(client, factories, auth, change):
    """After an hour, or once shipped or delivered, the shopper cannot cancel; nothing changes."""
    book = factories.book(stock=5)
    owner = auth.customer()
    order = placed(client, [(book, 1)], headers=owner)
    if change.get("created_at"):
        set_order(order["_id"], created_at=utcnow() - timedelta(minutes=61))
    else:
        set_order(order["_id"], **change)
    before = order_row(order["_id"]).status

    response = client.post(f"/api/orders/{order['_id']}/cancel", headers=owner)
    assert_refused(response, 409, "This order can no longer be cancelled. Orders can be cancelled within 1 hour "
                                  "while they are pending or processing.")
    assert order_row(order["_id"]).status == before
    assert stock_of(book) == (4, 1)


def test_only_the_owner_can_cancel(client, factories, auth):
    """Another shopper gets 404, an admin on the shopper's route 403, a guest 401; the order stays."""
    book = factories.book(stock=5)
    order = placed(client, [(book, 1)], headers=auth.customer("asha@example.in"))
    url = f"/api/orders/{order['_id']}/cancel"
    assert_refused(client.post(url, headers=auth.customer("ravi@example.in")), 404)
    assert_refused(client.post(url, headers=auth.admin()), 403)
    assert_refused(client.post(url), 401)
    guest_order = placed(client, [(book, 1)])
    assert_refused(client.post(f"/api/orders/{guest_order['_id']}/cancel",
                               headers=auth.customer("nobody@example.in")), 404)
    assert {o.status for o in Order.query.all()} == {"pending"} and stock_of(book) == (3, 2)


def test_copies_sold_rise_on_placement_and_fall_on_cancellation(client, factories, auth):
    """Each book's copies sold counts placed copies and gives back cancelled ones."""
    first, second = factories.book(stock=10), factories.book(stock=10)
    owner = auth.customer()
    kept = placed(client, [(first, 1)], headers=owner)
    cancelled = placed(client, [(first, 2), (second, 3)], headers=owner)
    assert stock_of(first) == (7, 3) and stock_of(second) == (7, 3)
    assert client.post(f"/api/orders/{cancelled['_id']}/cancel", headers=owner).status_code == 200
    assert stock_of(first) == (9, 1) and stock_of(second) == (10, 0)
    assert order_row(kept["_id"]).status == "pending"


# --- with e-mail (the SMTP sink) -------------------------------------------------------------------

class TestMails:
    """Order e-mails reach a real SMTP server (the sink); Razorpay is configured too (fake)."""

    @pytest.fixture
    def app(self, shop_app):
        return shop_app

    def test_a_cod_order_mails_the_shopper_its_number(self, client, factories, smtp_sink):
        """Placing a COD order sends one e-mail, to the shipping e-mail, naming the order number."""
        book = factories.book(title="CAT Quant", price_paise=45000, stock=5)
        order = placed(client, [(book, 2)])
        assert len(smtp_sink.messages) == 1
        message = smtp_sink.messages[0]
        assert message["To"] == "asha@example.in"
        assert order["orderNumber"] in message["Subject"]
        text = smtp_sink.body(0)
        assert order["orderNumber"] in text and "CAT Quant" in text and "₹940.00" in text
        assert OutboxMail.query.one().sent_at is not None

    def test_refused_orders_send_no_mail(self, client, factories, smtp_sink):
        """Neither a validation error nor a stock or price conflict sends an e-mail."""
        book = factories.book(stock=1)
        assert place(client, [(book, 1)], shippingAddress={**ADDRESS, "zipCode": "1"}).status_code == 422
        assert place(client, [(book, 2)]).status_code == 409
        assert place(client, [(book, 1)], totalPrice=1).status_code == 409
        assert smtp_sink.messages == [] and count(OutboxMail) == 0 and count(Order) == 0

    def test_online_order_awaits_payment_and_sends_no_mail_yet(self, client, factories, smtp_sink):
        """An online order is pending with payment awaiting, holds its stock for 30 minutes, and is not
        mailed until it is paid; isPaid from the client is ignored."""
        book = factories.book(price_paise=30000, stock=4)
        order = placed(client, [(book, 2)], "online", isPaid=True, razorpayPaymentId="pay_Fake000000001")
        assert (order["status"], order["paymentStatus"], order["isPaid"]) == ("pending", "awaiting", False)
        assert order["paymentId"] is None and order["totalPrice"] == 640
        row = order_row(order["_id"])
        expires = row.payment_expires_at if row.payment_expires_at.tzinfo else \
            row.payment_expires_at.replace(tzinfo=utcnow().tzinfo)
        assert timedelta(minutes=29) < expires - utcnow() <= timedelta(minutes=30)
        assert stock_of(book) == (2, 2)
        assert smtp_sink.messages == []

    def test_cancelling_mails_the_shopper(self, client, factories, auth, smtp_sink):
        """The shopper's cancellation sends a status e-mail after the placement one."""
        book = factories.book(stock=5)
        owner = auth.customer()
        order = placed(client, [(book, 1)], headers=owner)
        assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
        assert subjects(smtp_sink) == [f"Order {order['orderNumber']} placed",
                                       f"Order {order['orderNumber']} is now cancelled"]
        assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 409
        assert len(smtp_sink.messages) == 2
