"""Online payment through Razorpay (product §6), driven through the real SDK against the fake Razorpay.

Every test runs on the shop app: fake Razorpay (2 s timeout) and the SMTP sink configured.
"""
import time

import pytest
import razorpay as razorpay_sdk

from bookstore.extensions import db
from bookstore.services import payments as payments_service
from bookstore.models import Coupon, CouponUse, Order, PaymentEvent, utcnow
from tests.conftest import RAZORPAY_KEYS
from tests.factories import ADDRESS, count, place, placed
from tests.fakes.razorpay_server import hmac_hex
from tests.helpers import assert_refused, expire_payment_window, order_row, set_order, stock_of, subjects

VERIFY_FAILED = "Payment verification failed"


@pytest.fixture
def app(shop_app):
    """client, factories, auth and runner of this module all use the shop app."""
    return shop_app


@pytest.fixture
def book(factories):
    return factories.book(title="JEE Main Chemistry", price_paise=45000, stock=5)


def online_order(client, book, quantity=1, headers=None, email=None) -> dict:
    """An online order awaiting payment; `email` makes it another shopper's (a shopper's own earlier
    unpaid order for the same books is replaced by a new one)."""
    changes = {"shippingAddress": {**ADDRESS, "email": email}} if email else {}
    order = placed(client, [(book, quantity)], "online", headers, **changes)
    assert order["paymentStatus"] == "awaiting"
    return order


def create_razorpay_order(client, order, **claimed) -> dict:
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"], **claimed})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["order"]


def pay(client, razorpay, order) -> dict:
    """Create the Razorpay order and pay it in the (fake) Checkout; returns Checkout's three fields."""
    return razorpay.pay(create_razorpay_order(client, order)["id"])


def verify(client, fields):
    return client.post("/api/payments/verify", json=fields)


def webhook(client, razorpay, event, event_id="evt_0000000000001", signature=None, **ids):
    raw, good_signature = razorpay.webhook_body(event, **ids)
    headers = {"X-Razorpay-Signature": good_signature if signature is None else signature}
    if event_id:
        headers["X-Razorpay-Event-Id"] = event_id
    return client.post("/api/payments/webhook", data=raw, headers=headers, content_type="application/json")


def paid_mails(smtp_sink) -> list[str]:
    return [s for s in subjects(smtp_sink) if "payment received" in s]


def stray_razorpay_order(razorpay) -> str:
    """A Razorpay order made outside the shop (another shop on the same account, say)."""
    sdk = razorpay_sdk.Client(auth=(RAZORPAY_KEYS["RAZORPAY_KEY_ID"], RAZORPAY_KEYS["RAZORPAY_KEY_SECRET"]),
                              base_url=razorpay.base_url)
    return sdk.order.create({"amount": 10000, "currency": "INR"})["id"]


def refund_calls(razorpay) -> list:
    return [r for r in razorpay.calls("POST", "/v1/payments/") if r.path.endswith("/refund")]


# --- configuration and the Razorpay order ---------------------------------------------------------

def test_config_with_keys_offers_online_payment(client):
    """With keys configured, checkout is told online payment is available and gets the public key id."""
    response = client.get("/api/payments/config")
    assert response.status_code == 200
    reply = response.get_json()
    assert reply["success"] is True and reply["onlineAvailable"] is True
    assert reply["keyId"] == "rzp_test_bookstore"
    assert reply["checkoutUrl"] == "https://checkout.razorpay.com/v1/checkout.js"
    assert "secret" not in str(reply).lower()


def test_create_order_makes_one_razorpay_order_for_the_servers_amount(client, razorpay, book):
    """create-order asks Razorpay once for the server's amount in paise, receipt = order number, and reuses it."""
    order = online_order(client, book, 2)
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"]})

    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and reply["key_id"] == "rzp_test_bookstore"
    assert reply["order"]["amount"] == order["totalPrice"] * 100 == 94000
    assert reply["order"]["currency"] == "INR" and reply["order"]["id"].startswith("order_")
    calls = razorpay.calls("POST", "/v1/orders")
    assert len(calls) == 1
    assert calls[0].body["amount"] == 94000 and calls[0].body["receipt"] == order["orderNumber"]
    assert calls[0].body["currency"] == "INR"
    assert order_row(order["_id"]).razorpay_order_id == reply["order"]["id"]

    again = client.post("/api/payments/create-order", json={"orderId": order["_id"], "amount": 94000,
                                                             "currency": "INR"})
    assert again.status_code == 200 and again.get_json()["order"] == reply["order"]
    assert len(razorpay.calls("POST", "/v1/orders")) == 1
    assert stock_of(book) == (3, 2)


