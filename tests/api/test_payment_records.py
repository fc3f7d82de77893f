"""Paid means Razorpay's own record of the payment matches the order: its Razorpay order, its amount
in paise and INR. The signature alone proves only that Razorpay signed something. An authorized
payment is captured for the order's amount; a mismatch is recorded and pays nothing. Signed webhooks
whose ids are not Razorpay ids are refused with 400, never 500."""
import json

import pytest

from bookstore.extensions import db
from bookstore.models import PaymentEvent
from bookstore.services.payments import MISMATCH
from tests.api.test_payments import create_razorpay_order, online_order, paid_mails, verify
from tests.conftest import RAZORPAY_KEYS
from tests.fakes.razorpay_server import hmac_hex
from tests.helpers import assert_refused, order_row


@pytest.fixture
def app(shop_app):
    return shop_app


@pytest.fixture
def book(factories):
    return factories.book(title="UPSC Polity", price_paise=13400, stock=5)


def signed_post(client, body: dict, event_id: str | None = "evt_Records000001"):
    raw = json.dumps(body).encode()
    headers = {"X-Razorpay-Signature": hmac_hex(RAZORPAY_KEYS["RAZORPAY_WEBHOOK_SECRET"], raw)}
    if event_id:
        headers["X-Razorpay-Event-Id"] = event_id
    return client.post("/api/payments/webhook", data=raw, headers=headers, content_type="application/json")


def captured_event(payment: dict) -> dict:
    return {"entity": "event", "event": "payment.captured", "contains": ["payment"],
            "payload": {"payment": {"entity": payment}}}


def mismatches() -> list[dict]:
    db.session.expire_all()
    return [event.payload for event in PaymentEvent.query.filter_by(event="payment.mismatch")]


def test_a_signed_webhook_for_one_rupee_does_not_pay_a_larger_order(client, razorpay, smtp_sink, book):
    """A correctly signed payment.captured whose amount is 1 paisa leaves the ₹174 order awaiting,
    sends no confirmation and is recorded as a mismatch."""
    order = online_order(client, book)
    rp_order = create_razorpay_order(client, order)["id"]
    fields = razorpay.pay(rp_order)
    payment = {**razorpay.payment(fields["razorpay_payment_id"]), "amount": 1}
    response = signed_post(client, captured_event(payment))
    assert response.status_code == 200
    row = order_row(order["_id"])
    assert (row.payment_status, row.razorpay_payment_id, row.paid_at) == ("awaiting", None, None)
    assert paid_mails(smtp_sink) == [] and mismatches()[0]["differs"] == "amount"


def test_a_signed_webhook_in_another_currency_does_not_pay(client, razorpay, book):
    """The currency of the payment must be the order's too (the amount alone says nothing in USD)."""
    order = online_order(client, book)
    fields = razorpay.pay(create_razorpay_order(client, order)["id"])
    payment = {**razorpay.payment(fields["razorpay_payment_id"]), "currency": "USD"}
    assert signed_post(client, captured_event(payment)).status_code == 200
    assert order_row(order["_id"]).payment_status == "awaiting" and mismatches()[0]["differs"] == "currency"


def test_verify_checks_razorpays_record_of_the_payment(client, razorpay, smtp_sink, book):
    """A valid Checkout signature for a payment whose amount at Razorpay is not the order's is refused
    with 409 and recorded; the order stays awaiting and no confirmation is sent."""
    order = online_order(client, book)
    fields = razorpay.pay(create_razorpay_order(client, order)["id"])
    with razorpay._lock:
        razorpay.payments[fields["razorpay_payment_id"]]["amount"] = 100
    assert_refused(verify(client, fields), 409, MISMATCH)
    assert order_row(order["_id"]).payment_status == "awaiting"
    assert paid_mails(smtp_sink) == [] and mismatches()[0]["differs"] == "amount"


def test_an_authorized_payment_is_captured_for_the_orders_amount(client, razorpay, smtp_sink, book):
    """On an account without automatic capture, verify captures the authorized payment for exactly the
    order's amount before marking the order paid."""
    order = online_order(client, book, 2)
    fields = razorpay.pay(create_razorpay_order(client, order)["id"], capture=False)
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "authorized"
    response = verify(client, fields)
    assert response.status_code == 200, response.get_json()
    captures = [r for r in razorpay.calls("POST", "/v1/payments/") if r.path.endswith("/capture")]
    assert len(captures) == 1 and captures[0].body["amount"] == order_row(order["_id"]).total_paise
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "captured"
    assert order_row(order["_id"]).payment_status == "paid" and len(paid_mails(smtp_sink)) == 1


ODD_IDS = [["pay_A", "pay_B"], "pay_\u0000nul", "pay_" + "x" * 46, 12345, {"id": 1}]
# In the body an id can be any JSON; the event id arrives as a header, which carries text without NULs.
CASES = ([("payment", odd) for odd in ODD_IDS] + [("order", odd) for odd in ODD_IDS]
         + [("event", "evt_" + "x" * 46), ("event", "evt id with spaces")])


@pytest.mark.parametrize("where, bad_id", CASES)
def test_signed_webhooks_with_odd_ids_are_400(client, razorpay, book, where, bad_id):
    """A list, a NUL, 50 characters or a number where Razorpay puts an id: 400, so Razorpay stops
    retrying it, and nothing is recorded."""
    payment = {"id": "pay_Good00000001", "order_id": "order_Good0000001", "amount": 17400, "currency": "INR",
               "status": "captured"}
    event_id = "evt_Odd000000001"
    if where == "payment":
        payment["id"] = bad_id
    elif where == "order":
        payment["order_id"] = bad_id
    else:
        event_id = bad_id
    response = signed_post(client, captured_event(payment), event_id=event_id)
    assert_refused(response, 400, "Malformed webhook body.")
    assert PaymentEvent.query.count() == 0
