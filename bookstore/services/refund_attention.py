"""Refunds that need a person (product §6.6): the administrator's list and the retry once the cause is fixed.

A refund needs a person when Razorpay refused it for a reason that won't change (the job stopped: an order's or a
return's `refund_stopped`, an RTO parcel's or part refund's `failed` status) or when it has failed
ATTENTION_AFTER_ATTEMPTS times or more and is still being tried. Four kinds: `cancel` (the order's own refund, a
cancel or every parcel back), `return`, `rto` and `part`.
"""
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import String, literal, or_, select, union_all, update
from sqlalchemy.orm import selectinload

from bookstore import jobs
from bookstore.errors import Conflict, NotFound
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import Order, OrderRefund, ReturnRequest, User
from bookstore.services import audit, refunds
from bookstore.services.paging import Page, count

KINDS = ("cancel", "return", "rto", "part")
NOT_WAITING = "This refund is not waiting to be retried."


@dataclass
class Stuck:
    """One refund on the list: what it is for, what a retry would ask of Razorpay now, and why it is stuck."""

    kind: str
    public_id: str
    order: Order
    amount_paise: int
    attempts: int
    error: str
    stopped: bool
    since: datetime


def _stuck_statement():
    """(kind, row id, since) of every refund needing a person; `since` is the refund's last change (an RTO or
    part refund: when it was made)."""
    orders = select(literal("cancel", String).label("kind"), Order.id.label("row_id"),
                    Order.updated_at.label("since")).where(
        Order.payment_status == "refund_pending", or_(_many(Order), Order.refund_stopped.is_(True)))
    returns = select(literal("return", String), ReturnRequest.id, ReturnRequest.updated_at).where(
        ReturnRequest.status == "refund_pending", or_(_many(ReturnRequest), ReturnRequest.refund_stopped.is_(True)))
    rows = select(OrderRefund.kind, OrderRefund.id, OrderRefund.created_at).where(or_(
        OrderRefund.status == "failed", (OrderRefund.status == "refund_pending") & _many(OrderRefund)))
    return union_all(orders, returns, rows)


def _many(model):
    return model.refund_attempts >= refunds.ATTENTION_AFTER_ATTEMPTS


def total() -> int:
    """How many refunds need a person (the admin dashboard's count)."""
    return count(select(_stuck_statement().subquery()))


def stuck(page: int, limit: int) -> Page:
    """One page of the refunds needing a person, the longest waiting first."""
    listed = _stuck_statement().subquery()
    keys = db.session.execute(select(listed.c.kind, listed.c.row_id)
                              .order_by(listed.c.since, listed.c.kind, listed.c.row_id)
                              .limit(limit).offset((page - 1) * limit)).all()
    loaded = _load(keys)
    items = [_item(kind, loaded[(_model(kind), row_id)]) for kind, row_id in keys]
    return Page(items, total(), page, limit)


def _load(keys) -> dict:
    """The page's orders, returns and refund rows by (model, id), with what their orders' refundable amount needs."""
    loaded = {}
    for model in (Order, ReturnRequest, OrderRefund):
        ids = [row_id for kind, row_id in keys if _model(kind) is model]
        if not ids:
            continue
        order = selectinload(model.order) if model is not Order else None
        whole = ((order.selectinload(Order.returns), selectinload(model.order).selectinload(Order.refunds))
                 if order is not None else (selectinload(Order.returns), selectinload(Order.refunds)))
        for subject in db.session.scalars(select(model).where(model.id.in_(ids)).options(*whole)):
            loaded[(model, subject.id)] = subject
    return loaded


def _item(kind: str, subject) -> Stuck:
    order = subject if isinstance(subject, Order) else subject.order
    if isinstance(subject, OrderRefund):
        stopped, since, asked = subject.status == "failed", subject.created_at, subject.amount_paise
    else:
        stopped, since = subject.refund_stopped, subject.updated_at
        asked = order.total_paise if isinstance(subject, Order) else subject.refund_paise
    return Stuck(kind=kind, public_id=subject.public_id, order=order,
                 amount_paise=min(asked, refunds.refundable(order, excluding=subject)),
                 attempts=subject.refund_attempts, error=subject.refund_error, stopped=stopped, since=since)


def _model(kind: str):
    return {"cancel": Order, "return": ReturnRequest}.get(kind, OrderRefund)


# ---- the retry ---------------------------------------------------------------------------------------------------

def retry(kind: str, public_id: str, admin: User) -> Order:
    """An administrator fixed what made the refund fail: the stop and the error are cleared (a failed RTO or part
    refund waits again), the retry is audited and the refund job asked for again, which still refunds no more than
    the order may. Attempts are kept, so the job first looks for a refund Razorpay made whose answer was lost.

    :raise NotFound: no such refund. :raise Conflict: the refund is not waiting, or nothing is left to refund.
    """
    if kind not in KINDS:
        raise NotFound("No such kind of refund: cancel, return, rto or part.")
    model = _model(kind)
    subject = db.session.scalar(select(model).where(model.public_id == public_id)) if len(public_id) <= 24 else None
    if subject is None or (model is OrderRefund and subject.kind != kind):
        raise NotFound("Refund not found.")
    order = subject if model is Order else subject.order
    # The order's row locked, as every refund of it is (a part refund cannot take the same rupees meanwhile).
    db.session.execute(update(Order).where(Order.id == order.id).values(updated_at=Order.updated_at)
                       .execution_options(synchronize_session=False))
    db.session.refresh(order)
    db.session.refresh(subject)
    status = "payment_status" if model is Order else "status"
    waiting = ("refund_pending", "failed") if model is OrderRefund else ("refund_pending",)
    if getattr(subject, status) not in waiting:
        raise Conflict(NOT_WAITING)
    if model is not Order and refunds.refundable(order, excluding=subject) == 0:
        raise Conflict("Nothing of this order is left to refund.")
    before = {"status": getattr(subject, status), "error": subject.refund_error,
              "attempts": subject.refund_attempts, "stopped": _stopped(subject)}
    cleared = {"status": "refund_pending"} if model is OrderRefund else {"refund_stopped": False}
    db.session.execute(update(model).where(model.id == subject.id).values(refund_error="", **cleared)
                       .execution_options(synchronize_session=False))
    after = {**before, "status": "refund_pending", "error": "", "stopped": False}
    audit.record(admin, "refund.retry", {Order: "order", ReturnRequest: "return"}.get(model, "order_refund"),
                 subject.public_id, before, after)
    task = {Order: tasks.refund_order, ReturnRequest: tasks.refund_return}.get(model, tasks.refund_part)
    jobs.after_commit(task, subject.id)
    db.session.commit()
    return order


def _stopped(subject) -> bool:
    return subject.status == "failed" if isinstance(subject, OrderRefund) else subject.refund_stopped