@pytest.mark.parametrize("claimed", [{"amount": 100}, {"amount": 940}, {"amount": 94001}, {"currency": "USD"},
                                     {"receipt": "BK-2026-999999"}])
def test_a_client_amount_that_is_not_the_servers_is_409(client, razorpay, book, claimed):
    """An amount, currency or receipt from the client that differs from the order's is refused before
    Razorpay is called."""
    order = online_order(client, book, 2)
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"], **claimed})
    assert_refused(response, 409)
    assert razorpay.requests == []
    assert order_row(order["_id"]).razorpay_order_id is None


@pytest.mark.parametrize("payload, status", [
    ({"orderId": "f" * 24}, 404),
    ({"orderId": "nope"}, 404),
    ({"orderId": "f" * 25}, 422),
    ({"orderId": ""}, 422),
    ({}, 422),
    ({"orderId": 12}, 422),
])
def test_create_order_for_an_unknown_order(client, razorpay, payload, status):
    """Unknown ids are 404 and malformed ones 422; Razorpay is not called."""
    response = client.post("/api/payments/create-order", json=payload)
    assert_refused(response, status)
    assert razorpay.requests == []


def test_create_order_for_cod_cancelled_or_paid_orders_is_409(client, razorpay, factories, auth, book):
    """Cash-on-delivery, cancelled and already paid orders cannot get a Razorpay order."""
    cod = placed(client, [(book, 1)])
    assert_refused(client.post("/api/payments/create-order", json={"orderId": cod["_id"]}), 409,
                   "This order is paid on delivery.")

    owner = auth.customer()
    cancelled = online_order(client, book, headers=owner)
    assert client.post(f"/api/orders/{cancelled['_id']}/cancel", headers=owner).status_code == 200
    assert_refused(client.post("/api/payments/create-order", json={"orderId": cancelled["_id"]}), 409,
                   "This order was cancelled, so it cannot be paid.")
    assert razorpay.requests == []

    paid = online_order(client, book)
    assert verify(client, pay(client, razorpay, paid)).status_code == 200
    assert_refused(client.post("/api/payments/create-order", json={"orderId": paid["_id"]}), 409,
                   "This order is paid already.")
    assert len(razorpay.calls("POST", "/v1/orders")) == 1


def test_create_order_after_the_payment_window_is_409(client, razorpay, book):
    """Once the 30 minutes are over, no Razorpay order is made even before the hold is released."""
    order = online_order(client, book)
    expire_payment_window(order["_id"])
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    assert_refused(response, 409, "The time to pay for this order has run out. Please place the order again.")
    assert razorpay.requests == []


# --- Razorpay failing ------------------------------------------------------------------------------

@pytest.mark.parametrize("failure", [{"status": 500}, {"status": 502, "html": True}, {"status": 401}])
def test_razorpay_errors_are_502_and_change_nothing(client, razorpay, book, failure):
    """An error from Razorpay is a 502 with a clear message; the order keeps no Razorpay id, and a
    retry once Razorpay is well works."""
    order = online_order(client, book)
    razorpay.fail_next(**failure)
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    assert_refused(response, 502, "The payment service could not process this request. Please try again.")
    row = order_row(order["_id"])
    assert row.razorpay_order_id is None and row.payment_status == "awaiting"

    assert client.post("/api/payments/create-order", json={"orderId": order["_id"]}).status_code == 200
    assert order_row(order["_id"]).razorpay_order_id is not None


def test_razorpay_unreachable_is_503(client, razorpay, book):
    """Razorpay down (connection refused) is a 503 saying so; nothing changes."""
    order = online_order(client, book)
    razorpay.stop()
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    assert_refused(response, 503, "The payment service cannot be reached right now. Please try again "
                                  "in a moment or choose cash on delivery.")
    assert order_row(order["_id"]).razorpay_order_id is None


def test_razorpay_too_slow_is_503_within_the_timeout(client, razorpay, book):
    """A Razorpay that does not answer is given up after the timeout (2 s here): 503, nothing changes."""
    order = online_order(client, book)
    razorpay.delay_next(5)
    started = time.monotonic()
    response = client.post("/api/payments/create-order", json={"orderId": order["_id"]})
    elapsed = time.monotonic() - started
    assert_refused(response, 503, "The payment service did not answer in time. Nothing was charged; "
                                  "please try again.")
    assert 1.5 < elapsed < 3.5
    assert order_row(order["_id"]).razorpay_order_id is None


