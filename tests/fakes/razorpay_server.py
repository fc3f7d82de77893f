"""A local fake of Razorpay's HTTP API, for tests and for development without the internet.

It is a real HTTP server on 127.0.0.1, so the official `razorpay` SDK runs unchanged against it:

    with FakeRazorpay(key_id="rzp_test_x", key_secret="s3cret", webhook_secret="wh") as fake:
        client = razorpay.Client(auth=("rzp_test_x", "s3cret"), base_url=fake.base_url)
        order = client.order.create({"amount": 50000, "currency": "INR", "receipt": "BK-1"})
        fields = fake.pay(order["id"])        # what Checkout hands the browser
        client.utility.verify_payment_signature(fields)

API (under /v1, HTTP Basic auth with the key id and secret, JSON in and out, errors as
`{"error": {"code": "BAD_REQUEST_ERROR", "description": ...}}`):
    POST /v1/orders                GET /v1/orders, /v1/orders/{id}, /v1/orders/{id}/payments
    GET  /v1/payments/{id}         POST /v1/payments/{id}/capture, /v1/payments/{id}/refund
    GET  /v1/payments/{id}/refunds, /v1/payments/{id}/refunds/{refund_id}
    POST /v1/refunds               GET /v1/refunds/{id}

Test controls (Python methods): pay / fail (the Checkout modal), webhook_body / send_webhook,
fail_next / delay_next, delay_all (a switch: every call slow until turned off), stop / start (unreachable and back), requests / calls (what the shop
sent), order / payment / refund (current entities), reset.

Browsers: GET /v1/checkout.js is a test double of Razorpay's Checkout script (Pay, Fail, Close).

Development: `python -m tests.fakes.razorpay_server --port 9010` serves the same API plus
/_fake/checkout (a page with Pay and Fail buttons), /_fake/pay, /_fake/fail, /_fake/webhook and
/_fake/state, and prints the settings that point the shop at it.
"""
import argparse
import base64
import copy
import hashlib
import hmac
import html
import json
import re
import secrets
import signal
import string
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

from tests.fakes.http_fake import HttpFake

_ALNUM = string.ascii_letters + string.digits

# Fields Razorpay accepts when creating an order; anything else is refused, as Razorpay does.
_ORDER_FIELDS = {"amount", "currency", "receipt", "notes", "partial_payment", "payment_capture",
                 "first_payment_min_amount"}

# Which entities each webhook event carries, in Razorpay's order.
_WEBHOOK_CONTAINS = {
    "payment.authorized": ("payment",),
    "payment.captured": ("payment",),
    "payment.failed": ("payment",),
    "order.paid": ("payment", "order"),
    "refund.created": ("refund", "payment"),
    "refund.processed": ("refund", "payment"),
    "refund.failed": ("refund", "payment"),
}

# The payment status an event is about, to pick the right payment when only an order is named.
_EVENT_PAYMENT_STATUS = {
    "payment.authorized": {"authorized", "captured", "refunded"},
    "payment.captured": {"captured", "refunded"},
    "order.paid": {"captured", "refunded"},
    "payment.failed": {"failed"},
}


class RazorpayError(Exception):
    """An API error, answered as Razorpay's JSON error body."""

    def __init__(self, description, status=400, code="BAD_REQUEST_ERROR", field=None, business=True):
        super().__init__(description)
        self.status = status
        self.body = {"error": {
            "code": code,
            "description": description,
            # Razorpay tags validation errors this way and everything else with "NA".
            "source": "business" if business else "NA",
            "step": "payment_initiation" if business else "NA",
            "reason": "input_validation_failed" if business else "NA",
            "metadata": {},
        }}
        if field:
            self.body["error"]["field"] = field


class Recorded(NamedTuple):
    """One API request the fake received: body is the parsed JSON/form (or query for GET)."""

    method: str
    path: str
    body: object


def _random_id(prefix: str = "") -> str:
    """A Razorpay-style id: prefix, underscore, 14 random letters and digits."""
    tail = "".join(secrets.choice(_ALNUM) for _ in range(14))
    return f"{prefix}_{tail}" if prefix else tail


def hmac_hex(secret: str, message) -> str:
    """HMAC-SHA256 hex digest, the way Razorpay signs payments and webhooks."""
    if isinstance(message, str):
        message = message.encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def _now() -> int:
    return int(time.time())


def _not_found():
    return RazorpayError("The id provided does not exist")


