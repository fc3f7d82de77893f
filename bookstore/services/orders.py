"""After the order: reading, looking up, cancelling, status changes and expiring unpaid holds.

Reads: one order is read whole with FULL_ORDER (lines with kit books, history, parcels with their lines and
events, returns with their lines and photos: a fixed handful of statements); lists read only the orders' rows and `summaries` adds what they show
(copies per order, whether a parcel went) in one statement each, whatever the page size.
"""
from dataclasses import dataclass, replace
from datetime import timedelta

from sqlalchemy import and_, func, or_, select, union, update
from sqlalchemy.orm import raiseload, selectinload

from bookstore.errors import Conflict, Forbidden, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Order, OrderLine, OrderLineBook, OrderStatusChange, ReturnRequest, Shipment, User, utcnow
from bookstore.services import audit, bills, coupons, notifications, order_links, refunds, stock
from bookstore.services.paging import Page, paginate

# The way an order goes (product §7.3): forward one step at a time; cancelled from the first two.
FORWARD = ("pending", "processing", "shipped", "delivered")
CANCELLABLE = ("pending", "processing")
NEEDS_PAYMENT = ("processing", "shipped", "delivered")
EVER_DELIVERED = "This order was delivered, so it cannot be cancelled: use a return or a part refund."


# Everything an order's page shows, loaded with the order (each a statement, whatever the counts).
FULL_ORDER = (selectinload(Order.lines).selectinload(OrderLine.kit_books), selectinload(Order.history),
              selectinload(Order.shipments).selectinload(Shipment.lines),
              selectinload(Order.shipments).selectinload(Shipment.events),
              selectinload(Order.returns).selectinload(ReturnRequest.lines),
              selectinload(Order.returns).selectinload(ReturnRequest.photos), selectinload(Order.refunds))
# A list's orders: reading a line, a change, a parcel or a return one order at a time would be a statement per order.
LIST_ONLY = (raiseload(Order.lines), raiseload(Order.history), raiseload(Order.shipments), raiseload(Order.returns),
             raiseload(Order.refunds))


def find(public_id: str) -> Order:
    """An order by its `_id`, read whole. :raise NotFound:"""
    order = db.session.scalar(select(Order).where(Order.public_id == public_id).options(*FULL_ORDER)) \
        if len(public_id) <= 24 else None
    if order is None:
        raise NotFound("Order not found.")
    return order


def reload(order: Order) -> Order:
    """The order as stored now, read whole again (after a change, or once its row is locked)."""
    return db.session.scalars(select(Order).where(Order.id == order.id).options(*FULL_ORDER)
                              .execution_options(populate_existing=True)).one()


@dataclass
class OrderSummary:
    """An order in a list: its own row, plus the copies it holds and whether a parcel went."""

    order: Order
    item_count: int
    has_parcels: bool
    can_cancel: bool | None = None  # My Orders only (mine)

    def __getattr__(self, name):
        return getattr(self.order, name)  # the order's own fields


def summaries(page_orders: list[Order]) -> list[OrderSummary]:
    """What the order lists show beyond the order's row, in two statements for the whole page."""
    ids = [order.id for order in page_orders]
    if not ids:
        return []
    copies = dict(db.session.execute(select(OrderLine.order_id, func.sum(OrderLine.quantity))
                                     .where(OrderLine.order_id.in_(ids)).group_by(OrderLine.order_id)).all())
    sent = set(db.session.scalars(select(Shipment.order_id).distinct()
                                  .where(Shipment.order_id.in_(ids), Shipment.status != "booking_failed")))
    return [OrderSummary(order, int(copies.get(order.id) or 0), order.id in sent) for order in page_orders]


def for_viewer(public_id: str, user: User | None) -> Order:
    """An order its owner or an administrator may see. :raise NotFound: for anyone else, so ids don't leak."""
    order = find(public_id)
    if user is None or not (user.is_admin or order.user_id == user.id):
        raise NotFound("Order not found.")
    return order


