"""Refunds as jobs, and how much of an order may still be refunded.

An order's refundable amount (product §6.6) is what the shopper paid less every refund made or pending: the
order's own refund (a cancel, or every parcel back), its returns' refunds, its RTO parcels' shares and its
part refunds. Every refund path asks for no more than that, so Razorpay is never asked for money it no longer
holds. A cash-on-delivery parcel that came back was never paid: its share counts as not collected.

A cancel marks the payment `refund_pending` at once, a job gives the money back. The job sends the refund with
an idempotency key, counts the attempt before it calls (so a consumer killed mid-call is known to have tried),
and on any later attempt first asks Razorpay for the payment's refunds: a refund whose answer was lost is
recorded, not made twice. That routine, `pay_back`, serves a return's refund (services/returns.py), an RTO
parcel's and a part refund as well. A refusal Razorpay will repeat (400 BAD_REQUEST_ERROR) stops the job and
puts the refund on the administrator's "needs attention" list.
"""
import logging
import secrets
from collections.abc import Callable

from sqlalchemy import select, update

from bookstore import jobs, money
from bookstore.errors import Conflict, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Order, OrderRefund, ReturnRequest, Shipment, User, utcnow
from bookstore.services import audit, bills, mail
from bookstore.services import razorpay_gateway as gateway

log = logging.getLogger(__name__)
# After this many failed tries the admin dashboard flags the refund for a person to look at.
ATTENTION_AFTER_ATTEMPTS = 3
# Refunds of an order's own rows that count against what it may still refund (a failed one gave nothing).
COUNTED = ("refund_pending", "refunded", "not_collected")
RETURN_COUNTED = ("refund_pending", "refunded")
Subject = Order | ReturnRequest | OrderRefund


# ---- how much may still be refunded ----------------------------------------------------------------------

def paid_paise(order: Order) -> int:
    """What the shopper paid for the order: online once the payment is captured; cash on delivery once the
    courier collected it (less parcels that came back, counted as refunds not collected)."""
    return order.total_paise if order.payment_status in ("paid", "refund_pending", "refunded") else 0


def refunded_paise(order: Order, excluding: Subject | None = None) -> int:
    """Refunds made or pending of the order's returns, RTO parcels and part refunds (not `excluding`), from the
    order's collections as loaded with it (the order read and the refund jobs read them fresh)."""
    from_returns = sum(request.refund_paise for request in order.returns
                       if request.status in RETURN_COUNTED and request is not excluding)
    from_rows = sum(row.amount_paise for row in order.refunds if row.status in COUNTED and row is not excluding)
    return from_returns + from_rows


def refundable(order: Order, excluding: Subject | None = None) -> int:
    """What may still be refunded of the order, leaving out the refund `excluding` itself. Nothing once the
    order's own refund (cancel, every parcel back) is asked for: that one takes all that is left."""
    if order.payment_status in ("refund_pending", "refunded") and excluding is not order:
        return 0
    return max(0, paid_paise(order) - refunded_paise(order, excluding))


def not_charged_paise(order: Order) -> int:
    """What the order's RTO parcels and part refunds gave back or never collected (the bill, revenue and
    e-mails leave it out of what the shopper paid)."""
    return sum(row.amount_paise for row in order.refunds if row.status in COUNTED)


# ---- the order's own refund (a cancel, or every parcel back) --------------------------------------------

def request_refund(order: Order) -> bool:
    """In the caller's transaction: a paid order's payment is to be refunded; the job runs after the
    commit. False when the payment is not (or no longer) `paid`."""
    marked = db.session.execute(
        update(Order).where(Order.id == order.id, Order.payment_status == "paid")
        .values(payment_status="refund_pending", refund_error="")
        .execution_options(synchronize_session=False)
    ).rowcount == 1
    if marked:
        jobs.after_commit(tasks.refund_order, order.id)
    return marked


def retry(order: Order) -> None:
    """Ask for the refund job again (a new signal about a payment whose refund is still pending)."""
    if order.payment_status == "refund_pending":
        jobs.after_commit(tasks.refund_order, order.id)


def idempotency_key(order: Order) -> str:
    return f"refund-{order.public_id}"


def refund(order_id: int) -> str:
    """The refund job: 'refunded', 'stopped' (Razorpay refused for good), or 'nothing to do' when the order is
    not waiting for one. It refunds what is left after the order's other refunds, never the total twice.

    :raise PaymentProviderError: Razorpay failed; the job is retried and the attempt recorded.
    """
    order = db.session.get(Order, order_id)
    if order is None or order.payment_status != "refund_pending" or order.refund_stopped:
        return "nothing to do"
    amount = refundable(order, excluding=order)
    if amount == 0:
        _settle_nothing_left(order, "payment_status")
        db.session.commit()
        return "refunded"
    made = pay_back(order, f"order {order.order_number}", order, amount, idempotency_key(order),
                    earlier=lambda made: _is_order_refund(made, order, amount))
    if made is None:
        return "stopped"
    settle(order, "payment_status", made)
    db.session.commit()
    return "refunded"


