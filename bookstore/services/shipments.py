"""Shipping an order (product §7.8): parcels by courier and AWB, the whole order or some of its lines,
booked by hand or through Shiprocket; tracking events typed by an administrator or sent by Shiprocket's
webhook; a delivered order completed, a parcel returned to origin received back into stock."""
import hmac
import json
from collections import Counter
from datetime import datetime, timedelta, timezone

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from bookstore import jobs, money
from bookstore.errors import ApiError, BadRequest, Conflict, Forbidden, NotFound, Unauthorized, ValidationFailed
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import (Book, Courier, Order, OrderLine, Shipment, ShipmentEvent, ShipmentLine, User, parse_id,
                              utcnow)
from bookstore.request_input import holds_nul
from bookstore.services import audit, bills, mail, notifications, orders, refunds, shiprocket_gateway, stock
from bookstore.services.aggregators import AGGREGATORS, Booking, tracking_link
from bookstore.services.india import IST

# Orders whose lines may still go out; a `shipped` order set by hand before shipments existed may get its AWB.
SHIPPABLE = ("pending", "processing", "shipped")
# A shipment takes no more events once delivered or back on the shop's shelf: a parcel's end states.
FINISHED = ("delivered", "received")
# Parcels that are not (yet) with a courier: Shiprocket's booking job is at work, or gave up.
NOT_SENT = ("booking", "booking_failed")
# The booking job waits 30 s, 1, 2, 4 minutes... between its tries.
BOOKING_BACKOFF_SECONDS = 30
EVENT_WORDS = {"picked_up": "Picked up", "in_transit": "In transit", "out_for_delivery": "Out for delivery",
               "delivered": "Delivered", "failed_attempt": "Delivery attempt failed", "rto": "Returning to the shop"}


# ---- shipping -------------------------------------------------------------------------------------------

def remaining(order: Order) -> dict[int, int]:
    """Copies of each printed order line (by line id) not yet in any shipment. E-books and audiobooks are
    downloaded, never shipped (product §7.11), so an order whose printed lines are all out is `shipped`. A
    parcel being booked holds its lines; one whose booking failed has let them go."""
    sent = Counter()
    for shipment in order.shipments:
        if shipment.status == "booking_failed":
            continue
        for part in shipment.lines:
            sent[part.order_line_id] += part.quantity
    return {line.id: line.quantity - sent[line.id] for line in order.lines if not line.digital}


def sent_parcels(order: Order) -> list[Shipment]:
    """The parcels handed to a courier (not being booked, nor failed to book)."""
    return [shipment for shipment in order.shipments if shipment.status not in NOT_SENT]


def _booking(order: Order) -> bool:
    return any(shipment.status == "booking" for shipment in order.shipments)


def _lock(public_id: str) -> Order:
    """The order, its row locked on PostgreSQL so two Ship clicks cannot send the same line twice. :raise NotFound:"""
    order = orders.find(public_id)
    db.session.execute(select(Order.id).where(Order.id == order.id).with_for_update())
    return orders.reload(order)


def _check_shippable(order: Order) -> None:
    """:raise Conflict: for a cancelled, unpaid online, delivered or returned order."""
    if order.status == "cancelled":
        raise Conflict("A cancelled order cannot be shipped.")
    if order.status not in SHIPPABLE:
        raise Conflict(f"A {order.status} order has nothing left to ship.")
    if order.payment_method == "online" and order.payment_status != "paid":
        raise Conflict("This online order is not paid yet. It can be shipped once the payment is received.")


def _chosen_lines(order: Order, wanted: list[dict] | None) -> list[tuple[OrderLine, int]]:
    """(line, copies) to put in the parcel: those asked for, or every copy not yet shipped.
    :raise ValidationFailed: a book not in the order. :raise Conflict: copies already shipped."""
    left = remaining(order)
    if wanted is None:
        chosen = [(line, left[line.id]) for line in order.lines if left.get(line.id, 0) > 0]
        if not chosen and not left:
            raise Conflict("This order holds only e-books and audiobooks: they are downloaded, not shipped.")
        if not chosen:
            raise Conflict("Every line of this order has already been shipped.")
        return chosen
    by_book = {line.book_id: line for line in order.lines}
    chosen = []
    for item in wanted:
        line = by_book.get(parse_id(item["book"]))
        if line is None:
            raise ValidationFailed({"lines": [f"Book {item['book']} is not in this order."]})
        if line.digital:
            raise Conflict(f"“{line.title}” is an {line_format(line)}: it is downloaded, not shipped.")
        copies = item.get("quantity") or left[line.id]
        if left[line.id] == 0:
            raise Conflict(f"“{line.title}” has already been shipped.")
        if copies > left[line.id]:
            raise Conflict(f"Only {left[line.id]} of {line.quantity} copies of “{line.title}” are left to ship.")
        chosen.append((line, copies))
    return chosen