def for_link_or_viewer(public_id: str, token: str | None, user: User | None, write: bool = False) -> Order:
    """The order an e-mailed link's token opens (no sign-in), else one its owner or an administrator may see.
    `write`: the caller changes the order, which a closed account's link may not.
    :raise NotFound: :raise Forbidden: an expired link, or a write through a closed account's link."""
    if token:
        order_links.check(public_id, token)
        order = find(public_id)
        if write:
            order_links.check_writable(order)
        return order
    return for_viewer(public_id, user)


def bill(public_id: str, token: str | None, user: User | None) -> tuple[Order, bytes]:
    """The order's bill of supply as PDF bytes, for its owner, an administrator or the order link.
    :raise NotFound: also before the order is paid or delivered."""
    order = for_link_or_viewer(public_id, token, user)
    return order, bills.for_download(order)


def lookup(order_number: str, email: str) -> Order:
    """A guest's look-up by order number and the e-mail it was placed with. :raise NotFound:"""
    order = db.session.scalar(select(Order).where(Order.order_number == order_number.strip().upper(),
                                                  Order.email == email.lower()))
    if order is None:
        raise NotFound("No order matches that number and e-mail.")
    return order


def mine(user: User, page: int, limit: int) -> Page:
    """A shopper's orders, newest first, as summaries."""
    found = paginate(select(Order).where(Order.user_id == user.id).options(*LIST_ONLY), page, limit,
                     Order.created_at.desc(), Order.id.desc())
    items = summaries(found.items)
    held = _held_back([item.id for item in items])
    now = utcnow()
    for item in items:
        # _check_customer_cancel's rules, from the list's facts (the lines, history and returns are not read).
        item.can_cancel = (item.order.can_be_cancelled_by_customer(now) and not item.has_parcels
                           and item.id not in held)
    return replace(found, items=items)


def _held_back(ids: list[int]) -> set[int]:
    """Orders of `ids` the shopper may not cancel whatever the hour: an e-book downloaded, ever delivered, or a
    return (one statement)."""
    if not ids:
        return set()
    downloaded = select(OrderLine.order_id).where(OrderLine.order_id.in_(ids), OrderLine.digital.is_(True),
                                                  OrderLine.downloads > 0)
    delivered = select(OrderStatusChange.order_id).where(OrderStatusChange.order_id.in_(ids),
                                                         OrderStatusChange.status == "delivered")
    returned = select(ReturnRequest.order_id).where(ReturnRequest.order_id.in_(ids))
    return set(db.session.scalars(union(downloaded, delivered, returned)))


def admin_list(page: int, limit: int, status: str | None = None, search: str | None = None) -> Page:
    """Every order, newest first, filtered by status and by number, name, e-mail or phone, as summaries."""
    found = paginate(_admin_filter(status, search).options(*LIST_ONLY), page, limit,
                     Order.created_at.desc(), Order.id.desc())
    return replace(found, items=summaries(found.items))


EXPORT_BATCH = 500


def admin_export(status: str | None = None, search: str | None = None):
    """Every order admin_list would show, newest first, read in batches (for the CSV export)."""
    # Returns and refund rows too: the export shows what was paid after refunds (refunds.refundable).
    base = _admin_filter(status, search).options(selectinload(Order.lines), selectinload(Order.returns),
                                                 selectinload(Order.refunds)) \
        .order_by(Order.created_at.desc(), Order.id.desc())
    offset = 0
    while True:
        batch = db.session.scalars(base.limit(EXPORT_BATCH).offset(offset)).all()
        yield from batch
        if len(batch) < EXPORT_BATCH:
            return
        offset += EXPORT_BATCH
        db.session.expunge_all()  # keep memory flat on large exports


def _admin_filter(status: str | None, search: str | None):
    base = select(Order)
    if status:
        base = base.where(Order.status == status)
    if search:
        text = search.strip()
        pattern = f"%{text.lower()}%"
        base = base.where(or_(Order.order_number.like(f"%{text.upper()}%"), Order.email.like(pattern),
                              func.lower(Order.first_name + " " + Order.last_name).like(pattern),
                              Order.phone.like(f"%{text}%")))
    return base