# --- verify ----------------------------------------------------------------------------------------

def test_verify_marks_the_order_paid_once(client, razorpay, smtp_sink, book):
    """A correctly signed Checkout result pays the order and mails the shopper; verifying it again
    answers 200 and changes nothing."""
    order = online_order(client, book)
    assert smtp_sink.messages == []
    fields = pay(client, razorpay, order)

    response = verify(client, fields)
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    assert reply["success"] is True and reply["message"] == "Payment verified"
    shown = reply["order"]
    assert (shown["paymentStatus"], shown["isPaid"], shown["status"]) == ("paid", True, "pending")
    assert shown["paymentId"] == fields["razorpay_payment_id"] and shown["paidAt"]
    row = order_row(order["_id"])
    assert row.payment_status == "paid" and row.razorpay_payment_id == fields["razorpay_payment_id"]
    paid_at = row.paid_at
    assert paid_at is not None
    assert paid_mails(smtp_sink) == [f"Order {order['orderNumber']} confirmed — payment received"]
    assert fields["razorpay_payment_id"] in smtp_sink.body(0)

    again = verify(client, fields)
    assert again.status_code == 200 and again.get_json()["order"]["paymentStatus"] == "paid"
    row = order_row(order["_id"])
    assert row.paid_at == paid_at and row.payment_status == "paid"
    assert len(paid_mails(smtp_sink)) == 1 and len(smtp_sink.messages) == 1
    assert stock_of(book) == (4, 1)


@pytest.mark.parametrize("tamper", ["zeros", "other-secret", "other-payment", "upper-case", "non-ascii",
                                    "too-long"])
def test_a_bad_signature_is_400_and_pays_nothing(client, razorpay, smtp_sink, book, tamper):
    """Anything but Razorpay's signature over order|payment is 'Payment verification failed' (never 500)."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    signature = {
        "zeros": "0" * 64,
        "other-secret": hmac_hex("not-the-secret", f"{fields['razorpay_order_id']}|{fields['razorpay_payment_id']}"),
        "other-payment": fields["razorpay_signature"],
        "upper-case": fields["razorpay_signature"].upper(),
        "non-ascii": "é" * 64,
        "too-long": fields["razorpay_signature"] * 3,
    }[tamper]
    payment_id = "pay_Other000000001" if tamper == "other-payment" else fields["razorpay_payment_id"]
    response = verify(client, {**fields, "razorpay_signature": signature, "razorpay_payment_id": payment_id})
    assert response.status_code in (400, 422)
    assert_refused(response, response.status_code, VERIFY_FAILED)
    row = order_row(order["_id"])
    assert (row.payment_status, row.razorpay_payment_id, row.paid_at) == ("awaiting", None, None)
    assert smtp_sink.messages == []


@pytest.mark.parametrize("missing", ["razorpay_order_id", "razorpay_payment_id", "razorpay_signature"])
@pytest.mark.parametrize("how", ["absent", "empty", "null", "number"])
def test_verify_without_a_field_is_refused(client, razorpay, book, missing, how):
    """Each of the three Checkout fields is required text; without one (or with a number instead) the
    answer is 'Payment verification failed'."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    if how == "absent":
        del fields[missing]
    else:
        fields[missing] = {"empty": "", "null": None, "number": 12345}[how]
    response = verify(client, fields)
    assert response.status_code in (400, 422)
    assert_refused(response, response.status_code, VERIFY_FAILED)
    assert order_row(order["_id"]).payment_status == "awaiting"


def test_verify_with_a_razorpay_order_that_is_not_ours_is_400(client, razorpay, book):
    """A correctly signed result for a Razorpay order the shop never made pays nothing."""
    online_order(client, book)
    response = verify(client, razorpay.pay(stray_razorpay_order(razorpay)))
    assert_refused(response, 400, VERIFY_FAILED)
    assert {o.payment_status for o in Order.query.all()} == {"awaiting"}