def _is_order_refund(made: dict, order: Order, amount: int) -> bool:
    """Whether a refund Razorpay made of the payment is the order's own (an earlier attempt whose answer was lost)."""
    notes = made.get("notes") or {}
    if notes.get("return_id") or notes.get("refund_id"):
        return False  # a returned book's, an RTO parcel's or a part refund, not the order's
    return notes.get("order_id") == order.public_id or made.get("amount") == amount


def _settle_nothing_left(subject: Subject, status: str) -> None:
    """Every paisa of the payment is refunded already: the refund is done without asking Razorpay."""
    model = type(subject)
    db.session.execute(update(model).where(model.id == subject.id, getattr(model, status) == "refund_pending")
                       .values({status: "refunded", "refund_error": ""}).execution_options(synchronize_session=False))


# ---- the routine every refund goes through ---------------------------------------------------------------

def pay_back(subject: Subject, label: str, order: Order, amount_paise: int, key: str,
             earlier: Callable[[dict], bool], notes: dict | None = None) -> dict | None:
    """Refund `amount_paise` of the order's payment for `subject` (the cancelled order, a return of it, an RTO
    parcel or a part refund) under the idempotency `key`: the subject's attempt is counted and committed before
    the call; on a later attempt Razorpay's refunds of the payment are read first and the one `earlier`
    recognises is taken instead of a new try. None when Razorpay refused for good: the subject is stopped
    (committed) and waits for an administrator.

    :raise PaymentProviderError: Razorpay failed; the error is recorded on the subject (committed).
    """
    model = type(subject)
    tried_before = subject.refund_attempts > 0
    db.session.execute(update(model).where(model.id == subject.id)
                       .values(refund_attempts=model.refund_attempts + 1)
                       .execution_options(synchronize_session=False))
    db.session.commit()
    try:
        made = _earlier_refund(order, earlier) if tried_before else None
        return made or gateway.refund(order.razorpay_payment_id, amount_paise, order.public_id, key, notes=notes)
    except gateway.PaymentProviderError as error:
        message = (f"Razorpay refused the refund: {error.reason}" if error.permanent else error.message)[:300]
        stop = {"status": "failed"} if model is OrderRefund else {"refund_stopped": True}
        db.session.execute(update(model).where(model.id == subject.id)
                           .values(refund_error=message, **(stop if error.permanent else {}))
                           .execution_options(synchronize_session=False))
        db.session.commit()
        log.warning("Refund of %s failed (attempt %s): %s", label, subject.refund_attempts, message)
        if error.permanent:
            return None
        raise


def settle(subject: Subject, status: str, made: dict, **values) -> bool:
    """Record Razorpay's refund `made` on the subject and move its `status` column from refund_pending to
    refunded, only if it still waits (a conditional UPDATE: a second job that finds it refunded changes
    nothing). True when this call moved it."""
    model = type(subject)
    return db.session.execute(
        update(model).where(model.id == subject.id, getattr(model, status) == "refund_pending")
        .values({status: "refunded", "razorpay_refund_id": made["id"], "refund_error": "", **values})
        .execution_options(synchronize_session=False)).rowcount == 1


def _earlier_refund(order: Order, earlier: Callable[[dict], bool]) -> dict | None:
    """A refund Razorpay already made of the order's payment that `earlier` recognises, if any."""
    for made in gateway.refunds_of(order.razorpay_payment_id):
        if earlier(made):
            return made
    return None


# ---- RTO parcels and part refunds ------------------------------------------------------------------------

def parcel_came_back(order: Order, shipment: Shipment, by: str) -> OrderRefund | None:
    """In the receiving transaction: a parcel returned to origin of an order whose other parcels reach the
    shopper. Its share (its copies' value after the coupon, as the bill counts it) is refunded by the job for
    an online payment, or taken off what the courier collects for cash on delivery."""
    amount = sum(bills.copies_value(order, part.order_line, part.quantity) for part in shipment.lines)
    if order.payment_method == "online":
        amount = min(amount, refundable(order))
    if amount <= 0:
        return None
    online = order.payment_method == "online"
    row = OrderRefund(public_id=secrets.token_hex(12), order_id=order.id, kind="rto", shipment_id=shipment.id,
                      amount_paise=amount, created_by=by,
                      reason=f"Parcel {shipment.courier} AWB {shipment.awb} came back to the shop undelivered"[:300],
                      status="refund_pending" if online else "not_collected")
    order.refunds.append(row)
    db.session.flush()
    if online:
        jobs.after_commit(tasks.refund_part, row.id)
    return row


