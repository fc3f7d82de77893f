"""Razorpay through its official SDK: the client, timeouts and every call the shop makes.

The bottom of the payment stack: it knows Razorpay's API and nothing of orders, so the services
above it (payments, refunds) can share it without importing each other.
"""
import logging
import math
import threading
import time

import razorpay
import requests
from flask import current_app
from razorpay.errors import BadRequestError, GatewayError, ServerError, SignatureVerificationError

from bookstore.errors import ApiError

log = logging.getLogger(__name__)
_SDK_ERRORS = (BadRequestError, GatewayError, ServerError, requests.RequestException, ValueError)
SIGNATURE_ERRORS = (SignatureVerificationError, KeyError, TypeError, ValueError)


class PaymentProviderError(ApiError):
    """Razorpay failed or could not be reached: 502/503, and nothing changed on our side."""

    status = 502
    # Razorpay refused the request itself (400 BAD_REQUEST_ERROR, e.g. "The refund amount provided is greater
    # than amount captured"): sending it again gets the same answer. `reason` is Razorpay's own description.
    permanent = False
    reason = ""


def online_available() -> bool:
    """Online payment needs the key id and secret; without them checkout offers cash on delivery."""
    config = current_app.config
    return bool(config.get("RAZORPAY_KEY_ID") and config.get("RAZORPAY_KEY_SECRET"))


def client() -> razorpay.Client:
    """One SDK client per app and key set (it keeps a connection pool)."""
    clients = current_app.extensions.setdefault("razorpay_clients", {})
    config = current_app.config
    key = (config["RAZORPAY_KEY_ID"], config["RAZORPAY_KEY_SECRET"], config["RAZORPAY_BASE_URL"])
    if key not in clients:
        clients[key] = razorpay.Client(auth=key[:2], base_url=key[2].rstrip("/"))
    return clients[key]


class Breaker:
    """The circuit in front of Razorpay, one per app in each process (every gunicorn worker and job
    consumer counts on its own): after RAZORPAY_BREAKER_TIMEOUTS timeouts in a row, calls fail at once
    for RAZORPAY_BREAKER_SECONDS instead of each holding a thread for the whole timeout; then one call
    is let through, and its answer closes the circuit or its timeout opens it again."""

    def __init__(self, threshold: int, cooldown: float):
        self.threshold = threshold
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._timeouts = 0
        self._open_until = 0.0  # time.monotonic()
        self._probe_until = 0.0  # while the one trial call is out

    def admit(self, timeout: float) -> None:
        """Let a call through, or refuse it while the circuit is open.

        :raise PaymentProviderError: 503 with Retry-After (seconds until a call may go through again).
        """
        with self._lock:
            if self._timeouts < self.threshold:
                return
            now = time.monotonic()
            wait = max(self._open_until, self._probe_until) - now
            if wait <= 0:
                self._probe_until = now + timeout  # the cool-down is over: this call is the trial
                return
        log.warning("Razorpay circuit open: a call refused for %.0f s more", wait)
        raise PaymentProviderError("The payment service is not answering at the moment, so online payment is "
                                   "paused for a short while. Nothing was charged; please try again in a "
                                   "minute or choose cash on delivery.", status=503,
                                   headers={"Retry-After": str(max(1, math.ceil(wait)))})

    def answered(self) -> None:
        """Razorpay answered (whatever it said): it is reachable, the circuit closes."""
        with self._lock:
            self._timeouts, self._probe_until = 0, 0.0

    def timed_out(self) -> None:
        """One more timeout in a row; at the threshold (or a trial's timeout) the circuit opens."""
        with self._lock:
            self._timeouts += 1
            self._probe_until = 0.0
            if self._timeouts >= self.threshold:
                self._open_until = time.monotonic() + self.cooldown

    def unreachable(self) -> None:
        """Connection refused: fast, so it neither counts nor closes; a trial call is over."""
        with self._lock:
            self._probe_until = 0.0


def breaker() -> Breaker:
    """This app's circuit in this process."""
    config = current_app.config
    return current_app.extensions.setdefault("razorpay_breaker", Breaker(
        config["RAZORPAY_BREAKER_TIMEOUTS"], config["RAZORPAY_BREAKER_SECONDS"]))