def test_one_payment_pays_one_order(client, razorpay, smtp_sink, book):
    """Another order's Razorpay ids cannot pay a second order, and a payment id already used by one
    order cannot pay another even with a valid signature."""
    first, second = online_order(client, book), online_order(client, book, email="ravi@example.in")
    first_fields = pay(client, razorpay, first)
    second_rp = create_razorpay_order(client, second)["id"]

    # The first order's payment presented as the second's: the signature does not match.
    mixed = {**first_fields, "razorpay_order_id": second_rp}
    assert_refused(verify(client, mixed), 400, VERIFY_FAILED)
    assert order_row(second["_id"]).payment_status == "awaiting"

    assert verify(client, first_fields).status_code == 200
    assert order_row(first["_id"]).payment_status == "paid"
    assert order_row(second["_id"]).payment_status == "awaiting"

    # Even correctly signed, the used payment id cannot pay the second order.
    signed = {"razorpay_order_id": second_rp, "razorpay_payment_id": first_fields["razorpay_payment_id"],
              "razorpay_signature": hmac_hex(RAZORPAY_KEYS["RAZORPAY_KEY_SECRET"],
                                             f"{second_rp}|{first_fields['razorpay_payment_id']}")}
    # Razorpay's record of that payment names the first order: refused and recorded, nothing paid.
    assert_refused(verify(client, signed), 409, payments_service.MISMATCH)
    row = order_row(second["_id"])
    assert (row.payment_status, row.razorpay_payment_id, row.paid_at) == ("awaiting", None, None)
    assert order_row(first["_id"]).razorpay_payment_id == first_fields["razorpay_payment_id"]
    assert len(paid_mails(smtp_sink)) == 1


def test_a_second_payment_for_a_paid_order_does_not_change_it(client, razorpay, book):
    """A late duplicate payment of an already paid order leaves the first payment on the order."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    assert verify(client, fields).status_code == 200
    duplicate = razorpay.pay(fields["razorpay_order_id"], force=True)
    assert verify(client, duplicate).status_code == 200
    assert order_row(order["_id"]).razorpay_payment_id == fields["razorpay_payment_id"]


# --- webhook ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("event", ["payment.captured", "order.paid"])
def test_webhook_marks_the_order_paid_like_verify(client, razorpay, smtp_sink, book, event):
    """A signed payment.captured or order.paid webhook pays the order when the browser never came back."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    response = webhook(client, razorpay, event, order_id=fields["razorpay_order_id"])

    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"success": True, "message": "paid"}
    row = order_row(order["_id"])
    assert (row.payment_status, row.razorpay_payment_id) == ("paid", fields["razorpay_payment_id"])
    assert row.paid_at is not None and row.status == "pending"
    assert len(paid_mails(smtp_sink)) == 1
    assert db.session.scalar(db.select(PaymentEvent.event).where(PaymentEvent.source == "webhook")) == event


def test_a_webhook_delivered_twice_is_applied_once(client, razorpay, smtp_sink, book):
    """The same X-Razorpay-Event-Id twice: the second delivery is acknowledged and changes nothing."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    first = webhook(client, razorpay, "payment.captured", event_id="evt_Dup000000001",
                    payment_id=fields["razorpay_payment_id"])
    paid_at = order_row(order["_id"]).paid_at
    second = webhook(client, razorpay, "payment.captured", event_id="evt_Dup000000001",
                     payment_id=fields["razorpay_payment_id"])

    assert first.get_json()["message"] == "paid"
    assert second.status_code == 200 and second.get_json() == {"success": True, "message": "duplicate"}
    assert count(PaymentEvent) == 1
    assert order_row(order["_id"]).paid_at == paid_at
    assert len(paid_mails(smtp_sink)) == 1


@pytest.mark.parametrize("signature, message", [
    ("0" * 64, "Invalid webhook signature."),
    ("forged", "Invalid webhook signature."),
    ("é" * 64, "Invalid webhook signature."),
    ("", "Missing webhook signature."),
    (None, "Missing webhook signature."),
])
def test_a_forged_or_unsigned_webhook_is_400(client, razorpay, smtp_sink, book, signature, message):
    """A webhook without Razorpay's signature over its raw body is 400; nothing is paid or recorded."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    raw, _ = razorpay.webhook_body("payment.captured", payment_id=fields["razorpay_payment_id"])
    headers = {"X-Razorpay-Event-Id": "evt_Forged0000001"}
    if signature is not None:
        headers["X-Razorpay-Signature"] = signature
    response = client.post("/api/payments/webhook", data=raw, headers=headers, content_type="application/json")
    assert_refused(response, 400, message)
    assert order_row(order["_id"]).payment_status == "awaiting"
    assert count(PaymentEvent) == 0 and smtp_sink.messages == []