def _paise(body: dict, field: str, required=True, minimum=100):
    """An amount in paise: an integer (never a bool or float) of at least ₹1."""
    if field not in body or body[field] is None:
        if required:
            raise RazorpayError(f"The {field} field is required.", field=field)
        return None
    value = body[field]
    if isinstance(value, bool) or not isinstance(value, int):
        raise RazorpayError(f"The {field} must be an integer.", field=field)
    if value < minimum:
        raise RazorpayError(f"The {field} must be at least INR {minimum / 100:.2f}", field=field)
    return value


def _notes(body: dict):
    """Razorpay's notes: at most 15 string pairs; an empty set comes back as a JSON list."""
    notes = body.get("notes")
    if notes in (None, [], {}):
        # Razorpay (PHP) answers empty notes as [] rather than {}; the shop must cope with both.
        return []
    if not isinstance(notes, dict):
        raise RazorpayError("notes should be an object", field="notes")
    if len(notes) > 15:
        raise RazorpayError("Number of fields in notes should be less than or equal to 15", field="notes")
    for value in notes.values():
        if isinstance(value, str) and len(value) > 256:
            raise RazorpayError("Notes value should not exceed 256 characters", field="notes")
    return dict(notes)


def _collection(items: list) -> dict:
    return {"entity": "collection", "count": len(items), "items": items}


