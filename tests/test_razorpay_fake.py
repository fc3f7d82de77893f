"""The fake Razorpay server speaks like Razorpay to the real SDK (no Flask app involved).

Also pins the SDK behaviour the shop relies on (exceptions, timeouts, signature checks), so an
SDK upgrade that changes it fails here first.
"""
import json
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import razorpay
import requests
from razorpay.errors import BadRequestError, GatewayError, ServerError, SignatureVerificationError

from tests.fakes.razorpay_server import FakeRazorpay, Recorded

KEY_ID = "rzp_test_fakekey"
KEY_SECRET = "fake-key-secret"
WEBHOOK_SECRET = "fake-webhook-secret"
ORDER = {"amount": 54000, "currency": "INR", "receipt": "BK-2026-000123", "notes": {"shop_order": "abc"}}


@pytest.fixture
def fake():
    with FakeRazorpay(key_id=KEY_ID, key_secret=KEY_SECRET, webhook_secret=WEBHOOK_SECRET) as server:
        yield server


@pytest.fixture
def client(fake):
    return razorpay.Client(auth=(KEY_ID, KEY_SECRET), base_url=fake.base_url)


def _paid_order(client, fake, amount=54000):
    order = client.order.create(dict(ORDER, amount=amount))
    return order, fake.pay(order["id"])


# --- orders -----------------------------------------------------------------------------------

def test_order_create_and_fetch(fake, client):
    """The fake creates an order the way Razorpay does (id shape, amounts, receipt, notes, status created) and
    fetches the same order back."""
    order = client.order.create(dict(ORDER))

    assert re.fullmatch(r"order_[A-Za-z0-9]{14}", order["id"])
    assert order["entity"] == "order"
    assert (order["amount"], order["amount_paid"], order["amount_due"]) == (54000, 0, 54000)
    assert (order["currency"], order["receipt"], order["status"]) == ("INR", "BK-2026-000123", "created")
    assert order["attempts"] == 0 and order["notes"] == {"shop_order": "abc"}
    assert isinstance(order["created_at"], int)
    assert client.order.fetch(order["id"]) == order
    assert client.order.payments(order["id"]) == {"entity": "collection", "count": 0, "items": []}


def test_empty_notes_come_back_as_a_list_like_razorpay(client):
    """An order created without notes has notes [] and receipt null, as Razorpay answers."""
    order = client.order.create({"amount": 10000, "currency": "INR"})
    assert order["notes"] == [] and order["receipt"] is None


@pytest.mark.parametrize("change, message", [
    ({"amount": 99}, "at least INR 1.00"),
    ({"amount": 100.5}, "must be an integer"),
    ({"amount": True}, "must be an integer"),
    ({"amount": "54000"}, "must be an integer"),
    ({"amount": None}, "amount field is required"),
    ({"currency": "USD"}, "Currency is not supported"),
    ({"receipt": "x" * 41}, "may not be greater than 40 characters"),
    ({"is_paid": True}, "is_paid is/are not required"),
])
def test_order_validation(fake, client, change, message):
    """An order Razorpay would refuse raises BadRequestError with its message, and the fake stores nothing."""
    with pytest.raises(BadRequestError, match=message):
        client.order.create(dict(ORDER, **change))
    assert fake.orders == {}


def test_smallest_order_is_one_rupee(client):
    """100 paise (one rupee) is the smallest order amount the fake accepts."""
    assert client.order.create(dict(ORDER, amount=100))["amount"] == 100


def test_unknown_ids_are_bad_requests(client):
    """Fetching an order, payment or refund that does not exist is a bad request "The id provided does not exist"."""
    for call, missing in [(client.order.fetch, "order_XXXXXXXXXXXXXX"),
                          (client.order.payments, "order_XXXXXXXXXXXXXX"),
                          (client.payment.fetch, "pay_XXXXXXXXXXXXXX"),
                          (client.refund.fetch, "rfnd_XXXXXXXXXXXXXX")]:
        with pytest.raises(BadRequestError, match="The id provided does not exist"):
            call(missing)


# --- auth -------------------------------------------------------------------------------------

@pytest.mark.parametrize("auth, message", [
    ((KEY_ID, "wrong-secret"), "Authentication failed"),
    (("rzp_test_other", KEY_SECRET), "The api key provided is invalid"),
])
def test_wrong_credentials_raise_bad_request(fake, auth, message):
    """The SDK with a wrong key id or secret gets BadRequestError and no order is created."""
    wrong = razorpay.Client(auth=auth, base_url=fake.base_url)
    with pytest.raises(BadRequestError, match=message):
        wrong.order.create(dict(ORDER))
    assert fake.orders == {}