def line_format(line: OrderLine) -> str:
    book = db.session.get(Book, line.book_id) if line.book_id else None
    return "audiobook" if book is not None and book.format == "Audiobook" else "e-book"


def _books_in(shipment: Shipment) -> dict[int, int]:
    """Copies of each book in a parcel: a book line's own, or each of a kit's books times the kits sent."""
    copies: dict[int, int] = {}
    for part in shipment.lines:
        line = part.order_line
        per_unit = {line.book_id: 1} if line.kit_id is None else {kb.book_id: kb.quantity for kb in line.kit_books}
        for book_id, quantity in per_unit.items():
            copies[book_id] = copies.get(book_id, 0) + quantity * part.quantity
    return copies


def ship(public_id: str, request: dict, admin: User) -> tuple[Order, Shipment]:
    """Put lines of an order (all that are left when none are named) in a parcel. By hand, it is shipped at
    once: the order becomes `shipped` once every copy is in a sent parcel (`processing` before that), audited,
    and the shopper is mailed the courier, AWB and tracking link. Through Shiprocket, the parcel is recorded
    as `booking` with its lines reserved and nothing else changed; a job books it (`book_parcel`).
    :raise NotFound: :raise Conflict: :raise ValidationFailed:"""
    order = _lock(public_id)
    _check_shippable(order)
    chosen = _chosen_lines(order, request.get("lines"))
    if (request.get("aggregator") or "manual") == "shiprocket":
        return _start_booking(order, chosen, request, admin)
    if request.get("awb"):
        _check_awb_free(request.get("courier") or "", request["awb"])
    booking = AGGREGATORS["manual"].book(order, chosen, request, len(order.shipments) + 1)
    by = f"admin:{admin.id}"
    shipment = Shipment(order_id=order.id, courier=booking.courier, awb=booking.awb,
                        tracking_url=booking.tracking_url, packages=request.get("packages") or 1,
                        aggregator="manual", status="shipped", shipped_by=by, shipped_at=utcnow(),
                        lines=[ShipmentLine(order_line_id=line.id, quantity=copies) for line, copies in chosen])
    before = {"status": order.status}
    everything_sent = _follow_sent_parcel(order, shipment, booking, by)
    audit.record(admin, "order.ship", "order", order.public_id, before, {
        "status": _status_of(order), "shipment": {"courier": booking.courier, "awb": booking.awb,
                                                  "aggregator": "manual",
                                                  "lines": {line.title: copies for line, copies in chosen}}})
    _mail_sent_parcel(order, shipment, everything_sent)
    db.session.commit()
    return _reload(order), shipment


def _follow_sent_parcel(order: Order, shipment: Shipment, booking: Booking, by: str) -> bool:
    """Move the order for a parcel now with its courier (added, or booked from `booking`), then write the
    parcel; True when every copy is in a sent parcel. :raise Conflict: its AWB is taken (rolled back)."""
    others_left = sum(remaining(order).values()) - (sum(part.quantity for part in shipment.lines)
                                                    if shipment.id is None else 0)
    everything_sent = others_left == 0 and not any(
        s.status == "booking" for s in order.shipments if s is not shipment)
    note = f"Shipped by {booking.courier}, AWB {booking.awb}"[:300]
    # The status moves first, so the history's "processing" (packed) comes before the parcel it sent.
    if everything_sent and order.status != "shipped":
        orders.move(order, "shipped", by, note)
    elif not everything_sent and order.status == "pending":
        orders.move(order, "processing", by, f"Part of the order shipped: {booking.courier}, AWB {booking.awb}"[:300])
    db.session.flush()
    shipment.shipped_at = utcnow()  # after the history's move, so the timeline reads packed, then shipped
    db.session.add(shipment)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(f"AWB {booking.awb} of {booking.courier} is already used by another shipment.") from None
    db.session.refresh(order)
    return everything_sent


def _mail_sent_parcel(order: Order, shipment: Shipment, everything_sent: bool) -> None:
    db.session.refresh(order)
    if order.status == "shipped" and everything_sent:
        notifications.status_changed(order, shipped_text(order))
    else:
        _partial_mail(order, shipment)