class FakeRazorpay(HttpFake):
    """Razorpay's orders, payments and refunds API on 127.0.0.1, plus test controls."""

    name = "fake-razorpay"

    def __init__(self, key_id="rzp_test_fake", key_secret="fake_key_secret",
                 webhook_secret="fake_webhook_secret", host="127.0.0.1", port=0,
                 account_id="acc_FakeShop000001", verbose=False):
        super().__init__(host, port, verbose)
        self.key_id = key_id
        self.key_secret = key_secret
        self.webhook_secret = webhook_secret
        self.account_id = account_id
        # Dev mode: send payment webhooks here after /_fake/pay and /_fake/fail, as Razorpay would.
        self.auto_webhook_url = None
        self._lock = threading.RLock()
        self._routes = [
            ("POST", r"/v1/orders", self._create_order),
            ("GET", r"/v1/orders", self._list_orders),
            ("GET", r"/v1/orders/(?P<id>[^/]+)", self._get_order),
            ("GET", r"/v1/orders/(?P<id>[^/]+)/payments", self._order_payments),
            ("GET", r"/v1/payments/(?P<id>[^/]+)", self._get_payment),
            ("POST", r"/v1/payments/(?P<id>[^/]+)/capture", self._capture),
            ("POST", r"/v1/payments/(?P<id>[^/]+)/refund", self._refund_payment),
            ("GET", r"/v1/payments/(?P<id>[^/]+)/refunds", self._payment_refunds),
            ("GET", r"/v1/payments/(?P<id>[^/]+)/refunds/(?P<refund_id>[^/]+)", self._payment_refund),
            ("POST", r"/v1/refunds", self._create_refund),
            ("GET", r"/v1/refunds/(?P<id>[^/]+)", self._get_refund),
        ]
        self.reset()

    # --- lifecycle -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """What razorpay.Client(base_url=...) takes: no /v1, the SDK adds it."""
        return f"http://{self.host}:{self._port}"

    def reset(self):
        """Forget every order, payment, refund, recorded request and pending knob."""
        with self._lock:
            self.orders: dict[str, dict] = {}
            self.payments: dict[str, dict] = {}
            self.refunds: dict[str, dict] = {}
            self.requests: list[Recorded] = []
            self._failures = deque()
            self._delays = deque()
            self._delay_all = 0.0
            self._late_answers = deque()
            self._refund_keys: dict[str, str] = {}  # X-Refund-Idempotency -> refund id
            self.idempotency_keys: list[str] = []  # every X-Refund-Idempotency received, in order

    # --- knobs for failure tests -----------------------------------------------------------

    def fail_next(self, status=500, times=1, code=None, description=None, html=False):
        """Answer the next `times` API calls with an error (SERVER_ERROR, or an HTML page)."""
        code = code or ("BAD_REQUEST_ERROR" if 400 <= status < 500 else "SERVER_ERROR")
        description = description or "The server encountered an error. The incident has been reported to admins"
        with self._lock:
            for _ in range(times):
                self._failures.append((status, code, description, html))

    def delay_next(self, seconds, times=1):
        """Make the next `times` API calls wait `seconds` before answering (timeout tests)."""
        with self._lock:
            for _ in range(times):
                self._delays.append(seconds)

    def delay_all(self, seconds):
        """Make every API call from now on wait `seconds` before answering (a Razorpay in trouble);
        0 turns it off. A call already waiting finishes its wait."""
        with self._lock:
            self._delay_all = seconds

    def answer_late_next(self, seconds, times=1):
        """Carry out the next `times` API calls, then wait `seconds` before answering: the caller times
        out although the work was done (a refund made whose answer never arrived)."""
        with self._lock:
            for _ in range(times):
                self._late_answers.append(seconds)

    def calls(self, method=None, prefix=""):
        """The recorded API requests, filtered by method and path prefix."""
        with self._lock:
            return [r for r in self.requests
                    if (method is None or r.method == method) and r.path.startswith(prefix)]

    # --- current state, as copies -----------------------------------------------------------

    def order(self, order_id) -> dict:
        """The order entity as the API would show it now."""
        with self._lock:
            return copy.deepcopy(self.orders[order_id])

    def payment(self, payment_id) -> dict:
        """The payment entity as the API would show it now."""
        with self._lock:
            return copy.deepcopy(self.payments[payment_id])

    def refund(self, refund_id) -> dict:
        """The refund entity as the API would show it now."""
        with self._lock:
            return copy.deepcopy(self.refunds[refund_id])

    # --- what the Checkout modal does in the browser ---------------------------------------

    def pay(self, order_id, method="upi", capture=True, email="shopper@example.com",
            contact="+919876543210", force=False) -> dict:
        """Pay the order's full amount; return the three fields Checkout gives the browser.

        capture=False leaves the payment "authorized" (manual capture accounts); force=True
        pays an already paid order again (a late duplicate payment, which does happen).
        """
        with self._lock:
            order = self.orders[order_id]
            if order["status"] == "paid" and not force:
                raise ValueError(f"{order_id} is already paid")
            payment = self._new_payment(order, method, email, contact)
            if capture:
                self._mark_captured(payment)
            else:
                payment["status"] = "authorized"
            order["attempts"] += 1
            if order["status"] == "created":
                order["status"] = "attempted"
        fields = self.checkout_fields(order_id, payment["id"])
        self._auto_webhooks(["payment.captured", "order.paid"] if capture else ["payment.authorized"],
                            payment["id"])
        return fields

    def fail(self, order_id, method="upi", code="BAD_REQUEST_ERROR",
             description="Payment failed because the UPI request was declined",
             reason="payment_failed", email="shopper@example.com", contact="+919876543210") -> dict:
        """Record a failed attempt; return Checkout's `payment.failed` error object."""
        with self._lock:
            order = self.orders[order_id]
            payment = self._new_payment(order, method, email, contact)
            payment.update(status="failed", error_code=code, error_description=description,
                           error_source="customer", error_step="payment_authentication",
                           error_reason=reason)
            order["attempts"] += 1
            if order["status"] == "created":
                order["status"] = "attempted"
        self._auto_webhooks(["payment.failed"], payment["id"])
        return {"error": {"code": code, "description": description, "source": "customer",
                          "step": "payment_authentication", "reason": reason,
                          "metadata": {"order_id": order_id, "payment_id": payment["id"]}}}

    def checkout_fields(self, order_id, payment_id) -> dict:
        """The success fields Checkout posts, signed as Razorpay signs them."""
        return {
            "razorpay_order_id": order_id,
            "razorpay_payment_id": payment_id,
            # HMAC-SHA256 of "order_id|payment_id" with the key secret, hex.
            "razorpay_signature": hmac_hex(self.key_secret, f"{order_id}|{payment_id}"),
        }

    # --- webhooks ---------------------------------------------------------------------------

    def webhook_body(self, event, payment_id=None, order_id=None, refund_id=None,
                     secret=None) -> tuple[bytes, str]:
        """A webhook's raw body and its X-Razorpay-Signature value (HMAC of the raw body)."""
        if event not in _WEBHOOK_CONTAINS:
            raise ValueError(f"unsupported webhook event {event!r}")
        contains = _WEBHOOK_CONTAINS[event]
        with self._lock:
            refund = copy.deepcopy(self.refunds[refund_id]) if refund_id else None
            payment_id = payment_id or (refund and refund["payment_id"])
            if payment_id:
                payment = copy.deepcopy(self.payments[payment_id])
            elif order_id:
                payment = self._latest_payment(order_id, _EVENT_PAYMENT_STATUS.get(event))
            else:
                raise ValueError("name a payment_id, order_id or refund_id")
            if "refund" in contains and refund is None:
                refund = self._latest_refund(payment["id"])
            order_id = order_id or payment["order_id"]
            order = copy.deepcopy(self.orders[order_id]) if order_id else None
        if event == "payment.authorized":
            # The payload is a snapshot from when the event happened: before capture.
            payment.update(status="authorized", captured=False)
        entities = {"payment": payment, "order": order, "refund": refund}
        body = {
            "entity": "event",
            "account_id": self.account_id,
            "event": event,
            "contains": list(contains),
            "payload": {name: {"entity": entities[name]} for name in contains},
            "created_at": _now(),
        }
        raw = json.dumps(body, separators=(",", ":")).encode()
        return raw, hmac_hex(secret or self.webhook_secret, raw)

    def send_webhook(self, url, event, timeout=10, **ids) -> int:
        """POST a signed webhook to url like Razorpay does; return the HTTP status."""
        raw, signature = self.webhook_body(event, **ids)
        request = urllib.request.Request(url, data=raw, method="POST", headers={
            "Content-Type": "application/json",
            "X-Razorpay-Signature": signature,
            "X-Razorpay-Event-Id": _random_id(),
            "User-Agent": "Razorpay-Webhook/v1",
        })
        # No proxies: the shop under test is on loopback.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=timeout) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def _auto_webhooks(self, events, payment_id):
        url = self.auto_webhook_url
        if not url:
            return

        def send():
            for event in events:
                try:
                    status = self.send_webhook(url, event, payment_id=payment_id)
                    print(f"webhook {event} {payment_id} -> {status}", file=sys.stderr)
                except OSError as error:
                    print(f"webhook {event} {payment_id} failed: {error}", file=sys.stderr)

        # In the background, like Razorpay: the browser's answer does not wait for webhooks.
        threading.Thread(target=send, daemon=True).start()

    # --- HTTP entry point ---------------------------------------------------------------------

    def respond(self, method, target, raw, headers):
        status, content_type, payload = self._answer(method, target, raw, headers)
        answer_headers = {"Content-Type": content_type}
        if target.startswith(("/_fake/", "/v1/checkout.js")):
            # The Checkout stand-in runs on the shop's page and calls /_fake/pay from there.
            answer_headers["Access-Control-Allow-Origin"] = "*"
        return status, answer_headers, payload

    def _answer(self, method, target, raw, headers) -> tuple[int, str, bytes]:
        """Answer one HTTP request: (status, content type, body)."""
        url = urlsplit(target)
        if url.path.startswith("/_fake/"):
            return self._dev(method, url, raw, headers)
        if method == "GET" and url.path == "/v1/checkout.js":
            return 200, "application/javascript; charset=utf-8", CHECKOUT_JS.encode()
        try:
            body = self._parse_body(method, url, raw, headers)
        except RazorpayError as error:
            body, parse_error = raw.decode("utf-8", "replace"), error
        else:
            parse_error = None
        with self._lock:
            self.requests.append(Recorded(method, url.path, body))
            if headers.get("X-Refund-Idempotency"):
                self.idempotency_keys.append(headers["X-Refund-Idempotency"])
            delay = self._delays.popleft() if self._delays else self._delay_all
            failure = self._failures.popleft() if self._failures else None
            late = self._late_answers.popleft() if self._late_answers else None
        if delay:
            self._stopping.wait(delay)
        if failure:
            status, code, description, as_html = failure
            if as_html:
                # What a proxy or load balancer in front of an API answers: not JSON at all.
                page = f"<html><body><h1>{status} Service Unavailable</h1></body></html>"
                return status, "text/html", page.encode()
            return status, "application/json", json.dumps(
                RazorpayError(description, status, code, business=False).body).encode()
        try:
            self._check_auth(headers)
            if parse_error:
                raise parse_error
            status, payload = self._route(method, url.path, body, headers.get("X-Refund-Idempotency"))
        except RazorpayError as error:
            status, payload = error.status, error.body
        if late:
            self._stopping.wait(late)
        return status, "application/json", json.dumps(payload).encode()

    @staticmethod
    def _parse_body(method, url, raw, headers):
        """The request's JSON or form body (query parameters for GET), None when empty."""
        if method == "GET":
            query = {key: values[-1] for key, values in parse_qs(url.query).items()}
            return query or None
        if not raw:
            return {}
        if "x-www-form-urlencoded" in (headers.get("Content-Type") or ""):
            form = {key: values[-1] for key, values in parse_qs(raw.decode("utf-8", "replace")).items()}
            # Form bodies carry numbers as text; Razorpay reads them as numbers.
            return {key: int(value) if value.isascii() and value.isdigit() else value
                    for key, value in form.items()}
        try:
            body = json.loads(raw)
        except ValueError:
            raise RazorpayError("The request body is not valid JSON", business=False) from None
        if not isinstance(body, dict):
            raise RazorpayError("The request body must be a JSON object", business=False)
        return body

    def _check_auth(self, headers):
        """HTTP Basic auth with key id and key secret, or 401 as Razorpay answers."""
        scheme, _, encoded = (headers.get("Authorization") or "").partition(" ")
        try:
            key_id, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
        except ValueError:
            key_id = secret = None
        if scheme.lower() != "basic" or key_id is None:
            raise RazorpayError("Authentication failed", status=401, business=False)
        if not hmac.compare_digest(key_id.encode(), self.key_id.encode()):
            raise RazorpayError("The api key provided is invalid", status=401, business=False)
        if not hmac.compare_digest(secret.encode(), self.key_secret.encode()):
            raise RazorpayError("Authentication failed", status=401, business=False)

    def _route(self, method, path, body, refund_key=None) -> tuple[int, dict]:
        for route_method, pattern, handler in self._routes:
            match = re.fullmatch(pattern, path)
            if match and route_method == method:
                with self._lock:
                    refunding = handler in (self._refund_payment, self._create_refund)
                    if refunding and refund_key and refund_key in self._refund_keys:
                        # Razorpay answers a repeated idempotency key with the refund it made the first time.
                        return 200, copy.deepcopy(self.refunds[self._refund_keys[refund_key]])
                    result = handler(body or {}, **match.groupdict())
                    if refunding and refund_key:
                        self._refund_keys[refund_key] = result["id"]
                    return 200, result
        raise RazorpayError("The requested URL was not found on the server.", business=False)

    # --- API handlers (called with the lock held) -------------------------------------------

    def _create_order(self, body):
        unknown = sorted(set(body) - _ORDER_FIELDS)
        if unknown:
            raise RazorpayError(f"{', '.join(unknown)} is/are not required and should not be sent")
        amount = _paise(body, "amount")
        currency = body.get("currency")
        if currency is None:
            raise RazorpayError("The currency field is required.", field="currency")
        if currency != "INR":
            # The shop sells in India only; anything else is a bug worth failing loudly on.
            raise RazorpayError("Currency is not supported", field="currency")
        receipt = body.get("receipt")
        if receipt is not None and (not isinstance(receipt, str) or len(receipt) > 40):
            raise RazorpayError("The receipt may not be greater than 40 characters.", field="receipt")
        order = {
            "id": _random_id("order"),
            "entity": "order",
            "amount": amount,
            "amount_paid": 0,
            "amount_due": amount,
            "currency": currency,
            "receipt": receipt,
            "offer_id": None,
            "status": "created",
            "attempts": 0,
            "notes": _notes(body),
            "created_at": _now(),
        }
        self.orders[order["id"]] = order
        return copy.deepcopy(order)

    def _list_orders(self, body):
        items = [copy.deepcopy(o) for o in reversed(self.orders.values())]
        return _collection(items)

    def _find(self, table, entity_id):
        if entity_id not in table:
            raise _not_found()
        return table[entity_id]

    def _get_order(self, body, id):
        return copy.deepcopy(self._find(self.orders, id))

    def _order_payments(self, body, id):
        self._find(self.orders, id)
        items = [copy.deepcopy(p) for p in reversed(self.payments.values()) if p["order_id"] == id]
        return _collection(items)

    def _get_payment(self, body, id):
        return copy.deepcopy(self._find(self.payments, id))

    def _capture(self, body, id):
        payment = self._find(self.payments, id)
        amount = _paise(body, "amount")
        if payment["status"] in ("captured", "refunded"):
            raise RazorpayError("This payment has already been captured")
        if payment["status"] != "authorized":
            raise RazorpayError("Only payments which have been authorized and not yet captured can be captured")
        if amount != payment["amount"]:
            raise RazorpayError("Capture amount must be equal to the amount authorized", field="amount")
        if body.get("currency", payment["currency"]) != payment["currency"]:
            raise RazorpayError("Currency should be same as payment currency", field="currency")
        self._mark_captured(payment)
        return copy.deepcopy(payment)

    def _refund_payment(self, body, id):
        return self._refund(self._find(self.payments, id), body)

    def _create_refund(self, body):
        # The SDK's client.refund.create posts here with payment_id in the body.
        if not body.get("payment_id"):
            raise RazorpayError("The payment id field is required.", field="payment_id")
        return self._refund(self._find(self.payments, body["payment_id"]), body)

    def _refund(self, payment, body):
        if payment["status"] not in ("captured", "refunded"):
            raise RazorpayError("Refund can be initiated only on captured payments")
        left = payment["amount"] - payment["amount_refunded"]
        if left <= 0:
            raise RazorpayError("The payment has been fully refunded already")
        amount = _paise(body, "amount", required=False)
        amount = left if amount is None else amount
        if amount > left:
            raise RazorpayError("The refund amount provided is greater than amount captured", field="amount")
        refund = {
            "id": _random_id("rfnd"),
            "entity": "refund",
            "amount": amount,
            "currency": payment["currency"],
            "payment_id": payment["id"],
            "notes": _notes(body),
            "receipt": body.get("receipt"),
            "acquirer_data": {"arn": None},
            "created_at": _now(),
            "batch_id": None,
            "status": "processed",
            "speed_processed": "normal",
            "speed_requested": body.get("speed", "normal"),
        }
        self.refunds[refund["id"]] = refund
        payment["amount_refunded"] += amount
        full = payment["amount_refunded"] == payment["amount"]
        payment["refund_status"] = "full" if full else "partial"
        if full:
            payment["status"] = "refunded"
        return copy.deepcopy(refund)

    def _payment_refunds(self, body, id):
        self._find(self.payments, id)
        items = [copy.deepcopy(r) for r in reversed(self.refunds.values()) if r["payment_id"] == id]
        return _collection(items)

    def _payment_refund(self, body, id, refund_id):
        refund = self._find(self.refunds, refund_id)
        if refund["payment_id"] != id:
            raise _not_found()
        return copy.deepcopy(refund)

    def _get_refund(self, body, id):
        return copy.deepcopy(self._find(self.refunds, id))

    # --- entity helpers (lock held) ---------------------------------------------------------

    def _new_payment(self, order, method, email, contact) -> dict:
        payment = {
            "id": _random_id("pay"),
            "entity": "payment",
            "amount": order["amount_due"] or order["amount"],
            "currency": order["currency"],
            "status": "created",
            "order_id": order["id"],
            "invoice_id": None,
            "international": False,
            "method": method,
            "amount_refunded": 0,
            "refund_status": None,
            "captured": False,
            "description": None,
            "card_id": None,
            "bank": "HDFC" if method == "netbanking" else None,
            "wallet": "paytm" if method == "wallet" else None,
            "vpa": "success@razorpay" if method == "upi" else None,
            "email": email,
            "contact": contact,
            "notes": copy.deepcopy(order["notes"]),
            "fee": None,
            "tax": None,
            "error_code": None,
            "error_description": None,
            "error_source": None,
            "error_step": None,
            "error_reason": None,
            "acquirer_data": {},
            "created_at": _now(),
        }
        self.payments[payment["id"]] = payment
        return payment

    def _mark_captured(self, payment):
        """Capture the payment and mark its order paid, as Razorpay does on capture."""
        tax = payment["amount"] * 2 // 100 * 18 // 100
        payment.update(status="captured", captured=True, fee=payment["amount"] * 2 // 100 + tax, tax=tax)
        order = self.orders[payment["order_id"]]
        order.update(status="paid", amount_paid=order["amount_paid"] + payment["amount"])
        order["amount_due"] = max(order["amount"] - order["amount_paid"], 0)

    def _latest_payment(self, order_id, statuses) -> dict:
        for payment in reversed(self.payments.values()):
            if payment["order_id"] == order_id and (statuses is None or payment["status"] in statuses):
                return copy.deepcopy(payment)
        raise ValueError(f"no {'/'.join(sorted(statuses or ['']))} payment for {order_id}")

    def _latest_refund(self, payment_id) -> dict:
        for refund in reversed(self.refunds.values()):
            if refund["payment_id"] == payment_id:
                return copy.deepcopy(refund)
        raise ValueError(f"no refund for {payment_id}")

    # --- development endpoints (no auth, not recorded, no knobs) -----------------------------

    def _dev(self, method, url, raw, headers) -> tuple[int, str, bytes]:
        """/_fake/...: the Checkout stand-in and state for running the shop locally."""
        try:
            body = self._parse_body(method, url, raw, headers) or {}
            if method == "GET" and url.path == "/_fake/checkout":
                return 200, "text/html; charset=utf-8", self._checkout_page(body).encode()
            if method == "GET" and url.path == "/_fake/state":
                with self._lock:
                    state = {"orders": self.orders, "payments": self.payments, "refunds": self.refunds}
                    return 200, "application/json", json.dumps(state, indent=2).encode()
            if method == "POST" and url.path in ("/_fake/pay", "/_fake/fail"):
                order_id = str(body.get("order_id", ""))
                if order_id not in self.orders:
                    raise ValueError(f"unknown order {order_id!r}")
                method_used = body.get("method", "upi")
                if url.path == "/_fake/pay":
                    fields = self.pay(order_id, method=method_used)
                else:
                    failed = self.fail(order_id, method=method_used)["error"]
                    fields = {f"error[{key}]": value for key, value in failed.items() if key != "metadata"}
                    fields["error[metadata]"] = json.dumps(failed["metadata"])
                if body.get("callback_url"):
                    return 200, "text/html; charset=utf-8", _redirect_form(body["callback_url"], fields).encode()
                return 200, "application/json", json.dumps(fields).encode()
            if method == "POST" and url.path == "/_fake/webhook":
                ids = {k: body[k] for k in ("payment_id", "order_id", "refund_id") if body.get(k)}
                status = self.send_webhook(body["url"], body["event"], **ids)
                return 200, "application/json", json.dumps({"status": status}).encode()
            return 404, "application/json", json.dumps({"error": "no such fake endpoint"}).encode()
        except (ValueError, KeyError, OSError, RazorpayError) as error:
            return 400, "application/json", json.dumps({"error": str(error)}).encode()

    def _checkout_page(self, query) -> str:
        """A bare stand-in for the Checkout modal: the order, a Pay and a Fail button."""
        order_id = query.get("order_id", "")
        with self._lock:
            order = copy.deepcopy(self.orders.get(order_id))
        if order is None:
            return f"<!doctype html><p>Unknown order {html.escape(order_id)}</p>"
        hidden = "".join(
            f'<input type="hidden" name="{name}" value="{html.escape(str(query[name]))}">'
            for name in ("order_id", "callback_url") if query.get(name))
        return (
            "<!doctype html><meta charset=utf-8><title>Fake Razorpay Checkout</title>"
            f"<h1>Fake Razorpay Checkout</h1><p>Order {html.escape(order_id)}: "
            f"₹{order['amount'] / 100:.2f} ({html.escape(order['status'])})</p>"
            f'<form method="post" action="/_fake/pay">{hidden}<button>Pay</button></form>'
            f'<form method="post" action="/_fake/fail">{hidden}<button>Fail</button></form>'
        )


# A test double of Razorpay's checkout.js: `new Razorpay(options)`, `.on("payment.failed", cb)`
# and `.open()`, which shows a small dialog with Pay, Fail and Close. Pay and Fail go through
# /_fake/pay and /_fake/fail, so the payment is recorded and signed as the real one would be; the
# options are kept in window.__razorpayOptions for tests to read.
CHECKOUT_JS = r"""(function () {
  "use strict";
  var base = new URL(document.currentScript.src).origin;

  function post(path, fields) {
    return fetch(base + path, { method: "POST", body: new URLSearchParams(fields) })
      .then(function (response) { return response.json(); })
      .then(function (body) { if (body.error && typeof body.error === "string") throw new Error(body.error); return body; });
  }

  function Razorpay(options) {
    if (!options || !options.key || !options.order_id) throw new Error("Razorpay: key and order_id are required");
    this.options = options;
    this.listeners = {};
    window.__razorpayOptions = options;
  }

  Razorpay.prototype.on = function (event, callback) { this.listeners[event] = callback; };

  Razorpay.prototype.open = function () {
    var self = this, options = this.options;
    var dialog = document.createElement("div");
    dialog.className = "fake-razorpay";
    dialog.setAttribute("role", "dialog");
    dialog.setAttribute("aria-modal", "true");
    dialog.setAttribute("aria-label", "Fake Razorpay Checkout");
    dialog.style.cssText = "position:fixed;inset:0;z-index:9999;display:grid;place-items:center;background:rgba(0,0,0,.5)";
    var panel = document.createElement("div");
    panel.style.cssText = "background:#fff;color:#000;padding:1.5rem;border-top:6px solid " + ((options.theme || {}).color || "#333");
    var heading = document.createElement("h2");
    heading.textContent = (options.name || "") + " - " + (options.description || "");
    var amount = document.createElement("p");
    amount.textContent = "Amount: " + (options.amount / 100).toFixed(2) + " " + (options.currency || "INR");
    panel.appendChild(heading);
    panel.appendChild(amount);
    // Like the real modal, a failed attempt keeps it open: the shopper may pay again or close it.
    function button(label, onClick, closes) {
      var element = document.createElement("button");
      element.type = "button";
      element.textContent = label;
      element.addEventListener("click", function () { if (closes) dialog.remove(); onClick(); });
      panel.appendChild(element);
    }
    button("Pay", function () {
      post("/_fake/pay", { order_id: options.order_id, method: "upi" }).then(options.handler);
    }, true);
    button("Fail", function () {
      post("/_fake/fail", { order_id: options.order_id, method: "upi" }).then(function (fields) {
        var error = { metadata: JSON.parse(fields["error[metadata]"] || "{}") };
        Object.keys(fields).forEach(function (key) {
          var match = /^error\[(\w+)\]$/.exec(key);
          if (match && match[1] !== "metadata") error[match[1]] = fields[key];
        });
        if (self.listeners["payment.failed"]) self.listeners["payment.failed"]({ error: error });
      });
    }, false);
    button("Close", function () {
      if (options.modal && options.modal.ondismiss) options.modal.ondismiss();
    }, true);
    dialog.appendChild(panel);
    document.body.appendChild(dialog);
  };

  window.Razorpay = Razorpay;
})();
"""


def _redirect_form(url: str, fields: dict) -> str:
    """Auto-submitting form that posts the fields to the shop, like Checkout's redirect mode."""
    inputs = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(str(v))}">'
                     for k, v in fields.items())
    return (f'<!doctype html><form id="f" method="post" action="{html.escape(url)}">{inputs}'
            '<noscript><button>Continue</button></noscript></form>'
            '<script>document.getElementById("f").submit()</script>')


