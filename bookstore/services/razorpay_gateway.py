"""Razorpay through its official SDK: the client, timeouts and every call the shop makes.

The bottom of the payment stack: it knows Razorpay's API and nothing of orders, so the services
above it (payments, refunds) can share it without importing each other.
"""
import logging

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


def call(what: str, function, *args, **options):
    """Call the SDK with the shop's timeout. :raise PaymentProviderError: on any failure."""
    try:
        return function(*args, timeout=current_app.config["RAZORPAY_TIMEOUT_SECONDS"], **options)
    except requests.Timeout:
        log.warning("Razorpay timed out: %s", what)
        raise PaymentProviderError("The payment service did not answer in time. Nothing was charged; "
                                   "please try again.", status=503) from None
    except requests.ConnectionError:
        log.warning("Razorpay unreachable: %s", what)
        raise PaymentProviderError("The payment service cannot be reached right now. Please try again "
                                   "in a moment or choose cash on delivery.", status=503) from None
    except _SDK_ERRORS as error:
        log.warning("Razorpay refused %s: %s", what, error)
        failure = PaymentProviderError("The payment service could not process this request. Please try again.")
        # A refused key is the shop's set-up, put right by a person: the request itself may be fine.
        failure.permanent = isinstance(error, BadRequestError) and "authentication" not in str(error).lower()
        failure.reason = str(error)[:250]
        raise failure from None


def create_order(amount_paise: int, receipt: str, public_id: str) -> dict:
    """A Razorpay order for the shop's amount."""
    return call("order.create", client().order.create, {
        "amount": amount_paise, "currency": "INR", "receipt": receipt, "notes": {"order_id": public_id}})


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