def test_a_webhook_signed_with_another_secret_or_altered_is_400(client, razorpay, book):
    """A signature made with the wrong secret, or a body changed after signing, is refused."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    raw, wrong = razorpay.webhook_body("payment.captured", payment_id=fields["razorpay_payment_id"],
                                       secret="not-the-webhook-secret")
    response = client.post("/api/payments/webhook", data=raw, headers={"X-Razorpay-Signature": wrong},
                           content_type="application/json")
    assert_refused(response, 400, "Invalid webhook signature.")
    raw, good = razorpay.webhook_body("payment.captured", payment_id=fields["razorpay_payment_id"])
    altered = raw.replace(b'"captured"', b'"CAPTURED"', 1)
    response = client.post("/api/payments/webhook", data=altered, headers={"X-Razorpay-Signature": good},
                           content_type="application/json")
    assert_refused(response, 400, "Invalid webhook signature.")
    assert order_row(order["_id"]).payment_status == "awaiting" and count(PaymentEvent) == 0


def test_webhooks_are_refused_without_a_webhook_secret(make_app, client, razorpay, book):
    """With no webhook secret configured the webhook answers 503, even to a correctly signed body."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    settings = {k: v for k, v in RAZORPAY_KEYS.items() if k != "RAZORPAY_WEBHOOK_SECRET"}
    unconfigured = make_app(RAZORPAY_BASE_URL=razorpay.base_url, **settings).test_client()
    raw, signature = razorpay.webhook_body("payment.captured", payment_id=fields["razorpay_payment_id"])
    response = unconfigured.post("/api/payments/webhook", data=raw, headers={"X-Razorpay-Signature": signature},
                                 content_type="application/json")
    assert_refused(response, 503, "Webhooks are not configured.")
    assert order_row(order["_id"]).payment_status == "awaiting" and count(PaymentEvent) == 0


def test_a_signed_webhook_with_a_malformed_body_is_400(client, razorpay):
    """A correctly signed body that is not a Razorpay event is 400, never 500."""
    for raw in (b"not json", b"[]", b'{"payload": {}}', b'{"event": "payment.captured", "payload": []}'):
        signature = hmac_hex(RAZORPAY_KEYS["RAZORPAY_WEBHOOK_SECRET"], raw)
        response = client.post("/api/payments/webhook", data=raw, headers={"X-Razorpay-Signature": signature},
                               content_type="application/json")
        assert_refused(response, 400, "Malformed webhook body.")
    assert count(PaymentEvent) == 0


def test_payment_failed_is_recorded_and_the_order_can_still_be_paid(client, razorpay, smtp_sink, book):
    """payment.failed is recorded (a PaymentEvent) and leaves the order unpaid; a later payment pays it."""
    order = online_order(client, book)
    rp_order = create_razorpay_order(client, order)["id"]
    razorpay.fail(rp_order)
    response = webhook(client, razorpay, "payment.failed", event_id="evt_Failed0000001", order_id=rp_order)

    assert response.status_code == 200 and response.get_json()["message"] == "failed"
    event = PaymentEvent.query.one()
    assert event.event == "payment.failed" and event.order_id == order_row(order["_id"]).id
    row = order_row(order["_id"])
    assert (row.status, row.payment_status, row.paid_at) == ("pending", "failed", None)
    assert smtp_sink.messages == [] and stock_of(book) == (4, 1)

    assert create_razorpay_order(client, order)["id"] == rp_order
    assert verify(client, razorpay.pay(rp_order)).status_code == 200
    assert order_row(order["_id"]).payment_status == "paid"


