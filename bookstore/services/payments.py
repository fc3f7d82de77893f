"""Online payment through Razorpay's official SDK: orders, signature checks, webhooks, refunds.

Every path that can mark an order paid goes through `_record_payment`, a conditional UPDATE, so
one payment pays one order once, whichever of verify and the webhook comes first or twice.
"""
import json
import logging

import razorpay
import requests
from flask import current_app
from razorpay.errors import BadRequestError, GatewayError, ServerError, SignatureVerificationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from bookstore.errors import ApiError, BadRequest, Conflict
from bookstore.extensions import db
from bookstore.models import Order, PaymentEvent, utcnow
from bookstore.services import mail, notifications

log = logging.getLogger(__name__)
VERIFY_FAILED = "Payment verification failed"
_SDK_ERRORS = (BadRequestError, GatewayError, ServerError, requests.RequestException, ValueError)


class PaymentProviderError(ApiError):
    """Razorpay failed or could not be reached: 502/503, and nothing changed on our side."""

    status = 502


def online_available() -> bool:
    """Online payment needs the key id and secret; without them checkout offers cash on delivery."""
    config = current_app.config
    return bool(config.get("RAZORPAY_KEY_ID") and config.get("RAZORPAY_KEY_SECRET"))


def _client() -> razorpay.Client:
    clients = current_app.extensions.setdefault("razorpay_clients", {})
    config = current_app.config
    key = (config["RAZORPAY_KEY_ID"], config["RAZORPAY_KEY_SECRET"], config["RAZORPAY_BASE_URL"])
    if key not in clients:
        clients[key] = razorpay.Client(auth=key[:2], base_url=key[2].rstrip("/"))
    return clients[key]


def _call(what: str, function, *args):
    """Call the SDK with the shop's timeout. :raise PaymentProviderError: on any failure."""
    try:
        return function(*args, timeout=current_app.config["RAZORPAY_TIMEOUT_SECONDS"])
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
        raise PaymentProviderError("The payment service could not process this request. Please try again.") from None


def _payable(public_id: str) -> Order:
    from bookstore.services.orders import find

    order = find(public_id)
    if order.payment_method != "online":
        raise Conflict("This order is paid on delivery.")
    if order.status == "cancelled":
        raise Conflict("This order was cancelled, so it cannot be paid.")
    if order.payment_status == "paid":
        raise Conflict("This order is paid already.")
    if order.payment_expires_at and _aware(order.payment_expires_at) < utcnow():
        raise Conflict("The time to pay for this order has run out. Please place the order again.")
    return order


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=utcnow().tzinfo)


def create_razorpay_order(public_id: str, claimed: dict) -> tuple[str, dict]:
    """The Razorpay order for a shop order (made once, then reused): (key_id, {id, amount, currency}).

    Amount, currency or receipt sent by the client are checked against the server's, never used.
    """
    if not online_available():
        raise ApiError("Online payment is not available right now. Please choose cash on delivery.", 503)
    order = _payable(public_id)
    expected = {"amount": order.total_paise, "currency": "INR", "receipt": order.order_number}
    for name, value in claimed.items():
        if value is not None and value != expected[name]:
            raise Conflict(f"The {name} does not match the order. Please reload your cart.",
                           data={"expected": expected})
    if order.razorpay_order_id is None:
        created = _call("order.create", _client().order.create, {
            "amount": order.total_paise, "currency": "INR", "receipt": order.order_number,
            "notes": {"order_id": order.public_id},
        })
        # Two tabs may ask at once: the first stored Razorpay order wins and both use it.
        db.session.execute(update(Order).where(Order.id == order.id, Order.razorpay_order_id.is_(None))
                           .values(razorpay_order_id=created["id"]).execution_options(synchronize_session=False))
        db.session.commit()
        db.session.refresh(order)
    return current_app.config["RAZORPAY_KEY_ID"], {"id": order.razorpay_order_id, "amount": order.total_paise,
                                                   "currency": "INR"}


def verify(razorpay_order_id: str, razorpay_payment_id: str, signature: str) -> Order:
    """Check the Checkout signature and mark the order paid. :raise BadRequest: 'Payment verification failed'."""
    if not online_available():
        raise BadRequest(VERIFY_FAILED)
    try:
        _client().utility.verify_payment_signature({
            "razorpay_order_id": razorpay_order_id, "razorpay_payment_id": razorpay_payment_id,
            "razorpay_signature": signature})
    except (SignatureVerificationError, KeyError, TypeError, ValueError):
        raise BadRequest(VERIFY_FAILED) from None
    order = db.session.scalar(select(Order).where(Order.razorpay_order_id == razorpay_order_id))
    if order is None:
        raise BadRequest(VERIFY_FAILED)
    _log_event(order, "verify", "payment.verified", razorpay_payment_id, {"razorpay_order_id": razorpay_order_id})
    return _record_payment(order, razorpay_payment_id)