def test_wrong_credentials_answer_401_with_razorpay_error_shape(fake):
    """Wrong or missing credentials are HTTP 401 with Razorpay's error body, "Authentication failed"."""
    response = requests.get(f"{fake.base_url}/v1/orders", auth=(KEY_ID, "nope"), timeout=5)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "BAD_REQUEST_ERROR"
    assert response.json()["error"]["description"] == "Authentication failed"
    assert requests.get(f"{fake.base_url}/v1/orders", timeout=5).status_code == 401


# --- Checkout: payment signatures ---------------------------------------------------------------

def test_pay_returns_fields_that_verify(fake, client):
    """Paying an order returns Checkout's three fields, whose signature the SDK verifies, and records a captured
    payment that marks the order paid."""
    order, fields = _paid_order(client, fake)

    assert set(fields) == {"razorpay_order_id", "razorpay_payment_id", "razorpay_signature"}
    assert fields["razorpay_order_id"] == order["id"]
    assert client.utility.verify_payment_signature(fields) is True

    payment = client.payment.fetch(fields["razorpay_payment_id"])
    assert re.fullmatch(r"pay_[A-Za-z0-9]{14}", payment["id"])
    assert payment["entity"] == "payment" and payment["status"] == "captured" and payment["captured"] is True
    assert (payment["amount"], payment["currency"], payment["order_id"]) == (54000, "INR", order["id"])
    assert payment["method"] == "upi" and payment["email"] and payment["contact"]

    paid = client.order.fetch(order["id"])
    assert (paid["status"], paid["amount_paid"], paid["amount_due"], paid["attempts"]) == ("paid", 54000, 0, 1)
    assert [p["id"] for p in client.order.payments(order["id"])["items"]] == [payment["id"]]


@pytest.mark.parametrize("tamper", [
    {"razorpay_signature": "0" * 64},
    {"razorpay_payment_id": "pay_SomeoneElses00"},
    {"razorpay_order_id": "order_SomeOther0000"},
])
def test_tampered_checkout_fields_fail_verification(fake, client, tamper):
    """Any change to the order id, payment id or signature of Checkout's fields fails the SDK's verification."""
    _, fields = _paid_order(client, fake)
    with pytest.raises(SignatureVerificationError):
        client.utility.verify_payment_signature(dict(fields, **tamper))


def test_signature_made_with_another_secret_fails(fake, client):
    """Checkout fields verified with another key secret fail verification."""
    _, fields = _paid_order(client, fake)
    other = razorpay.Client(auth=(KEY_ID, "another-secret"))
    with pytest.raises(SignatureVerificationError):
        other.utility.verify_payment_signature(fields)


def test_sdk_signature_check_raises_key_and_type_errors_on_bad_input(fake, client):
    """The shop validates before calling: the SDK raises these, not SignatureVerificationError."""
    _, fields = _paid_order(client, fake)
    missing = {k: v for k, v in fields.items() if k != "razorpay_signature"}
    with pytest.raises(KeyError):
        client.utility.verify_payment_signature(missing)
    with pytest.raises(TypeError):
        client.utility.verify_payment_signature(dict(fields, razorpay_signature="é" * 64))


def test_paying_a_paid_order_twice_needs_force(fake, client):
    """A paid order cannot be paid again unless forced; forcing adds a second, different payment."""
    order, first = _paid_order(client, fake)
    with pytest.raises(ValueError):
        fake.pay(order["id"])
    second = fake.pay(order["id"], force=True)
    assert second["razorpay_payment_id"] != first["razorpay_payment_id"]
    assert client.order.payments(order["id"])["count"] == 2


def test_failed_attempt_then_success(fake, client):
    """A failed attempt leaves a failed payment and the order attempted; a later payment succeeds and both attempts
    are counted."""
    order = client.order.create(dict(ORDER))
    error = fake.fail(order["id"])["error"]

    assert error["code"] == "BAD_REQUEST_ERROR" and error["metadata"]["order_id"] == order["id"]
    failed = client.payment.fetch(error["metadata"]["payment_id"])
    assert failed["status"] == "failed" and failed["captured"] is False
    assert failed["error_code"] == "BAD_REQUEST_ERROR" and failed["error_description"]
    assert client.order.fetch(order["id"])["status"] == "attempted"

    fields = fake.pay(order["id"], method="card")
    assert client.payment.fetch(fields["razorpay_payment_id"])["method"] == "card"
    assert client.order.fetch(order["id"])["attempts"] == 2
    assert client.order.payments(order["id"])["count"] == 2