def test_payment_captured_after_verify_changes_nothing(client, razorpay, smtp_sink, book):
    """The webhook arriving after the browser's verify is acknowledged and pays nothing twice."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    assert verify(client, fields).status_code == 200
    paid_at = order_row(order["_id"]).paid_at

    for number, event in enumerate(("payment.captured", "order.paid")):
        response = webhook(client, razorpay, event, event_id=f"evt_Late00000000{number}",
                           order_id=fields["razorpay_order_id"])
        assert response.status_code == 200
    row = order_row(order["_id"])
    assert (row.payment_status, row.paid_at, row.razorpay_payment_id) == ("paid", paid_at,
                                                                           fields["razorpay_payment_id"])
    assert len(paid_mails(smtp_sink)) == 1 and refund_calls(razorpay) == []


def test_a_paid_order_never_goes_back(client, razorpay, book):
    """payment.failed (of another attempt) after the order is paid leaves it paid."""
    order = online_order(client, book)
    fields = pay(client, razorpay, order)
    assert verify(client, fields).status_code == 200
    failed_attempt = razorpay.fail(fields["razorpay_order_id"])["error"]["metadata"]["payment_id"]
    response = webhook(client, razorpay, "payment.failed", event_id="evt_AfterPaid0001", payment_id=failed_attempt)
    assert response.status_code == 200
    row = order_row(order["_id"])
    assert row.payment_status == "paid" and row.razorpay_payment_id == fields["razorpay_payment_id"]


def test_a_webhook_for_an_unknown_order_is_acknowledged_and_ignored(client, razorpay, book):
    """A signed event for a Razorpay order the shop does not know is recorded and answered 200."""
    online_order(client, book)
    fields = razorpay.pay(stray_razorpay_order(razorpay))
    response = webhook(client, razorpay, "payment.captured", payment_id=fields["razorpay_payment_id"])
    assert response.status_code == 200 and response.get_json()["message"] == "ignored"
    assert {o.payment_status for o in Order.query.all()} == {"awaiting"}
    assert PaymentEvent.query.one().order_id is None


# --- expiry of unpaid online orders ----------------------------------------------------------------

def test_expire_orders_cancels_unpaid_orders_once(runner, client, smtp_sink, book):
    """`flask expire-orders` cancels online orders past their window and frees their stock, exactly once."""
    order = online_order(client, book, 2)
    fresh = online_order(client, book, 1, email="ravi@example.in")
    assert stock_of(book) == (2, 3)
    expire_payment_window(order["_id"])

    result = runner.invoke(args=["expire-orders"])
    assert result.exit_code == 0, result.output
    assert "Released 1 unpaid order(s)." in result.output
    row = order_row(order["_id"])
    assert row.status == "cancelled" and row.stock_released is True and row.cancelled_at is not None
    assert (row.history[-1].status, row.history[-1].by) == ("cancelled", "system")
    assert order_row(fresh["_id"]).status == "pending"
    assert stock_of(book) == (4, 1)
    assert subjects(smtp_sink) == [f"Order {order['orderNumber']} is now cancelled"]

    again = runner.invoke(args=["expire-orders"])
    assert again.exit_code == 0 and "Released 0 unpaid order(s)." in again.output
    assert stock_of(book) == (4, 1) and len(smtp_sink.messages) == 1


def test_an_expired_online_order_gives_its_coupon_use_back(runner, client, auth, book):
    """An online order cancelled by its payment window's expiry releases its coupon use, once."""
    created = client.post("/api/admin/coupons", json={"code": "LATE", "kind": "flat", "value": 10, "maxUses": 1},
                          headers=auth.admin())
    assert created.status_code == 201, created.get_json()
    order = placed(client, [(book, 1)], "online", couponCode="LATE", totalPrice=480)
    assert order["paymentStatus"] == "awaiting" and Coupon.query.one().uses == 1
    expire_payment_window(order["_id"])
    for _ in range(2):
        assert runner.invoke(args=["expire-orders"]).exit_code == 0
    db.session.expire_all()
    assert order_row(order["_id"]).status == "cancelled"
    assert Coupon.query.one().uses == 0 and CouponUse.query.one().released_at is not None


def test_expire_orders_leaves_paid_and_cod_orders_alone(runner, client, razorpay, book):
    """Paid online orders and COD orders are never expired, whatever their dates."""
    paid = online_order(client, book)
    assert verify(client, pay(client, razorpay, paid)).status_code == 200
    cod = placed(client, [(book, 1)])
    expire_payment_window(paid["_id"])
    set_order(cod["_id"], payment_expires_at=utcnow().replace(year=2020))
    assert "Released 0" in runner.invoke(args=["expire-orders"]).output
    assert order_row(paid["_id"]).status == "pending" and order_row(cod["_id"]).status == "pending"
    assert stock_of(book) == (3, 2)


def test_expired_holds_are_released_when_someone_else_orders(client, auth, book):
    """The hold check runs when stock is taken: the last copy held by an expired order can be bought."""
    last = book
    first = online_order(client, last, 5, headers=auth.customer("asha@example.in"))
    assert stock_of(last) == (0, 5)
    assert place(client, [(last, 1)]).status_code == 409
    expire_payment_window(first["_id"])

    response = place(client, [(last, 1)], headers=auth.customer("ravi@example.in"))
    assert response.status_code == 201, response.get_json()
    assert order_row(first["_id"]).status == "cancelled"
    assert stock_of(last) == (4, 1)