def _start_booking(order: Order, chosen: list[tuple[OrderLine, int]], request: dict,
                   admin: User) -> tuple[Order, Shipment]:
    """Record a Shiprocket parcel as `booking` (its lines reserved) and ask the job to book it."""
    if not shiprocket_gateway.configured():
        raise ValidationFailed({"aggregator": ["Shiprocket is not set up: set SHIPROCKET_EMAIL and "
                                               "SHIPROCKET_PASSWORD, or ship manually."]})
    shipment = Shipment(order_id=order.id, courier="Shiprocket", awb=None, tracking_url=request.get("tracking_url") or "",
                        packages=request.get("packages") or 1, aggregator="shiprocket", status="booking",
                        shipped_by=f"admin:{admin.id}", shipped_at=utcnow(), booking_next_at=utcnow(),
                        lines=[ShipmentLine(order_line_id=line.id, quantity=copies) for line, copies in chosen])
    db.session.add(shipment)
    db.session.flush()
    audit.record(admin, "order.ship", "order", order.public_id, {"status": order.status}, {
        "status": order.status, "shipment": {"aggregator": "shiprocket", "status": "booking",
                                             "lines": {line.title: copies for line, copies in chosen}}})
    jobs.after_commit(tasks.book_shipment, shipment.id)
    db.session.commit()
    return _reload(order), shipment


def retry_booking(public_id: str, shipment_id: str, admin: User) -> tuple[Order, Shipment]:
    """Book a parcel whose booking failed again (the same Shiprocket order), if its lines are still free.
    :raise NotFound: :raise Conflict: not a failed booking, the order cannot ship, or its lines went in
    another parcel meanwhile. :raise ValidationFailed: Shiprocket not set up."""
    order = _lock(public_id)
    shipment = _shipment_of(order, shipment_id)
    if shipment.status != "booking_failed":
        raise Conflict("Only a parcel whose booking failed can be booked again.")
    _check_shippable(order)
    left = remaining(order)
    for part in shipment.lines:
        if part.quantity > left[part.order_line_id]:
            raise Conflict(f"“{part.order_line.title}” went in another parcel meanwhile; ship what is left instead.")
    if not shiprocket_gateway.configured():
        raise ValidationFailed({"aggregator": ["Shiprocket is not set up: set SHIPROCKET_EMAIL and "
                                               "SHIPROCKET_PASSWORD, or ship manually."]})
    db.session.execute(update(Shipment).where(Shipment.id == shipment.id, Shipment.status == "booking_failed")
                       .values(status="booking", booking_attempts=0, booking_error="", booking_next_at=utcnow())
                       .execution_options(synchronize_session=False))
    audit.record(admin, "shipment.retry", "order", order.public_id, {"status": "booking_failed",
                                                                      "error": shipment.booking_error},
                 {"status": "booking", "shipment": shipment.id})
    jobs.after_commit(tasks.book_shipment, shipment.id)
    db.session.commit()
    return _reload(order), shipment


def book_parcel(shipment_id: int) -> tuple[str, int | None]:
    """The booking job: book a `booking` parcel with Shiprocket (the channel order id names the order and
    the parcel, so every try names the same Shiprocket order), then ship it as `ship` does by hand.
    Answers (outcome, seconds until the next try or None). Runs twice, changes nothing twice: only a
    parcel still `booking` is booked, by a conditional UPDATE."""
    shipment = db.session.get(Shipment, shipment_id)
    if shipment is None or shipment.status != "booking":
        return "nothing to do", None
    timeout = current_app.config["SHIPROCKET_TIMEOUT_SECONDS"]
    # Counted before Shiprocket is called, so a consumer killed mid-call still uses up a try; the sweep
    # leaves the parcel alone while this try may still be running.
    db.session.execute(update(Shipment).where(Shipment.id == shipment.id, Shipment.status == "booking")
                       .values(booking_attempts=Shipment.booking_attempts + 1,
                               booking_next_at=utcnow() + timedelta(seconds=6 * timeout + 60))
                       .execution_options(synchronize_session=False))
    db.session.commit()
    shipment = db.session.get(Shipment, shipment_id)
    order = shipment.order
    sequence = [s.id for s in order.shipments].index(shipment.id) + 1
    lines = [(part.order_line, part.quantity) for part in shipment.lines]
    try:
        booking = AGGREGATORS["shiprocket"].book(order, lines, {"tracking_url": shipment.tracking_url}, sequence)
        outcome = _booked(order.public_id, shipment.id, booking)
    except ApiError as error:
        db.session.rollback()
        reason = error.message if not error.errors else "; ".join(
            message for messages in error.errors.values() for message in messages)
        return _booking_went_wrong(shipment_id, reason)
    return outcome, None


