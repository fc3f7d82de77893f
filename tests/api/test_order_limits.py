"""Against hoarding and walking (issue: 55 anonymous cash orders took the whole catalogue in 3.4 s):
at most MAX_QUANTITY_PER_LINE copies a line, OPEN_COD_ORDERS_PER_CONTACT cash orders on their way per
phone and per e-mail, placed orders limited per contact and attempts per IP, guest look-ups per IP.
Each limit is tested at its default, with everything else unchanged by a refusal."""
import uuid

import pytest

from bookstore.extensions import db
from bookstore.models import Order
from tests.conftest import RAZORPAY_KEYS, empty_database
from tests.factories import ADDRESS, Factories, count, order_payload, place, placed
from tests.helpers import assert_refused, order_row, set_order, stock_of

DEFAULTS = {"ORDER_LIMIT_PER_IP": "30 per hour", "ORDER_LIMIT_PER_CONTACT": "10 per day",
            "LOOKUP_LIMIT_PER_IP": "10 per minute", "OPEN_COD_ORDERS_PER_CONTACT": "3",
            "MAX_QUANTITY_PER_LINE": "10"}


@pytest.fixture
def app(make_app, razorpay):
    """The shop (online payment on) with the anti-hoarding defaults (the suite's other tests raise them)."""
    app = make_app(RATELIMIT_KEY_PREFIX=uuid.uuid4().hex, RAZORPAY_BASE_URL=razorpay.base_url, **RAZORPAY_KEYS,
                   **DEFAULTS)
    with app.app_context():
        empty_database()
        yield app
        db.session.remove()


@pytest.fixture
def book(factories):
    return factories.book(title="SSC CGL Maths", price_paise=30000, stock=100)


def with_contact(email: str, phone: str) -> dict:
    return {**ADDRESS, "email": email, "phone": phone}


def test_at_most_ten_copies_a_line(client, book):
    """11 copies of one book: 422 on orderItems pointing bulk buyers to the contact form; 10 are fine."""
    response = place(client, [(book, 11)])
    body_ = assert_refused(response, 422, field="orderItems")
    assert "at most 10 copies" in body_["message"] and "contact page" in body_["message"]
    assert count(Order) == 0 and stock_of(book)[0] == 100
    assert place(client, [(book, 10)]).status_code == 201


def test_three_cash_orders_on_their_way_per_phone_and_per_email(client, book):
    """A fourth open cash-on-delivery order for the same phone (even with another e-mail) or the same
    e-mail (even with another phone) is 409; online payment still works; once one is delivered or
    cancelled a new cash order is taken."""
    first = [placed(client, [(book, 1)]) for _ in range(3)]
    other_email = order_payload([(book, 1)], shippingAddress=with_contact("other@example.in", ADDRESS["phone"]))
    other_phone = order_payload([(book, 1)], shippingAddress=with_contact(ADDRESS["email"], "9123456789"))
    for payload in (other_email, other_phone):
        response = client.post("/api/orders", json=payload)
        assert_refused(response, 409)
        assert "3 cash-on-delivery orders" in response.get_json()["message"]
    assert count(Order) == 3 and stock_of(book)[0] == 97
    set_order(first[0]["_id"], status="delivered")
    assert client.post("/api/orders", json=other_email).status_code == 201


def test_orders_are_limited_per_contact_and_refusals_do_not_count(make_app, book):
    """With 2 orders a day per contact, a third for the same e-mail or phone is 429 with Retry-After;
    orders refused for stock do not use the allowance."""
    app = make_app(RATELIMIT_KEY_PREFIX=uuid.uuid4().hex, **{**DEFAULTS, "ORDER_LIMIT_PER_CONTACT": "2 per day"})
    client = app.test_client()
    scarce = Factories().book(title="Last Copy", stock=1)
    assert place(client, [(scarce, 1)]).status_code == 201
    assert place(client, [(scarce, 1)]).status_code == 409  # out of stock: not counted
    assert place(client, [(book, 1)]).status_code == 201
    response = client.post("/api/orders", json=order_payload([(book, 1)], shippingAddress=with_contact(
        "new@example.in", ADDRESS["phone"])))
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert response.get_json()["success"] is False
    response = client.post("/api/orders", json=order_payload([(book, 1)], shippingAddress=with_contact(
        ADDRESS["email"], "9000000001")))
    assert response.status_code == 429
    assert count(Order) == 2