def _move(order: Order, new_status: str, by: str, note: str = "", only_if: tuple = ()) -> bool:
    """Change status with a conditional UPDATE, so two concurrent changes cannot both apply (`only_if`: more
    conditions the row must still meet)."""
    moved = db.session.execute(
        update(Order).where(Order.id == order.id, Order.status == order.status, *only_if)
        .values(status=new_status, updated_at=utcnow(),
                cancelled_at=utcnow() if new_status == "cancelled" else Order.cancelled_at)
        .execution_options(synchronize_session=False)
    ).rowcount == 1
    if moved:
        db.session.add(OrderStatusChange(order_id=order.id, status=new_status, by=by, note=note))
    return moved


def move(order: Order, new_status: str, by: str, note: str = "") -> bool:
    """In the caller's transaction: the status change other services make (shipping, delivery, a parcel
    back), recorded in the history; False when the order changed meanwhile."""
    return _move(order, new_status, by, note)


def mark_cash_collected(order: Order) -> None:
    """A delivered cash-on-delivery order is paid: the courier collected the cash (product §7.3)."""
    if order.payment_method == "cod":
        db.session.execute(update(Order).where(Order.id == order.id, Order.payment_status == "pending")
                           .values(payment_status="paid", paid_at=utcnow())
                           .execution_options(synchronize_session=False))


def _cancel(order: Order, by: str, note: str) -> None:
    """Cancel in the current transaction: status, stock back once, a paid order's refund asked for,
    and the shopper's notice. :raise Conflict: when the order changed meanwhile, or was ever delivered."""
    # Moved back after its delivery, it still holds what the shopper received, returned or was refunded.
    if any(change.status == "delivered" for change in order.history) or order.returns:
        raise Conflict(EVER_DELIVERED)
    if not _move(order, "cancelled", by, note):
        raise Conflict("The order changed meanwhile. Please reload it.")
    stock.release(order, stock.Cause.of(by))
    coupons.give_back(order)
    refunds.request_refund(order)
    db.session.refresh(order)
    notifications.status_changed(order)


def cancel_by_customer(public_id: str, user: User | None, token: str | None = None) -> Order:
    """The owner (signed in, or through the order e-mail's link) cancels a pending or processing order within
    an hour; a paid one is refunded by a job.

    :raise NotFound: :raise Forbidden: :raise Conflict: when too late or no longer cancellable.
    """
    order = for_link_or_viewer(public_id, token, user, write=True)
    if not token and order.user_id != user.id:
        raise Forbidden("Only the shopper who placed the order can cancel it here.")
    _check_customer_cancel(order)
    _cancel(order, "customer", "Cancelled by the shopper")
    db.session.commit()
    return _reload(order)


def _check_customer_cancel(order: Order) -> None:
    """The shopper's cancel rules (product §7.4). :raise Conflict: with the reason the cancel is refused."""
    if _has_parcels(order):
        raise Conflict("Part of this order has already shipped, so it can no longer be cancelled.")
    if not order.can_be_cancelled_by_customer(utcnow()):
        raise Conflict("This order can no longer be cancelled. Orders can be cancelled within 1 hour "
                       "while they are pending or processing.")
    _check_nothing_downloaded(order)
    if any(change.status == "delivered" for change in order.history) or order.returns:
        raise Conflict(EVER_DELIVERED)


def can_cancel(order: Order) -> bool:
    """Whether the shopper may cancel the order now (the order page shows Cancel), by the cancel's own rules."""
    try:
        _check_customer_cancel(order)
    except Conflict:
        return False
    return True


def _has_parcels(order: Order) -> bool:
    """A parcel is with a courier or being booked (one whose booking failed holds nothing back)."""
    return any(shipment.status != "booking_failed" for shipment in order.shipments)


def _check_nothing_downloaded(order: Order) -> None:
    """A cancel refunds the whole order, and a download cannot be given back (product §7.11).
    :raise Conflict: a digital line of the order has been downloaded."""
    line = next((line for line in order.lines if line.digital and line.downloads > 0), None)
    if line is not None:
        raise Conflict(f"‘{line.title}’ has been downloaded, so this order can no longer be cancelled: "
                       "a download cannot be given back.")


