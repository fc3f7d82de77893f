"""Refunds as a job: a cancel marks the payment `refund_pending` at once, a job gives the money back.

The job sends the refund with an idempotency key made from the order, counts the attempt before it
calls (so a consumer killed mid-call is known to have tried), and on any later attempt first asks
Razorpay for the payment's refunds: a refund whose answer was lost is recorded, not made twice.
That routine, `pay_back`, serves a return's refund (services/returns.py) as well.
"""
import logging
from collections.abc import Callable

from sqlalchemy import select, update

from bookstore import jobs
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Order, ReturnRequest
from bookstore.services import razorpay_gateway as gateway

log = logging.getLogger(__name__)
# After this many failed tries the admin dashboard flags the refund for a person to look at.
ATTENTION_AFTER_ATTEMPTS = 3


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
    """The refund job: 'refunded', or 'nothing to do' when the order is not waiting for one.

    :raise PaymentProviderError: Razorpay failed; the job is retried and the attempt recorded.
    """
    order = db.session.get(Order, order_id)
    if order is None or order.payment_status != "refund_pending":
        return "nothing to do"
    made = pay_back(order, f"order {order.order_number}", order, order.total_paise, idempotency_key(order),
                    earlier=lambda made: _is_order_refund(made, order))
    settle(order, "payment_status", made)
    db.session.commit()
    return "refunded"


def _is_order_refund(made: dict, order: Order) -> bool:
    """Whether a refund Razorpay made of the payment is the order's own (an earlier attempt whose answer was lost)."""
    notes = made.get("notes") or {}
    if notes.get("return_id"):
        return False  # a returned book's refund (services/returns.py), not the order's
    return notes.get("order_id") == order.public_id or made.get("amount") == order.total_paise


def pay_back(subject: Order | ReturnRequest, label: str, order: Order, amount_paise: int, key: str,
             earlier: Callable[[dict], bool], notes: dict | None = None) -> dict:
    """Refund `amount_paise` of the order's payment for `subject` (the cancelled order, or a return of it)
    under the idempotency `key`: the subject's attempt is counted and committed before the call; on a later
    attempt Razorpay's refunds of the payment are read first and the one `earlier` recognises is taken
    instead of a new try. Both the cancel refund and the return refund go through here.

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
        db.session.execute(update(model).where(model.id == subject.id)
                           .values(refund_error=error.message[:300])
                           .execution_options(synchronize_session=False))
        db.session.commit()
        log.warning("Refund of %s failed (attempt %s): %s", label, subject.refund_attempts, error.message)
        raise


def settle(subject: Order | ReturnRequest, status: str, made: dict, **values) -> bool:
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


def pending_ids(limit: int = 200) -> list[int]:
    """Orders whose refund is still to be made (for the sweep)."""
    return list(db.session.scalars(select(Order.id).where(Order.payment_status == "refund_pending")
                                   .order_by(Order.id).limit(limit)))


def needing_attention() -> int:
    """Refunds that have failed again and again, of cancelled orders and of returns (for the admin dashboard)."""
    orders = db.session.scalar(select(db.func.count()).select_from(Order).where(
        Order.payment_status == "refund_pending", Order.refund_attempts >= ATTENTION_AFTER_ATTEMPTS)) or 0
    returns = db.session.scalar(select(db.func.count()).select_from(ReturnRequest).where(
        ReturnRequest.status == "refund_pending", ReturnRequest.refund_attempts >= ATTENTION_AFTER_ATTEMPTS)) or 0
    return orders + returns