def _booked(public_id: str, shipment_id: int, booking: Booking) -> str:
    """Shiprocket booked the parcel: fill in its courier, AWB, label and pickup; it is `shipped`, the order
    follows and the shopper is mailed. :raise Conflict: its AWB is taken by another parcel."""
    order = _lock(public_id)
    shipment = _shipment_of(order, shipment_id)
    if shipment.status != "booking":
        db.session.rollback()
        return "nothing to do"
    _check_awb_free(booking.courier, booking.awb)
    try:
        booked = db.session.execute(
            update(Shipment).where(Shipment.id == shipment.id, Shipment.status == "booking")
            .values(courier=booking.courier, awb=booking.awb, tracking_url=booking.tracking_url,
                    provider_order_id=booking.provider_order_id, provider_shipment_id=booking.provider_shipment_id,
                    label_url=booking.label_url, pickup_token=booking.pickup_token, status="shipped",
                    shipped_at=utcnow(), booking_error="", booking_next_at=None)
            .execution_options(synchronize_session=False)).rowcount == 1
    except IntegrityError:
        db.session.rollback()
        raise Conflict(f"AWB {booking.awb} of {booking.courier} is already used by another shipment.") from None
    if not booked:
        db.session.rollback()
        return "nothing to do"
    db.session.refresh(shipment)
    before = {"status": order.status}
    everything_sent = _follow_sent_parcel(order, shipment, booking, shipment.shipped_by)
    admin = _admin_of(shipment.shipped_by)
    if admin is not None:  # recorded as the administrator who asked for the parcel
        audit.record(admin, "shipment.booked", "order", order.public_id, before, {
            "status": _status_of(order), "shipment": {"courier": booking.courier, "awb": booking.awb,
                                                      "aggregator": "shiprocket"}})
    _mail_sent_parcel(order, shipment, everything_sent)
    db.session.commit()
    return "booked"


def _admin_of(by: str) -> User | None:
    """The user of an 'admin:<id>' actor, when it still exists."""
    kind, _, user_id = by.partition(":")
    return db.session.get(User, int(user_id)) if kind == "admin" and user_id.isdigit() else None


def _booking_went_wrong(shipment_id: int, reason: str) -> tuple[str, int | None]:
    """A failed try: tried again later with a longer wait, or, after the last try, the parcel is
    `booking_failed` with the reason and its lines are free again."""
    shipment = db.session.get(Shipment, shipment_id)
    if shipment is None or shipment.status != "booking":
        return "nothing to do", None
    attempts = shipment.booking_attempts
    if attempts >= current_app.config["SHIPROCKET_BOOKING_ATTEMPTS"]:
        db.session.execute(update(Shipment).where(Shipment.id == shipment_id, Shipment.status == "booking")
                           .values(status="booking_failed", booking_error=reason[:300], booking_next_at=None)
                           .execution_options(synchronize_session=False))
        db.session.commit()
        return "booking_failed", None
    delay = BOOKING_BACKOFF_SECONDS * 2 ** (attempts - 1)
    db.session.execute(update(Shipment).where(Shipment.id == shipment_id, Shipment.status == "booking")
                       .values(booking_error=reason[:300], booking_next_at=utcnow() + timedelta(seconds=delay))
                       .execution_options(synchronize_session=False))
    db.session.commit()
    return "retry", delay


def pending_booking_ids(limit: int = 100) -> list[int]:
    """Parcels still `booking` whose next try is overdue (a lost job, or a consumer that died mid-try)."""
    return list(db.session.scalars(
        select(Shipment.id).where(Shipment.status == "booking",
                                  Shipment.booking_next_at <= utcnow() - timedelta(seconds=60))
        .order_by(Shipment.id).limit(limit)))


def _status_of(order: Order) -> str:
    return db.session.scalar(select(Order.status).where(Order.id == order.id))


def _check_awb_free(courier: str, awb: str) -> None:
    taken = db.session.scalar(select(Shipment).where(Shipment.courier == courier, Shipment.awb == awb))
    if taken is not None:
        raise Conflict(f"AWB {awb} of {courier} is already used by order {taken.order.order_number}.")