def _log_event(order: Order | None, source: str, event: str, payment_id: str | None, payload: dict,
               event_id: str | None = None) -> bool:
    """Record a payment signal; False when this webhook delivery was seen before."""
    db.session.add(PaymentEvent(order_id=order.id if order else None, source=source, event=event,
                                event_id=event_id, razorpay_payment_id=payment_id, payload=payload))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def _record_payment(order: Order, payment_id: str) -> Order:
    """Mark paid once. Repeats of the same payment change nothing; another payment never re-pays."""
    if order.payment_status in ("paid", "refunded"):
        if order.razorpay_payment_id != payment_id:
            # Razorpay closes an order once paid, so this needs a person: say so loudly.
            log.error("Second payment %s for order %s, already paid by %s", payment_id, order.order_number,
                      order.razorpay_payment_id)
        elif order.status == "cancelled" and order.payment_status == "paid" and not order.razorpay_refund_id:
            # A late payment whose refund failed before: Razorpay's next signal tries again.
            _refund_late_payment(order)
        return order
    try:
        paid = db.session.execute(
            update(Order).where(Order.id == order.id, Order.payment_status.in_(("awaiting", "failed")))
            .values(payment_status="paid", razorpay_payment_id=payment_id, paid_at=utcnow())
            .execution_options(synchronize_session=False)
        ).rowcount == 1
        db.session.commit()
    except IntegrityError:
        # This payment id already paid another order: it cannot pay a second one.
        db.session.rollback()
        raise Conflict("This payment has already been used for another order.") from None
    db.session.refresh(order)
    if paid:
        if order.status == "cancelled":
            # Paid after the window closed and the books were released: give the money back.
            _refund_late_payment(order)
        else:
            notifications.order_paid(order)
            db.session.commit()
            mail.deliver_queued()
    return order


def _refund_late_payment(order: Order) -> None:
    try:
        refund_id = refund(order)
    except PaymentProviderError:
        log.error("Late payment %s for cancelled order %s could not be refunded yet",
                  order.razorpay_payment_id, order.order_number)
        return
    order.payment_status = "refunded"
    order.razorpay_refund_id = refund_id
    notifications.status_changed(order, "The payment arrived after the order was cancelled, so it is refunded.")
    db.session.commit()
    mail.deliver_queued()


def refund(order: Order) -> str:
    """Refund an order's payment in full through Razorpay; returns the refund id."""
    result = _call("payment.refund", _client().payment.refund, order.razorpay_payment_id,
                   {"amount": order.total_paise, "notes": {"order_id": order.public_id}})
    return result["id"]


def handle_webhook(raw_body: str, signature: str | None, event_id: str | None) -> str:
    """Apply a signed Razorpay webhook; returns what was done. :raise BadRequest: bad signature."""
    secret = current_app.config.get("RAZORPAY_WEBHOOK_SECRET")
    if not secret:
        # Never skip the check: without a secret nothing can be trusted.
        raise ApiError("Webhooks are not configured.", 503)
    if not signature:
        raise BadRequest("Missing webhook signature.")
    try:
        _client().utility.verify_webhook_signature(raw_body, signature, secret)
    except (SignatureVerificationError, KeyError, TypeError, ValueError):
        raise BadRequest("Invalid webhook signature.") from None
    try:
        body = json.loads(raw_body)
        event = body["event"]
        payload = body.get("payload", {})
        payment = (payload.get("payment") or {}).get("entity") or {}
        razorpay_order_id = payment.get("order_id") or ((payload.get("order") or {}).get("entity") or {}).get("id")
    except (ValueError, KeyError, AttributeError, TypeError):
        raise BadRequest("Malformed webhook body.") from None
    order = (db.session.scalar(select(Order).where(Order.razorpay_order_id == razorpay_order_id))
             if razorpay_order_id else None)
    if not _log_event(order, "webhook", str(event)[:60], payment.get("id"), body, event_id and event_id[:60]):
        return "duplicate"
    if order is None:
        return "ignored"
    if event in ("payment.captured", "order.paid") and payment.get("id"):
        _record_payment(order, payment["id"])
        return "paid"
    if event == "payment.failed":
        db.session.execute(update(Order).where(Order.id == order.id, Order.payment_status == "awaiting")
                           .values(payment_status="failed").execution_options(synchronize_session=False))
        db.session.commit()
        return "failed"
    return "ignored"