def test_manual_capture(fake, client):
    """An authorized payment is captured only for its full amount, once, and capturing marks the order paid."""
    order = client.order.create(dict(ORDER))
    payment_id = fake.pay(order["id"], capture=False)["razorpay_payment_id"]
    assert client.payment.fetch(payment_id)["status"] == "authorized"
    assert client.order.fetch(order["id"])["status"] == "attempted"

    with pytest.raises(BadRequestError, match="equal to the amount authorized"):
        client.payment.capture(payment_id, 100)
    captured = client.payment.capture(payment_id, 54000, {"currency": "INR"})
    assert captured["status"] == "captured" and captured["captured"] is True
    assert client.order.fetch(order["id"])["status"] == "paid"
    with pytest.raises(BadRequestError, match="already been captured"):
        client.payment.capture(payment_id, 54000, {"currency": "INR"})


# --- refunds ----------------------------------------------------------------------------------

def test_partial_then_full_refund(fake, client):
    """Refunds may be partial, never more than what is left, and a refund without an amount refunds the rest."""
    order, fields = _paid_order(client, fake)
    payment_id = fields["razorpay_payment_id"]

    refund = client.payment.refund(payment_id, {"amount": 4000, "notes": {"reason": "damaged"}})
    assert re.fullmatch(r"rfnd_[A-Za-z0-9]{14}", refund["id"])
    assert (refund["entity"], refund["amount"], refund["payment_id"], refund["status"]) == \
        ("refund", 4000, payment_id, "processed")
    assert client.refund.fetch(refund["id"]) == refund
    payment = client.payment.fetch(payment_id)
    assert (payment["amount_refunded"], payment["refund_status"], payment["status"]) == (4000, "partial", "captured")

    with pytest.raises(BadRequestError, match="greater than amount captured"):
        client.payment.refund(payment_id, {"amount": 50001})

    rest = client.payment.refund(payment_id, {})  # no amount: whatever is left
    assert rest["amount"] == 50000
    payment = client.payment.fetch(payment_id)
    assert (payment["amount_refunded"], payment["refund_status"], payment["status"]) == (54000, "full", "refunded")
    assert client.order.fetch(order["id"])["status"] == "paid"  # Razorpay keeps refunded orders paid
    refunds = client.payment.fetch_multiple_refund(payment_id)
    assert refunds["count"] == 2 and {r["id"] for r in refunds["items"]} == {refund["id"], rest["id"]}
    assert client.payment.fetch_refund_id(payment_id, refund["id"])["amount"] == 4000

    with pytest.raises(BadRequestError, match="fully refunded"):
        client.payment.refund(payment_id, {"amount": 100})


def test_refund_create_posts_to_refunds(fake, client):
    """client.refund.create posts to /v1/refunds with the payment id and amount, and the refund is made."""
    _, fields = _paid_order(client, fake)
    refund = client.refund.create({"payment_id": fields["razorpay_payment_id"], "amount": 54000})
    assert refund["amount"] == 54000
    assert fake.calls("POST", "/v1/refunds")[-1].body == {"payment_id": fields["razorpay_payment_id"],
                                                          "amount": 54000}


def test_refund_needs_a_captured_payment(fake, client):
    """A failed (uncaptured) payment cannot be refunded."""
    order = client.order.create(dict(ORDER))
    error = fake.fail(order["id"])["error"]
    with pytest.raises(BadRequestError, match="captured"):
        client.payment.refund(error["metadata"]["payment_id"], {"amount": 100})


# --- webhooks ---------------------------------------------------------------------------------

def test_webhook_bodies_verify_with_the_sdk(fake, client):
    """Webhook bodies for payment.captured and order.paid have Razorpay's shape and verify with the webhook secret; a
    changed body or another secret does not verify."""
    order, fields = _paid_order(client, fake)
    for event in ("payment.captured", "order.paid"):
        body, signature = fake.webhook_body(event, payment_id=fields["razorpay_payment_id"])
        assert client.utility.verify_webhook_signature(body.decode(), signature, WEBHOOK_SECRET) is True
        event_body = json.loads(body)
        assert event_body["entity"] == "event" and event_body["event"] == event
        assert event_body["account_id"].startswith("acc_") and isinstance(event_body["created_at"], int)
        payment = event_body["payload"]["payment"]["entity"]
        assert payment["id"] == fields["razorpay_payment_id"] and payment["order_id"] == order["id"]
        assert payment["status"] == "captured" and payment["amount"] == 54000

    assert json.loads(body)["contains"] == ["payment", "order"]
    assert json.loads(body)["payload"]["order"]["entity"]["status"] == "paid"
    with pytest.raises(SignatureVerificationError):
        client.utility.verify_webhook_signature(body.decode().replace("54000", "100"), signature, WEBHOOK_SECRET)
    with pytest.raises(SignatureVerificationError):
        client.utility.verify_webhook_signature(body.decode(), signature, "not-the-webhook-secret")