def shipped_text(order: Order) -> str:
    """The parcels of an order for the shipped mail: courier, AWB and tracking link of each."""
    parts = []
    for shipment in sent_parcels(order):
        text = f"{shipment.courier}, AWB {shipment.awb}"
        if shipment.tracking_url:
            text += f"\nTrack it: {shipment.tracking_url}"
        parts.append(text)
    heading = "Your parcel is on its way with" if len(parts) == 1 else "Your parcels are on their way with"
    return heading + " " + "\n\n".join(parts)


def _partial_mail(order: Order, shipment: Shipment) -> None:
    """Some lines left in a parcel, the rest follow: what went, with courier, AWB and tracking link."""
    went = "\n".join(f"  {part.quantity} × {part.order_line.title}" for part in shipment.lines)
    track = f"\nTrack it: {shipment.tracking_url}" if shipment.tracking_url else ""
    mail.queue(order.email, f"Part of your order {order.order_number} has shipped",
               f"Hello {order.first_name},\n\nPart of your order {order.order_number} is on its way with "
               f"{shipment.courier}, AWB {shipment.awb}.{track}\n\nIn this parcel:\n{went}\n\n"
               f"The rest of your order follows in another parcel; we will write again when it ships.\n\n"
               f"Follow your order: {mail.shop_url('/orders')}")


# ---- tracking events --------------------------------------------------------------------------------------

def _shipment_of(order: Order, shipment_id: str) -> Shipment:
    shipment = next((s for s in order.shipments if str(s.id) == str(shipment_id).strip()), None)
    if shipment is None:
        raise NotFound("Shipment not found.")
    return shipment


def add_event(public_id: str, shipment_id: str, data: dict, admin: User) -> Order:
    """An administrator records a tracking event (the courier's scan seen on its site, a phone call).
    :raise NotFound: :raise Conflict: a delivered or received parcel. :raise ValidationFailed: a future time."""
    order = _lock(public_id)
    shipment = _shipment_of(order, shipment_id)
    at = data.get("at") or utcnow()
    if at > utcnow() + timedelta(minutes=5):
        raise ValidationFailed({"at": ["An event cannot be in the future."]})
    if shipment.status in NOT_SENT:
        raise Conflict("This parcel is not with a courier yet: Shiprocket has not booked it.")
    if shipment.status in FINISHED:
        raise Conflict("This parcel was delivered; it takes no more events." if shipment.status == "delivered"
                       else "This parcel is back at the shop; it takes no more events.")
    before = {"status": shipment.status}
    _record(order, shipment, data["status"], at, data.get("location") or "", data.get("note") or "",
            f"admin:{admin.id}", None)
    audit.record(admin, "shipment.event", "order", order.public_id, before,
                 {"status": data["status"], "shipment": shipment.awb, "at": at, "location": data.get("location") or ""})
    db.session.commit()
    return _reload(order)


def _record(order: Order, shipment: Shipment, status: str, at: datetime, location: str, note: str, source: str,
            dedupe_key: str | None) -> None:
    """Add the event and follow it: the shipment's status, and the order's when every parcel arrived.
    :raise IntegrityError: when an event with the same `dedupe_key` is already recorded."""
    db.session.add(ShipmentEvent(shipment_id=shipment.id, status=status, at=at, location=location[:120],
                                 note=note[:300], source=source, dedupe_key=dedupe_key))
    db.session.flush()
    db.session.refresh(shipment)
    latest = max(shipment.events, key=lambda e: (_aware(e.at), e.id))
    # Delivered stays delivered; otherwise the parcel is where its latest scan says.
    new_status = "delivered" if status == "delivered" else latest.status
    db.session.execute(update(Shipment).where(Shipment.id == shipment.id, Shipment.status.not_in(FINISHED))
                       .values(status=new_status).execution_options(synchronize_session=False))
    db.session.refresh(shipment)
    db.session.refresh(order)
    if status == "delivered":
        _complete_if_delivered(order, source)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=timezone.utc)


def _complete_if_delivered(order: Order, by: str) -> None:
    """Every copy shipped and every parcel at an end state, at least one delivered: the order is delivered
    (cash on delivery: paid). Parcels that came back instead (RTO, received) are named in the history and
    the mail; their copies are already back in stock (product §7.8)."""
    if order.status != "shipped" or any(remaining(order).values()) or _booking(order):
        return
    parcels = sent_parcels(order)
    if any(shipment.status not in FINISHED for shipment in parcels):
        return
    if not any(shipment.status == "delivered" for shipment in parcels):
        return  # every parcel came back: `returned`, by receive_returned
    came_back = [shipment for shipment in parcels if shipment.status == "received"]
    note = "Delivered by the courier"
    if came_back:
        note = ("Delivered, except the parcel(s) returned to the shop (RTO) and back in stock: "
                + ", ".join(f"{shipment.courier} AWB {shipment.awb}" for shipment in came_back))[:300]
    if orders.move(order, "delivered", by if by != "webhook" else "system", note):
        orders.mark_cash_collected(order)
        db.session.refresh(order)
        bills.assign_when_due(order)  # before the delivered mail, which carries the bill
        notifications.status_changed(order, _came_back_text(came_back))