def make_part_refund(public_id: str, data: dict, admin: User) -> OrderRefund:
    """The part refund use case: the order's row locked (two administrators cannot both refund its last rupees),
    the refund recorded, one commit. :raise NotFound: :raise Conflict: :raise ValidationFailed:"""
    order = db.session.scalar(select(Order).where(Order.public_id == public_id)) if len(public_id) <= 24 else None
    if order is None:
        raise NotFound("Order not found.")
    db.session.execute(update(Order).where(Order.id == order.id).values(updated_at=Order.updated_at)
                       .execution_options(synchronize_session=False))
    db.session.refresh(order)
    row = part_refund(order, data, admin)
    db.session.commit()
    return row


def part_refund(order: Order, data: dict, admin: User) -> OrderRefund:
    """An administrator gives back part of a paid order, with a reason: online through the refund job, cash on
    delivery as a payout whose reference is recorded. Audited; the shopper is mailed.
    :raise Conflict: nothing paid, or the amount is more than may still be refunded. :raise ValidationFailed:"""
    if paid_paise(order) == 0:
        raise Conflict("Only a paid order can be refunded in part.")
    left = refundable(order)
    if data["amount"] > left:
        raise Conflict(f"At most {_rupees(left)} of this order can still be refunded." if left else
                       "Nothing of this order is left to refund.")
    online = order.payment_method == "online"
    reference = (data.get("payout_reference") or "").strip()
    if not online and not reference:
        raise ValidationFailed({"payoutReference": ["Cash on delivery is refunded by a UPI or bank transfer: give "
                                                    "the reference of the payout you made."]})
    row = OrderRefund(public_id=secrets.token_hex(12), order_id=order.id, kind="part", amount_paise=data["amount"],
                      reason=data["reason"], created_by=f"admin:{admin.id}",
                      status="refund_pending" if online else "refunded",
                      payout_reference=None if online else reference, refunded_at=None if online else utcnow())
    order.refunds.append(row)
    db.session.flush()
    audit.record(admin, "order.part_refund", "order", order.public_id, {"refundable": money.to_rupees(left)},
                 {"refund": money.to_rupees(row.amount_paise), "reason": row.reason,
                  "refundable": money.to_rupees(left - row.amount_paise)})
    if online:
        jobs.after_commit(tasks.refund_part, row.id)
    where = ("to your original payment; it reaches you in 3-5 business days" if online
             else f"by bank or UPI transfer (reference {reference})")
    mail.queue(order.email, f"Order {order.order_number}: a refund of {_rupees(row.amount_paise)}",
               f"Hello {order.first_name},\n\nWe are refunding {_rupees(row.amount_paise)} of your order "
               f"{order.order_number} {where}.\n\nReason: {row.reason}\n\nSee your order (no sign-in needed): "
               f"{mail.order_page_link(order)}")
    return row


def part_idempotency_key(row: OrderRefund) -> str:
    return f"{row.kind}-{row.public_id}"


def refund_part(refund_id: int) -> str:
    """The refund job of an RTO parcel or a part refund: 'refunded', 'stopped', or 'nothing to do'. It never
    asks for more than the order may still refund.

    :raise PaymentProviderError: Razorpay failed; the job is retried and the attempt recorded.
    """
    row = db.session.get(OrderRefund, refund_id)
    if row is None or row.status != "refund_pending":
        return "nothing to do"
    order = row.order
    amount = min(row.amount_paise, refundable(order, excluding=row))
    if amount == 0:
        db.session.execute(update(OrderRefund).where(OrderRefund.id == row.id, OrderRefund.status == "refund_pending")
                           .values(status="failed", refund_error="Nothing of the payment is left to refund.")
                           .execution_options(synchronize_session=False))
        db.session.commit()
        return "stopped"
    made = pay_back(row, f"{row.kind} refund {row.public_id}", order, amount, part_idempotency_key(row),
                    notes={"refund_id": row.public_id},
                    earlier=lambda made: (made.get("notes") or {}).get("refund_id") == row.public_id)
    if made is None:
        return "stopped"
    settle(row, "status", made, refunded_at=utcnow(), amount_paise=made["amount"])
    db.session.commit()
    return "refunded"


# ---- the sweep -------------------------------------------------------------------------------------

def pending_ids(limit: int = 200) -> list[int]:
    """Orders whose refund is still to be made (for the sweep); not those Razorpay refused for good."""
    return list(db.session.scalars(select(Order.id).where(Order.payment_status == "refund_pending",
                                                          Order.refund_stopped.is_(False))
                                   .order_by(Order.id).limit(limit)))


def pending_part_ids(limit: int = 200) -> list[int]:
    """RTO parcels' and part refunds still to be made (for the sweep)."""
    return list(db.session.scalars(select(OrderRefund.id).where(OrderRefund.status == "refund_pending")
                                   .order_by(OrderRefund.id).limit(limit)))


def _rupees(paise: int) -> str:
    return money.rupees_text(paise, always_paise=True)
