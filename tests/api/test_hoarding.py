"""Against hoarding with unpaid orders (product §5.7): one IP held 4,000 copies for 30 minutes with unpaid
online orders and fresh e-mails. Copies held by unpaid orders are capped per IP and per browser (the
`checkout` cookie), whatever the e-mails; paid, confirmed or cancelled orders hold nothing."""
import uuid

import pytest
from sqlalchemy import func, select

from bookstore.extensions import db
from bookstore.models import Order, OutboxMail
from tests.conftest import RAZORPAY_KEYS, empty_database
from tests.factories import ADDRESS, order_payload
from tests.helpers import assert_refused, order_row, set_order, stock_of

SETTINGS = "/api/admin/shop-settings"


@pytest.fixture
def app(make_app, razorpay):
    """The shop with online payment and the default cap (the suite's other tests raise it)."""
    app = make_app(RATELIMIT_KEY_PREFIX=uuid.uuid4().hex, RAZORPAY_BASE_URL=razorpay.base_url, **RAZORPAY_KEYS,
                   UNPAID_COPIES_PER_BUYER="50")
    with app.app_context():
        empty_database()
        yield app
        db.session.remove()


@pytest.fixture
def books(factories):
    """Six books of 100 copies each, so no refusal is about stock."""
    return [factories.book(title=f"Hoarded {n}", price_paise=20000, stock=100) for n in range(6)]


def order(client, book, ip, n, method="online", quantity=10):
    """An order of `quantity` copies from `ip`, by a fresh e-mail and phone each time (as the hoarder did)."""
    contact = {**ADDRESS, "email": f"fresh{n}@example.in", "phone": f"98{n:08d}"}
    return client.post("/api/orders", json=order_payload([(book, quantity)], method, shippingAddress=contact),
                       environ_base={"REMOTE_ADDR": ip})


def orders_count() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(Order))


def test_unpaid_copies_are_capped_per_ip(app, books):
    """Five unpaid orders of 10 copies from one IP hold 50: the sixth is 409 with the reason and changes
    nothing; another IP (in another browser) still orders. Each order keeps the IP it came from."""
    browser = app.test_client()
    for n in range(5):
        assert order(browser, books[n], "10.7.0.1", n).status_code == 201
    refused = order(app.test_client(), books[5], "10.7.0.1", 5, quantity=1)
    body = assert_refused(refused, 409, "Unpaid orders from your network or browser already hold 50 copies, and "
                                        "at most 50 can wait for payment at a time. Please pay for or cancel "
                                        "them first, or write to us through the contact page for a bulk order.")
    assert (body["held"], body["limit"]) == (50, 50)
    assert orders_count() == 5 and stock_of(books[5]) == (100, 0)
    assert order(app.test_client(), books[5], "10.7.0.2", 6).status_code == 201
    assert {row.placed_ip for row in db.session.scalars(select(Order))} == {"10.7.0.1", "10.7.0.2"}


def test_cash_orders_waiting_for_confirmation_count_too(app, books):
    """Cash-on-delivery orders hold copies until the shop confirms them (processing): 4 × 10 + 10 more is
    refused; once the shop confirms one, or one is paid or cancelled, there is room again."""
    client = app.test_client()
    placed = [order(client, books[n], "10.7.1.1", n, method="cod").get_json()["order"]["_id"] for n in range(4)]
    online = order(client, books[4], "10.7.1.1", 4).get_json()["order"]["_id"]
    assert_refused(order(client, books[5], "10.7.1.1", 5, method="cod"), 409)
    set_order(placed[0], status="processing")
    assert order(client, books[5], "10.7.1.1", 5, method="cod", quantity=5).status_code == 201
    assert_refused(order(client, books[5], "10.7.1.1", 6, method="cod", quantity=6), 409)
    set_order(online, payment_status="paid")
    assert order(client, books[5], "10.7.1.1", 7, method="cod", quantity=5).status_code == 201
    set_order(placed[1], status="cancelled")
    assert order(client, books[5], "10.7.1.1", 8, method="cod", quantity=10).status_code == 201