def _came_back_text(came_back: list[Shipment]) -> str:
    """For the delivered mail: what the courier brought back to the shop instead of delivering."""
    if not came_back:
        return ""
    titles = "\n".join(f"  {part.quantity} × {part.order_line.title}" for shipment in came_back
                       for part in shipment.lines)
    order = came_back[0].order
    back = sum(row.amount_paise for row in order.refunds
               if row.kind == "rto" and row.shipment_id in {shipment.id for shipment in came_back})
    money_text = ""
    if back:
        money_text = (f"\n\nWe are refunding {money.rupees_text(back, always_paise=True)} for them to your original "
                      "payment." if order.payment_method == "online" else
                      f"\n\nThey are not charged: {money.rupees_text(back, always_paise=True)} less was collected.")
    return ("The courier could not deliver part of your order and it has come back to us; you have not "
            f"received these and they are not part of the delivery:\n{titles}{money_text}")


# ---- parcels returned to origin ------------------------------------------------------------------------

def receive_returned(public_id: str, shipment_id: str, admin: User) -> Order:
    """A parcel returned to origin (RTO) is back at the shop: its copies go back on the shelf once, and
    when every parcel of the order is back the order is `returned` (a paid online order is refunded).
    :raise NotFound: :raise Conflict: not an RTO parcel, or received already."""
    order = _lock(public_id)
    shipment = _shipment_of(order, shipment_id)
    if shipment.status == "received":
        raise Conflict("This parcel has already been received back.")
    if shipment.status != "rto":
        raise Conflict("Only a parcel returned to origin (RTO) can be received back.")
    claimed = db.session.execute(
        update(Shipment).where(Shipment.id == shipment.id, Shipment.received_at.is_(None), Shipment.status == "rto")
        .values(received_at=utcnow(), status="received").execution_options(synchronize_session=False)).rowcount == 1
    if not claimed:
        raise Conflict("The parcel changed meanwhile. Please reload the order.")
    db.session.refresh(shipment)
    copies = _books_in(shipment)
    # Copies back on the shelf (shoppers waiting for them are told), one ledger row per book.
    stock.move_many([stock.Move(book_id, n, "rto_received") for book_id, n in copies.items()],
                    stock.Cause(actor=f"admin:{admin.id}", actor_id=admin.id, order_id=order.id,
                                shipment_id=shipment.id))
    db.session.refresh(order)
    before = {"status": order.status}
    by = f"admin:{admin.id}"
    all_back = not any(remaining(order).values()) and not _booking(order) and all(
        s.status == "received" for s in sent_parcels(order))
    if all_back and orders.move(order, "returned", by, "Every parcel came back to the shop (RTO)."):
        # Every copy is back on the shelf: nothing else may give this order's stock back again.
        db.session.execute(update(Order).where(Order.id == order.id).values(stock_released=True)
                           .execution_options(synchronize_session=False))
        refunds.request_refund(order)
        db.session.refresh(order)
        notifications.status_changed(order, "The courier could not deliver your parcel and it has come back to us."
                                     + (" Your payment is being refunded." if order.payment_status == "refund_pending"
                                        else ""))
    if not all_back:
        # The other parcels reach the shopper: this one's share is refunded (online) or not collected (cash on
        # delivery), and the order is delivered for the delivered parts once every parcel is at its end.
        refunds.parcel_came_back(order, shipment, by)
        db.session.refresh(order)
        _complete_if_delivered(order, by)
    audit.record(admin, "shipment.received", "order", order.public_id, before,
                 {"status": _status_of(order), "shipment": shipment.awb})
    db.session.commit()
    return _reload(order)


# ---- Shiprocket's webhook -------------------------------------------------------------------------------