def test_webhook_by_order_picks_the_matching_payment(fake, client):
    """A webhook asked for by order carries the payment that matches the event: the failed one for payment.failed,
    the captured one for payment.captured."""
    order = client.order.create(dict(ORDER))
    failed_id = fake.fail(order["id"])["error"]["metadata"]["payment_id"]
    paid_id = fake.pay(order["id"])["razorpay_payment_id"]

    failed = json.loads(fake.webhook_body("payment.failed", order_id=order["id"])[0])
    assert failed["contains"] == ["payment"]
    assert failed["payload"]["payment"]["entity"]["id"] == failed_id
    assert failed["payload"]["payment"]["entity"]["error_code"] == "BAD_REQUEST_ERROR"
    captured = json.loads(fake.webhook_body("payment.captured", order_id=order["id"])[0])
    assert captured["payload"]["payment"]["entity"]["id"] == paid_id


def test_refund_webhook(fake, client):
    """A refund.processed webhook carries the refund and its payment with the amount refunded, and its signature
    verifies."""
    _, fields = _paid_order(client, fake)
    refund = client.payment.refund(fields["razorpay_payment_id"], {"amount": 1000})
    body, signature = fake.webhook_body("refund.processed", refund_id=refund["id"])
    event = json.loads(body)
    assert event["contains"] == ["refund", "payment"]
    assert event["payload"]["refund"]["entity"]["id"] == refund["id"]
    assert event["payload"]["payment"]["entity"]["amount_refunded"] == 1000
    assert client.utility.verify_webhook_signature(body.decode(), signature, WEBHOOK_SECRET)


def test_webhook_signed_with_another_secret_fails(fake, client):
    """A webhook signed with another secret fails the SDK's verification."""
    _, fields = _paid_order(client, fake)
    body, signature = fake.webhook_body("payment.captured", payment_id=fields["razorpay_payment_id"],
                                        secret="attacker")
    with pytest.raises(SignatureVerificationError):
        client.utility.verify_webhook_signature(body.decode(), signature, WEBHOOK_SECRET)


def test_send_webhook_posts_raw_body_with_signature_header(fake, client):
    """send_webhook posts the raw signed body with X-Razorpay-Signature to the given URL."""
    received = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    receiver = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        _, fields = _paid_order(client, fake)
        url = f"http://127.0.0.1:{receiver.server_address[1]}/api/payments/webhook"
        assert fake.send_webhook(url, "payment.captured", payment_id=fields["razorpay_payment_id"]) == 200
    finally:
        receiver.shutdown()
        receiver.server_close()

    headers, body = received[0]
    assert headers["Content-Type"] == "application/json" and headers["X-Razorpay-Event-Id"]
    assert client.utility.verify_webhook_signature(body.decode(), headers["X-Razorpay-Signature"], WEBHOOK_SECRET)


# --- failure knobs ----------------------------------------------------------------------------

def test_fail_next_gives_server_error_then_recovers(fake, client):
    """fail_next makes the next calls fail with a server error and create nothing; the call after them works."""
    fake.fail_next(status=503, times=2)
    for _ in range(2):
        with pytest.raises(ServerError):
            client.order.create(dict(ORDER))
    assert fake.orders == {}
    assert client.order.create(dict(ORDER))["status"] == "created"


def test_fail_next_500_and_gateway_error(fake, client):
    """fail_next answers 500 as ServerError and 502 GATEWAY_ERROR as GatewayError with the given description."""
    fake.fail_next(status=500)
    with pytest.raises(ServerError):
        client.order.fetch("order_XXXXXXXXXXXXXX")
    fake.fail_next(status=502, code="GATEWAY_ERROR", description="Bank is down")
    with pytest.raises(GatewayError, match="Bank is down"):
        client.order.fetch("order_XXXXXXXXXXXXXX")


def test_non_json_error_page_raises_a_requests_error(fake, client):
    """A proxy's HTML 502/503 is not JSON: the SDK lets requests' JSONDecodeError through."""
    fake.fail_next(status=503, html=True)
    with pytest.raises(requests.exceptions.RequestException) as raised:
        client.order.create(dict(ORDER))
    assert isinstance(raised.value, requests.exceptions.JSONDecodeError)