def call(what: str, function, *args, timeout: float | None = None, **options):
    """Call the SDK with the shop's timeout (or a shorter one) through the circuit.

    :raise PaymentProviderError: on any failure, and at once while the circuit is open.
    """
    timeout = min(timeout or math.inf, current_app.config["RAZORPAY_TIMEOUT_SECONDS"])
    circuit = breaker()
    circuit.admit(timeout)
    try:
        answer = function(*args, timeout=timeout, **options)
    except requests.Timeout:
        circuit.timed_out()
        log.warning("Razorpay timed out: %s", what)
        raise PaymentProviderError("The payment service did not answer in time. Nothing was charged; "
                                   "please try again.", status=503) from None
    except requests.ConnectionError:
        circuit.unreachable()
        log.warning("Razorpay unreachable: %s", what)
        raise PaymentProviderError("The payment service cannot be reached right now. Please try again "
                                   "in a moment or choose cash on delivery.", status=503) from None
    except _SDK_ERRORS as error:
        circuit.answered()
        log.warning("Razorpay refused %s: %s", what, error)
        failure = PaymentProviderError("The payment service could not process this request. Please try again.")
        # A refused key is the shop's set-up, put right by a person: the request itself may be fine.
        failure.permanent = isinstance(error, BadRequestError) and "authentication" not in str(error).lower()
        failure.reason = str(error)[:250]
        raise failure from None
    circuit.answered()
    return answer


def create_order(amount_paise: int, receipt: str, public_id: str) -> dict:
    """A Razorpay order for the shop's amount, within RAZORPAY_ORDER_TIMEOUT_SECONDS: the shopper waits."""
    return call("order.create", client().order.create, {
        "amount": amount_paise, "currency": "INR", "receipt": receipt, "notes": {"order_id": public_id}},
        timeout=current_app.config["RAZORPAY_ORDER_TIMEOUT_SECONDS"])


def order_payments(razorpay_order_id: str) -> list[dict]:
    """Every payment attempt Razorpay holds for one of its orders."""
    return call("order.payments", client().order.payments, razorpay_order_id).get("items", [])


def verify_checkout_signature(razorpay_order_id: str, razorpay_payment_id: str, signature: str) -> bool:
    """Whether Checkout's signature is Razorpay's for this order and payment."""
    try:
        client().utility.verify_payment_signature({
            "razorpay_order_id": razorpay_order_id, "razorpay_payment_id": razorpay_payment_id,
            "razorpay_signature": signature})
    except SIGNATURE_ERRORS:
        return False
    return True


def verify_webhook_signature(raw_body: str, signature: str, secret: str) -> bool:
    """Whether a webhook body was signed with the webhook secret."""
    try:
        client().utility.verify_webhook_signature(raw_body, signature, secret)
    except SIGNATURE_ERRORS:
        return False
    return True


def refund(payment_id: str, amount_paise: int, public_id: str, idempotency_key: str,
           notes: dict | None = None) -> dict:
    """Refund a payment, whole or part; Razorpay answers a repeated idempotency key with the first refund.
    `notes` are kept with the refund beside the order's id (a return's id, to find it again)."""
    return call("payment.refund", client().payment.refund, payment_id,
                {"amount": amount_paise, "notes": {"order_id": public_id, **(notes or {})}},
                headers={"X-Refund-Idempotency": idempotency_key})


def refunds_of(payment_id: str) -> list[dict]:
    """The refunds Razorpay made of a payment (to learn whether a refund whose answer was lost happened)."""
    return call("payment.refunds", client().payment.fetch_multiple_refund, payment_id).get("items", [])


def fetch_payment(payment_id: str) -> dict:
    """Razorpay's own record of a payment: its order, amount, currency and status."""
    return call("payment.fetch", client().payment.fetch, payment_id)


def capture(payment_id: str, amount_paise: int) -> dict:
    """Capture an authorized payment for the given amount (accounts without automatic capture)."""
    return call("payment.capture", client().payment.capture, payment_id, amount_paise, {"currency": "INR"})