# Shiprocket's status words (current_status / shipment_status) and ids, as the shop's events.
SHIPROCKET_WORDS = {
    "PICKED UP": "picked_up", "PICKUP COMPLETE": "picked_up",
    "SHIPPED": "in_transit", "IN TRANSIT": "in_transit", "REACHED AT DESTINATION HUB": "in_transit",
    "REACHED DESTINATION HUB": "in_transit", "MISROUTED": "in_transit", "IN TRANSIT-AT DESTINATION HUB": "in_transit",
    "OUT FOR DELIVERY": "out_for_delivery",
    "DELIVERED": "delivered",
    "UNDELIVERED": "failed_attempt", "FAILED DELIVERY": "failed_attempt", "DELIVERY FAILED": "failed_attempt",
    "RTO INITIATED": "rto", "RTO IN TRANSIT": "rto", "RTO DELIVERED": "rto", "RTO OFD": "rto", "RTO NDR": "rto",
    "RTO_NDR": "rto", "RTO_OFD": "rto",
}
SHIPROCKET_IDS = {42: "picked_up", 6: "in_transit", 18: "in_transit", 38: "in_transit", 17: "out_for_delivery",
                  7: "delivered", 21: "failed_attempt", 9: "rto", 10: "rto", 14: "rto", 15: "rto", 16: "rto"}
_TIME_FORMATS = ("%d %m %Y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%d-%m-%Y %H:%M:%S", "%Y-%m-%d %H:%M")


def check_webhook_token(given: str | None) -> None:
    """:raise ApiError: 503 without a configured token. :raise Unauthorized: none sent. :raise Forbidden: wrong."""
    expected = current_app.config.get("SHIPROCKET_WEBHOOK_TOKEN") or ""
    if not expected:
        raise ApiError("The tracking webhook is not configured.", 503)
    if not given:
        raise Unauthorized("The tracking webhook needs its token in the x-api-key header.")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Forbidden("The tracking webhook's token is wrong.")


def _status_from(payload: dict) -> str | None:
    for key in ("current_status", "shipment_status"):
        word = payload.get(key)
        if isinstance(word, str) and word.strip().upper() in SHIPROCKET_WORDS:
            return SHIPROCKET_WORDS[word.strip().upper()]
    for key in ("current_status_id", "shipment_status_id"):
        try:
            status = SHIPROCKET_IDS.get(int(payload.get(key)))
        except (TypeError, ValueError):
            status = None
        if status:
            return status
    return None


def _time_from(text) -> datetime:
    """Shiprocket's times are India's clock ("23 05 2023 11:43:52"); unreadable ones are now."""
    for pattern in _TIME_FORMATS:
        try:
            return datetime.strptime(str(text).strip(), pattern).replace(tzinfo=IST).astimezone(timezone.utc)
        except ValueError:
            continue
    return utcnow()


def handle_webhook_body(raw: str) -> str:
    """The webhook's raw body (its token checked first). :raise BadRequest: not a JSON object, or text
    holding a NUL (PostgreSQL cannot look one up)."""
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        raise BadRequest("Malformed webhook body: a JSON object is expected.")
    if holds_nul(payload):
        raise BadRequest("Malformed webhook body: text must not contain NUL characters.")
    return record_webhook(payload)


def record_webhook(payload: dict) -> str:
    """One tracking update from Shiprocket (the token already checked). Answers what was done; unknown
    AWBs and statuses, and scans that would take a parcel back in its life, are ignored, not refused, so
    Shiprocket does not retry them for ever.
    :raise Conflict: the AWB is another courier's. :raise BadRequest: a time in the future."""
    awb = str(payload.get("awb") or "").strip()
    if not awb:
        return "ignored: no AWB"
    shipment = _parcel_of(awb, str(payload.get("courier_name") or "").strip())
    if shipment is None:
        return "ignored: unknown AWB"
    status = _status_from(payload)
    if status is None:
        return "ignored: status not followed"
    at = _time_from(payload.get("current_timestamp"))
    if at > utcnow() + FUTURE_TOLERANCE:
        raise BadRequest("The update's time is in the future.")
    order = _lock(shipment.order.public_id)
    shipment = _shipment_of(order, shipment.id)
    if shipment.status in FINISHED:
        return "ignored: parcel already delivered or received"
    if goes_back(shipment.status, status):
        db.session.rollback()
        return f"ignored: {status} cannot follow {shipment.status}"
    scans = payload.get("scans") if isinstance(payload.get("scans"), list) else []
    last_scan = scans[-1] if scans and isinstance(scans[-1], dict) else {}
    location = str(last_scan.get("location") or "")
    key = f"shiprocket:{awb}:{payload.get('current_status_id') or payload.get('current_status')}:" \
          f"{payload.get('current_timestamp')}"[:200]
    if db.session.scalar(select(ShipmentEvent.id).where(ShipmentEvent.dedupe_key == key)) is not None:
        db.session.rollback()
        return "duplicate: already recorded"
    try:
        _record(order, shipment, status, at, location, str(payload.get("current_status") or ""), "webhook", key)
        db.session.commit()
    except IntegrityError:
        # The same delivery, recorded by a concurrent request a moment earlier.
        db.session.rollback()
        return "duplicate: already recorded"
    return f"recorded: {status}"