def test_reading_the_catalogue_never_writes_and_the_expiry_job_frees_the_hold(client, book):
    """GET requests write nothing, expired hold or not; the periodic expiry job cancels the unpaid order
    and frees its stock, once."""
    from bookstore.jobs import tasks
    held = online_order(client, book, 5)
    expire_payment_window(held["_id"])
    for path in (f"/api/books/{book.id}", "/api/books", f"/api/books/by-ids?ids={book.id}"):
        assert client.get(path).status_code == 200
    assert order_row(held["_id"]).status == "pending" and stock_of(book) == (0, 5)

    tasks.expire_unpaid_orders()
    assert order_row(held["_id"]).status == "cancelled" and stock_of(book) == (5, 0)
    tasks.expire_unpaid_orders()
    assert stock_of(book) == (5, 0)
    assert client.get(f"/api/books/{book.id}").get_json()["book"]["stock"] == 5


@pytest.mark.parametrize("channel", ["verify", "webhook"])
def test_a_late_payment_is_refunded(runner, client, razorpay, smtp_sink, book, channel):
    """A payment arriving after the unpaid order was cancelled is refunded through Razorpay; the order
    ends cancelled with payment refunded and its stock is not taken again."""
    order = online_order(client, book, 2)
    rp_order = create_razorpay_order(client, order)["id"]
    expire_payment_window(order["_id"])
    assert "Released 1" in runner.invoke(args=["expire-orders"]).output
    assert stock_of(book) == (5, 0)

    fields = razorpay.pay(rp_order)
    if channel == "verify":
        response = verify(client, fields)
    else:
        response = webhook(client, razorpay, "payment.captured", payment_id=fields["razorpay_payment_id"])
    assert response.status_code == 200, response.get_json()

    row = order_row(order["_id"])
    assert (row.status, row.payment_status) == ("cancelled", "refunded")
    assert row.razorpay_refund_id and row.razorpay_payment_id == fields["razorpay_payment_id"]
    calls = refund_calls(razorpay)
    assert len(calls) == 1 and calls[0].path == f"/v1/payments/{fields['razorpay_payment_id']}/refund"
    assert calls[0].body["amount"] == 94000
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "refunded"
    assert stock_of(book) == (5, 0)
    assert "refunded" in smtp_sink.body(-1) and paid_mails(smtp_sink) == []

    # The other channel arriving later changes nothing more.
    again = webhook(client, razorpay, "payment.captured", event_id="evt_Again00000001",
                    payment_id=fields["razorpay_payment_id"]) if channel == "verify" else verify(client, fields)
    assert again.status_code == 200
    assert len(refund_calls(razorpay)) == 1 and order_row(order["_id"]).payment_status == "refunded"


def test_a_late_payment_whose_refund_failed_is_refunded_on_the_next_signal(runner, client, razorpay, book):
    """If Razorpay fails the refund of a late payment, the payment is not left on the cancelled order:
    the next signal for it (here the browser's verify after Razorpay's webhook) refunds it."""
    order = online_order(client, book)
    rp_order = create_razorpay_order(client, order)["id"]
    expire_payment_window(order["_id"])
    runner.invoke(args=["expire-orders"])
    fields = razorpay.pay(rp_order)
    razorpay.fail_next(500)
    response = webhook(client, razorpay, "payment.captured", payment_id=fields["razorpay_payment_id"])
    assert response.status_code == 200
    assert refund_calls(razorpay) != [] and razorpay.payment(fields["razorpay_payment_id"])["status"] == "captured"
    assert order_row(order["_id"]).payment_status == "refund_pending"

    assert verify(client, fields).status_code == 200
    row = order_row(order["_id"])
    assert (row.status, row.payment_status) == ("cancelled", "refunded")
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "refunded"


# --- cancelling a paid order ----------------------------------------------------------------------

def test_cancelling_a_paid_order_refunds_it(client, razorpay, smtp_sink, auth, book):
    """The owner cancels a paid online order: Razorpay refunds the full amount, the order is cancelled
    and refunded, the stock comes back and the e-mail says so."""
    owner = auth.customer()
    order = online_order(client, book, 2, headers=owner)
    fields = pay(client, razorpay, order)
    assert verify(client, fields).status_code == 200

    response = client.post(f"/api/orders/{order['_id']}/cancel", headers=owner)
    assert response.status_code == 200, response.get_json()
    shown = response.get_json()["order"]
    assert (shown["status"], shown["paymentStatus"]) == ("cancelled", "refunded")
    calls = refund_calls(razorpay)
    assert len(calls) == 1 and calls[0].body["amount"] == 94000
    row = order_row(order["_id"])
    assert razorpay.refund(row.razorpay_refund_id)["payment_id"] == fields["razorpay_payment_id"]
    assert razorpay.payment(fields["razorpay_payment_id"])["status"] == "refunded"
    assert stock_of(book) == (5, 0)
    assert "is being refunded" in smtp_sink.body(-1)
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 409
    assert len(refund_calls(razorpay)) == 1