def _check_move(order: Order, new_status: str, note: str) -> None:
    """Whether an administrator may move the order. :raise Conflict: :raise ValidationFailed: no reason."""
    if order.status == "cancelled":
        raise Conflict("A cancelled order cannot change status: its stock has been released.")
    if order.status == "returned":
        raise Conflict("A returned order cannot change status: its parcels are back on the shelf.")
    if new_status == "returned":
        raise Conflict("An order becomes returned when its parcels come back: mark each returned parcel "
                       "received in the order's shipments.")
    if new_status == "cancelled":
        if order.status == "delivered":
            raise Conflict("A delivered order cannot be cancelled. Use a return instead.")
        if order.status not in CANCELLABLE:
            raise Conflict(f"A {order.status} order cannot be cancelled: it has left the shop.")
        if _has_parcels(order):
            raise Conflict("Part of this order has already shipped, so it cannot be cancelled.")
        return
    if order.payment_method == "online" and order.payment_status != "paid" and new_status in NEEDS_PAYMENT:
        raise Conflict("This online order is not paid yet. It can move on once the payment is received.")
    if FORWARD.index(new_status) != FORWARD.index(order.status) + 1 and not note.strip():
        direction = "back" if FORWARD.index(new_status) < FORWARD.index(order.status) else "past a step"
        raise ValidationFailed({"note": [f"Moving an order {direction} needs a reason: it is kept in the "
                                         "order's history."]})


def change_status(public_id: str, new_status: str, admin: User, note: str = "") -> Order:
    """An administrator moves an order: forward one step, cancelled from pending or processing; back or
    past a step only with a reason. Online orders move on only once paid; a delivered cash-on-delivery
    order is paid (the cash was collected). :raise Conflict: :raise ValidationFailed:"""
    order = find(public_id)
    if order.status == new_status:
        return order
    _check_move(order, new_status, note)
    by = f"admin:{admin.id}"
    before = {"status": order.status}
    if new_status == "cancelled":
        _check_nothing_downloaded(order)
        _cancel(order, by, note or "Cancelled by the shop")
        _audit_status(admin, order, before, new_status, note, refund=order.payment_status == "refund_pending")
    else:
        if not _move(order, new_status, by, note):
            raise Conflict("The order changed meanwhile. Please reload it.")
        if new_status == "delivered":
            mark_cash_collected(order)
        _audit_status(admin, order, before, new_status, note)
        db.session.refresh(order)
        bills.assign_when_due(order)
        notifications.status_changed(order, note)
    db.session.commit()
    return _reload(order)


def _audit_status(admin: User, order: Order, before: dict, new_status: str, note: str, refund: bool = False) -> None:
    """The audit entry of a status change, in the transaction of the change."""
    after = {"status": new_status, "note": note} if note else {"status": new_status}
    if refund:
        after["refund"] = "requested"
    audit.record(admin, "order.status", "order", order.public_id, before, after)


def _reload(order: Order) -> Order:
    return reload(order)


def replace_abandoned_checkouts(user: User | None, browser: str | None, email: str, book_ids: list[int]) -> int:
    """In a new order's transaction: the same shopper's earlier online order, unpaid, for any of the same books
    is cancelled and its stock freed, so closing Razorpay's window and choosing cash on delivery instead is
    never refused for the shopper's own held copies. Returns how many.

    The same shopper is the signed-in account, or for a guest, a guest order from the same browser (its
    checkout cookie, `browser`) with the same e-mail: an e-mail alone is typed by anyone, and one browser may
    be a shared computer."""
    if user is not None:
        owner = Order.user_id == user.id
    elif browser:
        owner = and_(Order.user_id.is_(None), Order.checkout_browser == browser, Order.email == email.lower())
    else:
        return 0
    abandoned = db.session.scalars(
        select(Order).where(owner, Order.payment_method == "online", Order.status == "pending",
                            Order.payment_status.in_(("awaiting", "failed")),
                            or_(Order.id.in_(select(OrderLine.order_id).where(OrderLine.book_id.in_(book_ids))),
                                Order.id.in_(select(OrderLine.order_id).join(OrderLineBook)
                                             .where(OrderLineBook.book_id.in_(book_ids)))))
        .order_by(Order.id)).all()
    for order in abandoned:
        _cancel(order, "system", "Replaced by a new order for the same books.")
    return len(abandoned)