# A courier's clock may run a little ahead of the shop's; a scan further ahead is not a scan.
FUTURE_TOLERANCE = timedelta(minutes=5)
# A parcel's life in stages: a scan of an earlier stage than the parcel's is late, replayed or forged and moves
# nothing. Delivery attempts loop within one stage (out for delivery, a failed attempt, back at the hub, out
# again); a parcel returning to the shop (RTO) takes RTO scans only, so it is never "delivered" after.
_STAGES = {"shipped": 0, "picked_up": 1, "in_transit": 2, "out_for_delivery": 2, "failed_attempt": 2,
           "delivered": 3, "rto": 3}


def goes_back(current: str, status: str) -> bool:
    """Whether a scan of `status` would take a parcel now at `current` back in its life."""
    if current == "rto":
        return status != "rto"
    return _STAGES[status] < _STAGES.get(current, 0)


def _same_courier(ours: str, named: str) -> bool:
    """Shiprocket may name a courier with its service ("Delhivery Surface" for "Delhivery"): the first words
    agree, in any case."""
    return ours.casefold().split()[:1] == named.casefold().split()[:1]


def _parcel_of(awb: str, courier: str) -> Shipment | None:
    """The sent parcel an update is about: the AWB, of the courier the update names (Shiprocket's own bookings
    first). None for an AWB the shop does not know.
    :raise Conflict: only another courier's parcel has the AWB, or several couriers' and the update names none."""
    candidates = list(db.session.scalars(select(Shipment).where(Shipment.awb == awb)
                                         .order_by((Shipment.aggregator == "shiprocket").desc(), Shipment.id)))
    if not candidates:
        return None
    if not courier:
        if len({parcel.courier for parcel in candidates}) > 1:
            raise Conflict(f"AWB {awb} is used by more than one courier: the update must name its courier.")
        return candidates[0]
    mine = next((parcel for parcel in candidates if _same_courier(parcel.courier, courier)), None)
    if mine is None:
        raise Conflict(f"AWB {awb} is {candidates[0].courier}'s, not {courier}'s.")
    return mine


def _reload(order: Order) -> Order:
    return orders.reload(order)


# ---- couriers ------------------------------------------------------------------------------------------

def couriers(active_only: bool = False) -> list[Courier]:
    """The shop's couriers in their order."""
    statement = select(Courier).order_by(Courier.position, Courier.id)
    if active_only:
        statement = statement.where(Courier.active.is_(True))
    return list(db.session.scalars(statement))


def _courier_fields(courier: Courier) -> dict:
    return {"name": courier.name, "trackingUrlTemplate": courier.tracking_url_template, "active": courier.active}


def save_courier(data: dict, admin: User, courier_id: str | None = None) -> Courier:
    """Add a courier, or change one (fields not sent are kept); audited. :raise NotFound: :raise Conflict: name taken."""
    if courier_id is None:
        courier = Courier(name=data["name"], tracking_url_template=data.get("tracking_url_template") or "",
                          active=data.get("active", True),
                          position=(db.session.scalar(select(Courier.position).order_by(Courier.position.desc())
                                                      .limit(1)) or 0) + 1)
        before = None
    else:
        courier = db.session.get(Courier, parse_id(courier_id) or 0)
        if courier is None:
            raise NotFound("Courier not found.")
        before = _courier_fields(courier)
        for field in ("name", "tracking_url_template", "active"):
            if field in data:
                setattr(courier, field, data[field])
    db.session.add(courier)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(f"A courier named {data['name']} already exists.") from None
    audit.record(admin, "courier.create" if before is None else "courier.update", "courier", courier.id, before,
                 _courier_fields(courier))
    db.session.commit()
    return courier


__all__ = ["ship", "retry_booking", "book_parcel", "pending_booking_ids", "sent_parcels", "add_event", "receive_returned", "record_webhook", "check_webhook_token", "handle_webhook_body", "couriers",
           "save_courier", "remaining", "shipped_text", "tracking_link", "EVENT_WORDS"]