def test_unpaid_copies_are_capped_per_browser_across_ips(app, books):
    """A browser that changes its IP keeps its `checkout` cookie (HttpOnly, /api/orders only):
    its unpaid copies are counted together. A forged cookie is a new browser."""
    browser = app.test_client()
    first = order(browser, books[0], "10.7.2.1", 0)
    assert first.status_code == 201
    cookie = browser.get_cookie("checkout", path="/api/orders")
    assert cookie is not None and cookie.http_only
    for n in range(1, 5):
        assert order(browser, books[n], f"10.7.2.{n + 1}", n).status_code == 201
    assert_refused(order(browser, books[5], "10.7.2.9", 5, quantity=1), 409)
    devices = {row.checkout_browser for row in db.session.scalars(select(Order))}
    assert len(devices) == 1 and None not in devices
    forged = app.test_client()
    forged.set_cookie("checkout", devices.pop(), path="/api/orders")
    assert order(forged, books[5], "10.7.2.10", 5).status_code == 201
    assert orders_count() == 6


def test_the_cap_is_a_shop_setting(app, auth, books):
    """unpaidCopiesPerBuyer (default 50 from UNPAID_COPIES_PER_BUYER) is an admin setting; lowered to 15,
    a second order of 10 from the same IP is refused; out of range is 422."""
    admin = auth.admin()
    client = app.test_client()
    assert client.get(SETTINGS, headers=admin).get_json()["settings"]["unpaidCopiesPerBuyer"] == 50
    assert client.put(SETTINGS, json={"unpaidCopiesPerBuyer": 15}, headers=admin).status_code == 200
    assert order(client, books[0], "10.7.3.1", 0).status_code == 201
    body = assert_refused(order(client, books[1], "10.7.3.1", 1), 409)
    assert (body["held"], body["limit"]) == (10, 15)
    assert order(client, books[1], "10.7.3.1", 1, quantity=5).status_code == 201
    response = client.put(SETTINGS, json={"unpaidCopiesPerBuyer": 0}, headers=admin)
    assert response.status_code == 422 and "unpaidCopiesPerBuyer" in response.get_json()["errors"]
    elsewhere = order(app.test_client(), books[2], "10.7.3.2", 2)
    assert order_row(elsewhere.get_json()["order"]["_id"]).placed_ip == "10.7.3.2"


def test_a_large_cash_order_waits_for_the_shops_confirmation(app, auth, factories, books):
    """A cash-on-delivery order of more than 10 printed copies (setting largeCodCopies) must be confirmed by the
    shop (moved to processing) within LARGE_COD_HOLD_HOURS (24); unconfirmed, the expiry job cancels it and
    gives its copies back with a mail. Smaller and confirmed orders are never expired this way."""
    from datetime import timedelta

    from bookstore.models import utcnow
    from bookstore.services import orders as order_service
    from tests.helpers import outbox_subjects
    client = app.test_client()
    contact = {**ADDRESS, "email": "school@example.in"}
    large = client.post("/api/orders", json=order_payload([(books[0], 6), (books[1], 5)], shippingAddress=contact))
    assert large.status_code == 201, large.get_json()
    large_id = large.get_json()["order"]["_id"]
    row = order_row(large_id)
    hours = (row.confirm_by.replace(tzinfo=None) - utcnow().replace(tzinfo=None)).total_seconds() / 3600
    assert 23.9 < hours <= 24
    placed_mail = db.session.scalars(select(OutboxMail).order_by(OutboxMail.id.desc())).first()
    assert "we will confirm it with you before we dispatch it" in placed_mail.body
    small = client.post("/api/orders", json=order_payload([(books[2], 10)], shippingAddress=contact))
    confirmed = client.post("/api/orders", json=order_payload([(books[3], 6), (books[4], 6)], shippingAddress=contact))
    assert order_row(small.get_json()["order"]["_id"]).confirm_by is None
    confirmed_id = confirmed.get_json()["order"]["_id"]
    admin = auth.admin()
    moved = client.put(f"/api/admin/orders/{confirmed_id}/status", json={"status": "processing"}, headers=admin)
    assert moved.status_code == 200, moved.get_json()
    past = utcnow() - timedelta(minutes=1)
    set_order(large_id, confirm_by=past)
    set_order(confirmed_id, confirm_by=past)

    assert order_service.release_all_expired_holds() == 1

    row = order_row(large_id)
    assert (row.status, row.stock_released) == ("cancelled", True)
    assert stock_of(books[0]) == (100, 0) and stock_of(books[1]) == (100, 0)
    assert order_row(confirmed_id).status == "processing" and stock_of(books[3]) == (94, 6)
    assert order_row(small.get_json()["order"]["_id"]).status == "pending"
    assert any("cancelled" in subject.lower() for subject in outbox_subjects())
    assert "not confirmed" in row.history[-1].note