def test_cancelling_a_paid_order_while_razorpay_is_down_cancels_at_once_and_refunds_later(
        client, razorpay, auth, book):
    """A cancel is a shop fact: with Razorpay down the order is cancelled and its stock freed at once,
    the payment shows `refund_pending`, and the refund job gives the money back once Razorpay answers."""
    from bookstore.jobs import tasks
    owner = auth.customer()
    order = online_order(client, book, headers=owner)
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    razorpay.fail_next(503, times=1)
    response = client.post(f"/api/orders/{order['_id']}/cancel", headers=owner)
    assert response.status_code == 200, response.get_json()
    assert (response.get_json()["order"]["status"], response.get_json()["order"]["paymentStatus"]) == \
        ("cancelled", "refund_pending")
    row = order_row(order["_id"])
    assert (row.stock_released, row.refund_attempts) == (True, 1) and row.refund_error
    assert stock_of(book) == (5, 0)
    shown = client.get(f"/api/orders/{order['_id']}", headers=owner).get_json()["order"]
    assert shown["paymentStatus"] == "refund_pending"

    tasks.sweep_refunds()
    row = order_row(order["_id"])
    assert (row.payment_status, row.refund_error) == ("refunded", "") and row.razorpay_refund_id
    assert razorpay.payment(row.razorpay_payment_id)["status"] == "refunded"
    tasks.sweep_refunds()
    assert [r.body["amount"] for r in refund_calls(razorpay)] == [row.total_paise, row.total_paise]
    assert stock_of(book) == (5, 0)


def test_a_refund_whose_answer_was_lost_is_found_not_made_twice(client, razorpay, auth, book):
    """Razorpay makes the refund but its answer times out: the next attempt asks Razorpay for the
    payment's refunds first and records the one it finds. Every refund call carries the order's
    idempotency key, and the customer is refunded once."""
    from bookstore.jobs import tasks
    owner = auth.customer()
    order = online_order(client, book, headers=owner)
    assert verify(client, pay(client, razorpay, order)).status_code == 200
    razorpay.answer_late_next(3)  # beyond the app's 2 s Razorpay timeout
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    row = order_row(order["_id"])
    assert row.payment_status == "refund_pending" and row.refund_attempts == 1
    assert razorpay.payment(row.razorpay_payment_id)["status"] == "refunded"  # it happened at Razorpay

    tasks.refund_order(row.id)
    row = order_row(order["_id"])
    assert row.payment_status == "refunded"
    assert razorpay.refund(row.razorpay_refund_id)["payment_id"] == row.razorpay_payment_id
    assert len(refund_calls(razorpay)) == 1  # the second attempt looked, it did not refund again
    assert razorpay.idempotency_keys == [f"refund-{order['_id']}"]


def test_an_awaiting_order_cancelled_by_its_owner_then_paid_is_refunded(client, razorpay, auth, book):
    """A shopper who cancels and then completes Checkout anyway gets the money back."""
    owner = auth.customer()
    order = online_order(client, book, headers=owner)
    rp_order = create_razorpay_order(client, order)["id"]
    assert client.post(f"/api/orders/{order['_id']}/cancel", headers=owner).status_code == 200
    assert stock_of(book) == (5, 0)
    assert verify(client, razorpay.pay(rp_order)).status_code == 200
    row = order_row(order["_id"])
    assert (row.status, row.payment_status) == ("cancelled", "refunded")
    assert len(refund_calls(razorpay)) == 1 and stock_of(book) == (5, 0)


def test_expiry_never_cancels_an_order_the_shop_has_delivered(runner, client, auth, book):
    """Unpaid-hold expiry is a cancellation like any other: it must not cancel (and restock) an order the
    shop already marked delivered, since delivered → cancelled is forbidden."""
    order = online_order(client, book, 2)
    # The API moves only paid online orders on; this one was marked delivered by hand, in the database.
    set_order(order["_id"], status="delivered")
    expire_payment_window(order["_id"])

    result = runner.invoke(args=["expire-orders"])
    assert result.exit_code == 0
    row = order_row(order["_id"])
    assert row.status == "delivered" and row.stock_released is False
    assert stock_of(book) == (3, 2)