def test_delay_next_with_per_call_timeout_raises_timeout(fake, client):
    """A delayed answer makes a short client timeout raise Timeout, while the call is still carried out on the fake."""
    fake.delay_next(1.0)
    started = time.monotonic()
    with pytest.raises(requests.exceptions.Timeout):
        client.order.create(dict(ORDER), timeout=0.2)
    assert time.monotonic() - started < 0.9
    # Like the real thing, a call that timed out on the client may still happen on the server.
    deadline = time.monotonic() + 3
    while not fake.orders and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(fake.orders) == 1
    assert client.order.create(dict(ORDER), timeout=5)["status"] == "created"


def test_stopped_server_is_unreachable_then_comes_back(fake, client):
    """A stopped fake refuses connections and, started again on the same port, still knows its orders."""
    order = client.order.create(dict(ORDER))
    fake.stop()
    with pytest.raises(requests.exceptions.ConnectionError):
        client.order.fetch(order["id"], timeout=2)
    fake.start()
    assert client.order.fetch(order["id"], timeout=2)["id"] == order["id"]


# --- recording --------------------------------------------------------------------------------

def test_requests_are_recorded(fake, client):
    """Every API call is recorded with method, path and body (browser-side payments are not), and reset() forgets
    them."""
    order = client.order.create(dict(ORDER))
    client.order.fetch(order["id"])
    fake.pay(order["id"])  # the browser's side: not an API call

    assert fake.requests == [
        Recorded("POST", "/v1/orders", ORDER),
        Recorded("GET", f"/v1/orders/{order['id']}", None),
    ]
    method, path, body = fake.requests[0]
    assert (method, path, body["amount"]) == ("POST", "/v1/orders", 54000)
    assert len(fake.calls("POST", "/v1/orders")) == 1
    fake.reset()
    assert fake.requests == [] and fake.orders == {}


# --- development mode ---------------------------------------------------------------------------

def _post_json(url, payload):
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_dev_endpoints_pay_and_show_checkout(fake, client):
    """The dev endpoints show a checkout page and pay an order (JSON or a form posting back to the callback URL)
    without being recorded as API calls."""
    order = client.order.create(dict(ORDER))
    with urllib.request.urlopen(f"{fake.base_url}/_fake/checkout?order_id={order['id']}", timeout=5) as page:
        assert b"Pay" in page.read()

    fields = _post_json(f"{fake.base_url}/_fake/pay", {"order_id": order["id"]})
    assert client.utility.verify_payment_signature(fields)
    assert fake.requests == [Recorded("POST", "/v1/orders", ORDER)]  # dev calls are not API calls

    other = client.order.create(dict(ORDER))
    form = f"order_id={other['id']}&callback_url=http://127.0.0.1:1/api/payments/callback".encode()
    with urllib.request.urlopen(urllib.request.Request(f"{fake.base_url}/_fake/pay", data=form), timeout=5) as page:
        html = page.read().decode()
    assert 'action="http://127.0.0.1:1/api/payments/callback"' in html
    assert other["id"] in html and "razorpay_signature" in html


def test_command_line_prints_settings_and_serves():
    """The fake run from the command line prints the shop's Razorpay settings and serves the API on the given port."""
    with FakeRazorpay() as probe:  # borrow a free port
        port = probe.port
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.razorpay_server", "--port", str(port), "--quiet",
         "--key-id", KEY_ID, "--key-secret", KEY_SECRET],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1])
    try:
        lines = []
        for line in process.stdout:
            lines.append(line.strip())
            if "RAZORPAY_BASE_URL" in line:
                break
        assert f"RAZORPAY_BASE_URL=http://127.0.0.1:{port}" in lines
        assert f"RAZORPAY_KEY_ID={KEY_ID}" in lines
        dev_client = razorpay.Client(auth=(KEY_ID, KEY_SECRET), base_url=f"http://127.0.0.1:{port}")
        assert dev_client.order.create(dict(ORDER), timeout=5)["status"] == "created"
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=5) == 0
        process.stdout.close()


def test_malformed_body_and_unknown_url_are_bad_requests(fake):
    """A malformed body or an unknown URL is a bad request, not a crash."""
    auth = (KEY_ID, KEY_SECRET)
    response = requests.post(f"{fake.base_url}/v1/orders", data=b"{not json", auth=auth, timeout=5,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "BAD_REQUEST_ERROR"
    response = requests.get(f"{fake.base_url}/v1/nothing/here", auth=auth, timeout=5)
    assert response.status_code == 400
    assert response.json()["error"]["description"] == "The requested URL was not found on the server."