def main(argv=None):
    """Serve the fake until Ctrl-C and print the settings that point the shop at it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9010)
    parser.add_argument("--key-id", default="rzp_test_local")
    parser.add_argument("--key-secret", default="local_key_secret")
    parser.add_argument("--webhook-secret", default="local_webhook_secret")
    parser.add_argument("--webhook-url", help="send payment webhooks here after each Pay/Fail, "
                                              "e.g. http://127.0.0.1:8000/api/payments/webhook")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    args = parser.parse_args(argv)
    fake = FakeRazorpay(key_id=args.key_id, key_secret=args.key_secret, webhook_secret=args.webhook_secret,
                        host=args.host, port=args.port, verbose=not args.quiet)
    fake.auto_webhook_url = args.webhook_url
    fake.start()
    print(f"Fake Razorpay listening on {fake.base_url}\n"
          "Settings for the shop:\n"
          f"  RAZORPAY_KEY_ID={fake.key_id}\n"
          f"  RAZORPAY_KEY_SECRET={fake.key_secret}\n"
          f"  RAZORPAY_WEBHOOK_SECRET={fake.webhook_secret}\n"
          f"  RAZORPAY_BASE_URL={fake.base_url}\n"
          f"Checkout stand-in: {fake.base_url}/_fake/checkout?order_id=<order id>&callback_url=<url>\n"
          f"Pay from a script: curl -s -X POST {fake.base_url}/_fake/pay "
          "-H 'Content-Type: application/json' -d '{\"order_id\": \"order_...\"}'\n"
          "Ctrl-C stops it.", flush=True)
    done = threading.Event()
    # Both, explicitly: a shell's background job starts with SIGINT ignored, and `kill` sends TERM.
    signal.signal(signal.SIGINT, lambda *_: done.set())
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        while not done.wait(0.5):
            pass
    finally:
        fake.stop()


if __name__ == "__main__":
    main()
