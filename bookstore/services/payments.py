"""Online payment of shop orders: Razorpay orders, Checkout's verify, webhooks and reconciliation.

Every path that can mark an order paid goes through `_record_payment`, a conditional UPDATE, so
one payment pays one order once, whichever of verify, the webhook and the reconciliation job comes
first or twice. Razorpay itself is reached only through `razorpay_gateway`.
"""
import json
import logging
import re
from datetime import timedelta

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from bookstore.errors import ApiError, BadRequest, Conflict
from bookstore.extensions import db
from bookstore.models import Order, PaymentEvent, utcnow
from bookstore.observability import metrics
from bookstore.services import bills, digital, notifications, refunds
from bookstore.services.orders import find as find_order
from bookstore.services import razorpay_gateway as gateway
from bookstore.services.razorpay_gateway import PaymentProviderError, online_available

log = logging.getLogger(__name__)
VERIFY_FAILED = "Payment verification failed"
# The reconciliation job asks about orders whose payment window opened this long ago or more.
RECONCILE_AFTER = timedelta(minutes=5)
# ... and about cancelled orders still unpaid for this long after the cancel: a payment taken late is refunded.
RECONCILE_CANCELLED_FOR = timedelta(days=2)
# Razorpay's ids (order_..., pay_..., evt_...): anything else in a signed body is refused, not looked up.
RAZORPAY_ID = re.compile(r"[A-Za-z0-9_]{1,40}")
MISMATCH = "The payment does not match the order, so it was not accepted. Nothing was charged twice; please contact us."

__all__ = ["PaymentProviderError", "online_available", "create_razorpay_order", "verify", "handle_webhook",
           "reconcile_unverified"]


def _payable(public_id: str) -> Order:
    order = find_order(public_id)
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
        created = gateway.create_order(order.total_paise, order.order_number, order.public_id)
        # Two tabs may ask at once: the first stored Razorpay order wins and both use it.
        db.session.execute(update(Order).where(Order.id == order.id, Order.razorpay_order_id.is_(None))
                           .values(razorpay_order_id=created["id"]).execution_options(synchronize_session=False))
        db.session.commit()
        db.session.refresh(order)
    return current_app.config["RAZORPAY_KEY_ID"], {"id": order.razorpay_order_id, "amount": order.total_paise,
                                                   "currency": "INR"}


def verify(razorpay_order_id: str, razorpay_payment_id: str, signature: str) -> Order:
    """Check the Checkout signature, then Razorpay's own record of the payment, and mark the order paid.

    :raise BadRequest: 'Payment verification failed' (bad signature, unknown order, payment not made).
    :raise Conflict: the payment's order, amount or currency is not the shop order's (recorded, not paid).
    :raise PaymentProviderError: Razorpay could not be asked (the webhook or reconciliation settles it).
    """
    if not online_available():
        raise BadRequest(VERIFY_FAILED)
    if not gateway.verify_checkout_signature(razorpay_order_id, razorpay_payment_id, signature):
        raise BadRequest(VERIFY_FAILED)
    order = db.session.scalar(select(Order).where(Order.razorpay_order_id == razorpay_order_id))
    if order is None:
        raise BadRequest(VERIFY_FAILED)
    _log_event(order, "verify", "payment.verified", razorpay_payment_id, {"razorpay_order_id": razorpay_order_id})
    payment = gateway.fetch_payment(razorpay_payment_id)
    return _settle(order, payment, "verify")


def _mismatch(order: Order, payment: dict) -> str | None:
    """What in Razorpay's payment record disagrees with the shop order, if anything."""
    if payment.get("order_id") != order.razorpay_order_id:
        return "order"
    if payment.get("amount") != order.total_paise or isinstance(payment.get("amount"), bool):
        return "amount"
    if payment.get("currency") != "INR":
        return "currency"
    return None


def _settle(order: Order, payment: dict, source: str) -> Order:
    """Pay the order from Razorpay's record of a payment: captured pays, authorized is captured for the
    order's amount first, a mismatch is recorded and pays nothing.

    :raise Conflict: mismatch. :raise BadRequest: the payment was not made (failed, created).
    """
    payment_id = str(payment.get("id"))
    wrong = _mismatch(order, payment)
    if wrong:
        log.error("Payment %s does not match order %s: %s differs", payment_id, order.order_number, wrong)
        _log_event(order, source, "payment.mismatch", payment_id[:40],
                   {"differs": wrong, "payment": {k: payment.get(k) for k in ("order_id", "amount", "currency",
                                                                              "status")}})
        raise Conflict(MISMATCH)
    if payment.get("status") == "authorized":
        payment = gateway.capture(payment_id, order.total_paise)
    if payment.get("status") not in ("captured", "refunded"):
        raise BadRequest(VERIFY_FAILED)
    return _record_payment(order, payment_id, source)


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