UNPAID = ("awaiting", "failed")
# How long past its window a hold whose Razorpay order cannot be asked about (Razorpay unreachable) is kept
# before it is released anyway (product §6.5); a payment that turns up later is refunded by reconciliation.
UNCONFIRMED_GRACE = timedelta(hours=1)


def _expired_hold(now) -> tuple:
    # Only orders the shop has not started to ship: a shipped or delivered order is never undone.
    return (Order.payment_status.in_(UNPAID), Order.status.in_(("pending", "processing")),
            Order.payment_expires_at < now)


def release_expired_holds(limit: int = 50) -> int:
    """Before a checkout: cancel the expired holds that never opened a Razorpay order (nothing to ask
    Razorpay, so no network call in a shopper's request); returns how many. Those with a Razorpay order are
    the expiry job's (`release_all_expired_holds`)."""
    expired = db.session.scalars(
        select(Order).where(*_expired_hold(utcnow()), Order.razorpay_order_id.is_(None)).order_by(Order.id).limit(limit)
    ).all()
    return sum(_expire(order) for order in expired)


def release_all_expired_holds(batch: int = 50) -> int:
    """The expiry job and `flask expire-orders`: every expired hold, in batches; returns how many were released.

    A hold with a Razorpay order is first looked up at Razorpay: a captured or authorized payment pays the
    order (as verify would) instead of cancelling it. One Razorpay cannot answer about is kept for the next
    run, until UNCONFIRMED_GRACE past its window. The first time Razorpay times out or cannot be reached, the
    rest of the run asks no more (one slow call a run, not one per order).
    """
    from bookstore.services import payments  # payments reads orders through this module
    now = utcnow()
    reachable, released, after = True, 0, 0
    while expired := db.session.scalars(select(Order).where(*_expired_hold(now), Order.id > after)
                                        .order_by(Order.id).limit(batch)).all():
        after = expired[-1].id
        for order in expired:
            if order.razorpay_order_id is not None:
                answer = payments.settle_before_expiry(order) if reachable else "unknown"
                reachable = reachable and answer != "unreachable"
                if answer == "paid" or (answer in ("unknown", "unreachable") and not _past_grace(order, now)):
                    continue
            released += _expire(order)
    while late := release_unconfirmed_cash_orders():
        released += late
    return released


def _past_grace(order: Order, now) -> bool:
    expires = order.payment_expires_at
    expires = expires if expires.tzinfo else expires.replace(tzinfo=now.tzinfo)  # SQLite's naive datetimes
    return expires < now - UNCONFIRMED_GRACE


def _expire(order: Order) -> bool:
    """Cancel one expired hold in its own transaction, with its notice, only if still unpaid (a payment
    recorded meanwhile wins); stock and coupon use go back."""
    note = "Payment was not received in time, so the order was cancelled and its books released."
    released = _move(order, "cancelled", "system", note, only_if=(Order.payment_status.in_(UNPAID),))
    if released:
        stock.release(order)
        coupons.give_back(order)
        notifications.status_changed(_reload(order), note)
    db.session.commit()
    return released


def release_unconfirmed_cash_orders(limit: int = 50) -> int:
    """Cancel large cash-on-delivery orders still pending past their `confirm_by`, free their stock and give
    back their coupon use; returns how many. Each order is its own transaction, with its notice inside it."""
    late = db.session.scalars(select(Order).where(
        Order.payment_method == "cod", Order.status == "pending", Order.confirm_by < utcnow())
        .order_by(Order.id).limit(limit)).all()
    released = 0
    for order in late:
        note = ("The order was not confirmed in time (large cash-on-delivery orders are confirmed by the shop "
                "first), so it was cancelled and its books released.")
        if _move(order, "cancelled", "system", note):
            stock.release(order)
            coupons.give_back(order)
            released += 1
            notifications.status_changed(_reload(order), note)
        db.session.commit()
    return released