def test_order_attempts_are_limited_per_ip(make_app, book):
    """Past ORDER_LIMIT_PER_IP attempts from one address, 429 before anything is read or written."""
    app = make_app(RATELIMIT_KEY_PREFIX=uuid.uuid4().hex, **{**DEFAULTS, "ORDER_LIMIT_PER_IP": "3 per hour"})
    client = app.test_client()
    for n in range(3):
        payload = order_payload([(book, 1)], shippingAddress=with_contact(f"buyer{n}@example.in", f"90000000{n:02d}"))
        assert client.post("/api/orders", json=payload).status_code == 201
    response = client.post("/api/orders", json=order_payload([(book, 1)], shippingAddress=with_contact(
        "late@example.in", "9000000099")))
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert count(Order) == 3


def test_guest_lookups_are_limited_per_ip(client, book):
    """Ten look-ups a minute from one address, then 429 with Retry-After (walking numbers is slow)."""
    order = placed(client, [(book, 1)])
    query = {"orderNumber": order["orderNumber"], "email": ADDRESS["email"]}
    for _ in range(10):
        assert client.get("/api/orders/lookup", query_string=query).status_code == 200
    response = client.get("/api/orders/lookup", query_string=query)
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 0
    assert response.get_json()["success"] is False


def test_an_abandoned_online_checkout_does_not_block_cash_on_delivery(client, auth, book):
    """A shopper who closes Razorpay's window and chooses cash on delivery gets the copies their own
    unpaid order held: that order is cancelled in the new order's transaction. Another shopper's unpaid
    order is left alone."""
    last = Factories().book(title="Only Five", stock=5)
    asha = auth.customer("asha@example.in", "secret-pass-1")
    held = placed(client, [(last, 5)], "online", headers=asha)
    assert stock_of(last) == (0, 5)
    response = place(client, [(last, 5)], headers=asha)
    assert response.status_code == 201, response.get_json()
    assert order_row(held["_id"]).status == "cancelled" and stock_of(last) == (0, 5)
    assert count(Order) == 2

    ravi = auth.customer("ravi@example.in", "secret-pass-2")
    other = Factories().book(title="Two Left", stock=2)
    ravis = placed(client, [(other, 2)], "online", headers=ravi)
    response = place(client, [(other, 2)], headers=asha)
    assert_refused(response, 409)
    assert order_row(ravis["_id"]).status == "pending"


def test_a_guest_switching_to_cash_replaces_their_own_unpaid_order(client, book):
    """For guests the browser's checkout cookie with the same shipping e-mail identifies the checkout."""
    scarce = Factories().book(title="Three Left", stock=3)
    held = placed(client, [(scarce, 3)], "online")
    assert place(client, [(scarce, 3)]).status_code == 201
    assert order_row(held["_id"]).status == "cancelled" and stock_of(scarce) == (0, 3)


def test_a_stranger_typing_a_guests_email_cannot_cancel_their_checkout(app, client, book):
    """The e-mail alone never identifies a checkout (anyone can type it): a stranger's orders with the guest's
    e-mail for the same books leave the guest's pending online order alone (the stranger is refused for the
    held copies), and so does another shopper's order from the same browser (a shared computer) with
    another e-mail. The guest's own retry from the same browser still replaces it."""
    scarce = Factories().book(title="Three Left", stock=3)
    response = place(client, [(scarce, 2)], "online")
    assert response.status_code == 201, response.get_json()
    guest = response.get_json()["order"]
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("checkout=") and "Path=/api/orders" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    stranger = app.test_client()
    assert_refused(place(stranger, [(scarce, 2)]), 409)
    strangers = placed(stranger, [(scarce, 1)], "online")
    assert strangers["paymentStatus"] == "awaiting" and order_row(guest["_id"]).status == "pending"
    assert_refused(place(client, [(scarce, 2)], shippingAddress={**ADDRESS, "email": "ravi@example.in"}), 409)
    assert order_row(guest["_id"]).status == "pending" and stock_of(scarce) == (0, 3)

    retry = place(client, [(scarce, 2)])
    assert retry.status_code == 201, retry.get_json()
    assert order_row(guest["_id"]).status == "cancelled" and order_row(strangers["_id"]).status == "pending"
    assert stock_of(scarce) == (0, 3) and count(Order) == 3