def _record_payment(order: Order, payment_id: str, source: str) -> Order:
    """Mark paid once. Repeats of the same payment change nothing; another payment never re-pays.

    One transaction: the payment, and either the confirmation mail or (for an order cancelled
    meanwhile) the refund request and its notice.
    """
    if order.payment_status in ("paid", "refunded", "refund_pending"):
        if order.razorpay_payment_id != payment_id:
            # Razorpay closes an order once paid, so this needs a person: say so loudly.
            log.error("Second payment %s for order %s, already paid by %s", payment_id, order.order_number,
                      order.razorpay_payment_id)
        else:
            # A late payment whose refund is still pending: this signal asks for the refund job again.
            refunds.retry(order)
            db.session.commit()
        return order
    try:
        paid = db.session.execute(
            update(Order).where(Order.id == order.id, Order.payment_status.in_(("awaiting", "failed")))
            .values(payment_status="paid", razorpay_payment_id=payment_id, paid_at=utcnow())
            .execution_options(synchronize_session=False)
        ).rowcount == 1
        if paid:
            db.session.refresh(order)
            if order.status == "cancelled":
                # Paid after the window closed and the books were released: give the money back.
                refunds.request_refund(order)
                db.session.refresh(order)
                notifications.status_changed(order, "The payment arrived after the order was cancelled, "
                                                    "so it is refunded.")
            else:
                bills.assign_when_due(order)
                digital.deliver(order)
                notifications.order_paid(order)
        db.session.commit()
    except IntegrityError:
        # This payment id already paid another order: it cannot pay a second one.
        db.session.rollback()
        raise Conflict("This payment has already been used for another order.") from None
    if paid:
        metrics.payment_recorded(source)
    db.session.refresh(order)
    return order


def handle_webhook(raw_body: str, signature: str | None, event_id: str | None) -> str:
    """Apply a signed Razorpay webhook; returns what was done. :raise BadRequest: bad signature."""
    secret = current_app.config.get("RAZORPAY_WEBHOOK_SECRET")
    if not secret:
        # Never skip the check: without a secret nothing can be trusted.
        raise ApiError("Webhooks are not configured.", 503)
    if not signature:
        raise BadRequest("Missing webhook signature.")
    if not gateway.verify_webhook_signature(raw_body, signature, secret):
        raise BadRequest("Invalid webhook signature.")
    try:
        body = json.loads(raw_body)
        event = body["event"]
        payload = body.get("payload", {})
        payment = (payload.get("payment") or {}).get("entity") or {}
        razorpay_order_id = payment.get("order_id") or ((payload.get("order") or {}).get("entity") or {}).get("id")
    except (ValueError, KeyError, AttributeError, TypeError):
        raise BadRequest("Malformed webhook body.") from None
    ids = [value for value in (razorpay_order_id, payment.get("id"), event_id) if value is not None]
    if not isinstance(event, str) or not all(isinstance(v, str) and RAZORPAY_ID.fullmatch(v) for v in ids):
        # Refused with 400, not looked up: a list, a NUL or an over-long id is no Razorpay id.
        raise BadRequest("Malformed webhook body.")
    order = (db.session.scalar(select(Order).where(Order.razorpay_order_id == razorpay_order_id))
             if razorpay_order_id else None)
    if not _log_event(order, "webhook", event[:60], payment.get("id"), body, event_id):
        return "duplicate"
    if order is None:
        return "ignored"
    if event in ("payment.captured", "order.paid", "payment.authorized") and payment.get("id"):
        # The signed entity is Razorpay's record: its order, amount and currency must be the order's.
        try:
            _settle(order, payment, "webhook")
        except Conflict:
            return "mismatch"
        except BadRequest:
            return "ignored"
        return "paid"
    if event == "payment.failed":
        db.session.execute(update(Order).where(Order.id == order.id, Order.payment_status == "awaiting")
                           .values(payment_status="failed").execution_options(synchronize_session=False))
        db.session.commit()
        return "failed"
    return "ignored"


def reconcile_unverified(limit: int = 100) -> int:
    """The reconciliation job: for online orders still unpaid a while after Razorpay took their order, fetch
    the Razorpay order's payments and record a captured one; returns how many were paid. Cancelled orders
    still unpaid are asked about too, for RECONCILE_CANCELLED_FOR after the cancel: a payment found there is
    recorded and refunded (`_record_payment`), never left with Razorpay. A timeout or unreachable Razorpay
    ends the run (the next run asks again)."""
    if not online_available():
        return 0
    now = utcnow()
    unpaid = (Order.payment_method == "online", Order.payment_status.in_(("awaiting", "failed")),
              Order.razorpay_order_id.is_not(None), Order.created_at <= now - RECONCILE_AFTER)
    # Two lists, each with its own limit: old cancelled orders never crowd out the live ones.
    live = select(Order).where(*unpaid, Order.status != "cancelled")
    cancelled = select(Order).where(*unpaid, Order.status == "cancelled",
                                    Order.cancelled_at >= now - RECONCILE_CANCELLED_FOR)
    paid = 0
    for query in (live, cancelled):
        for order in db.session.scalars(query.order_by(Order.id).limit(limit)).all():
            answer = _settle_from_razorpay(order, "reconcile")
            if answer == "unreachable":
                return paid
            paid += answer == "paid"
    return paid


def settle_before_expiry(order: Order) -> str:
    """Before an unpaid order's hold is released: ask Razorpay for its order's payments and record a captured
    (or authorized, then captured) one as verify would. 'paid', 'unpaid', or what Razorpay could not say:
    'unreachable' (timed out, not reached) or 'unknown' (an error, or online payment switched off)."""
    if not online_available():
        return "unknown"
    return _settle_from_razorpay(order, "expiry")


def _settle_from_razorpay(order: Order, source: str) -> str:
    """Record the order's captured or authorized payment that Razorpay holds: 'paid', 'unpaid', 'unknown' or
    'unreachable' (see settle_before_expiry). A payment that does not match the order pays nothing."""
    try:
        attempts = gateway.order_payments(order.razorpay_order_id)
        taken = [p for p in attempts if p.get("status") in ("captured", "authorized")]
        if not taken:
            return "unpaid"
        _log_event(order, source, "payment.found", str(taken[0].get("id"))[:40], {"payment": taken[0]})
        _settle(order, taken[0], source)
    except PaymentProviderError as error:
        return "unreachable" if error.status == 503 else "unknown"
    except (Conflict, BadRequest):
        return "unpaid"
    return "paid"
