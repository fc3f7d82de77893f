"""Returns and refunds (product §7.10): asked for within the return window of delivery, per line with a
reason and photos; approved (pickup or self-ship), received (stock back for resaleable copies) and
refunded, or rejected with a reason. Each step is mailed and written into the order's history.

Refunds: an online payment is refunded through Razorpay by a job (a part of the payment, with an
idempotency key per return, looked up before any retry: the one routine of the cancel refunds,
refunds.pay_back); a cash-on-delivery
order is paid back to the UPI ID or bank account the shopper gave, less the order's shipping fee (once
per order), and the administrator records the payout's reference. Those details are erased then.
"""
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, select, update

from bookstore import clock, jobs, money
from bookstore.errors import Conflict, Forbidden, NotFound, ValidationFailed
from bookstore.extensions import db
from bookstore.jobs import tasks
from bookstore.models import (Order, OrderLine, OrderLineBook, OrderStatusChange, ReturnLine, ReturnPhoto,
                              ReturnRequest, User, parse_id, utcnow)
from bookstore.models.return_request import kit_book_title
from bookstore.services import audit, delivery, images, mail, orders, private_files, refunds, stock
from bookstore.services.paging import Page, paginate

log = logging.getLogger(__name__)

REASON_TEXT = {"damaged": "Damaged", "defective": "Defective", "wrong": "Wrong item", "missing": "Missing item"}
METHOD_TEXT = {"pickup": "a courier pickup", "self_ship": "you sending it to us"}
# Steps whose copies the shop has back (or is refunding): they count for an order returned in full.
ACCEPTED = ("received", "refund_pending", "refunded")
OPEN = ("requested", "approved", "received", "refund_pending", "refunded")
MAX_PHOTOS = 3

UPI = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,255}@[A-Za-z][A-Za-z0-9]{1,63}$")
ACCOUNT = re.compile(r"^[0-9]{9,18}$")
IFSC = re.compile(r"^[A-Z]{4}0[A-Z0-9]{6}$")

NOT_DELIVERED = "Only a delivered order can be returned."
WINDOW_PASSED = "Returns are accepted within {days} days of delivery; this order was delivered on {day}."


# ---- reading ---------------------------------------------------------------------------------------------

def window_days() -> int:
    return current_app.config["RETURN_WINDOW_DAYS"]


def delivered_at(order: Order):
    """When the order was delivered (its latest `delivered` history entry), or None."""
    moments = [change.at for change in order.history if change.status == "delivered"]
    if not moments:
        return None
    moment = moments[-1]
    return moment if moment.tzinfo else moment.replace(tzinfo=clock.now().tzinfo)


def returnable_until(order: Order):
    """The last moment a return may be asked for, or None when the order is not delivered."""
    if order.status != "delivered":
        return None
    moment = delivered_at(order)
    return moment + timedelta(days=window_days()) if moment else None


@dataclass(frozen=True)
class Item:
    """A printed book an order delivered, as a return names it: a book's own line, or one book of a kit line
    (`part`). `key` is what return lines record: (order line id, the kit's book id or None)."""

    line: OrderLine
    part: OrderLineBook | None = None

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.line.id, self.part.book_id if self.part else None)

    @property
    def book_id(self) -> int:
        return self.part.book_id if self.part else self.line.book_id

    @property
    def title(self) -> str:
        return kit_book_title(self.part.title, self.line.title) if self.part else self.line.title

    def copies(self, lines: int) -> int:
        """Copies of the book in `lines` units of the line (kits, or copies of a book line)."""
        return lines * (self.part.quantity if self.part else 1)


def _key(line: ReturnLine) -> tuple[int, int | None]:
    return (line.order_line_id, line.book_id)


def requested_copies(order: Order) -> dict[tuple[int, int | None], int]:
    """Copies per (order line, kit's book) already in a return that was not rejected."""
    taken: dict[tuple[int, int | None], int] = {}
    for request in order.returns:
        if request.status == "rejected":
            continue
        for line in request.lines:
            taken[_key(line)] = taken.get(_key(line), 0) + line.quantity
    return taken


def _items(order: Order) -> list[Item]:
    """What a return can name: printed books, of their own lines or inside a kit line (a download, alone or in
    a kit, is not one; product §7.11)."""
    items = []
    for line in order.lines:
        if line.kit_id is None:
            if not line.digital:
                items.append(Item(line))
        else:
            items.extend(Item(line, part) for part in line.kit_books if not part.digital)
    return items


def _came_back(order: Order) -> dict[int, int]:
    """Units of each order line in parcels returned to origin (RTO): never delivered, back in stock already."""
    back: dict[int, int] = {}
    for shipment in order.shipments:
        if shipment.status in ("rto", "received"):
            for part in shipment.lines:
                back[part.order_line_id] = back.get(part.order_line_id, 0) + part.quantity
    return back


def _delivered(order: Order) -> dict[tuple[int, int | None], int]:
    """Copies of each item the shopper received: the line's, less what came back to the shop in an RTO parcel."""
    back = _came_back(order)
    return {item.key: item.copies(item.line.quantity - back.get(item.line.id, 0)) for item in _items(order)}


def returnable_lines(order: Order) -> list[dict]:
    """What may still be returned now (empty outside the window): [{book, quantity}] for a book's own line,
    [{book, quantity, kit_line, title}] for a book inside a kit line."""
    until = returnable_until(order)
    if until is None or clock.now() > until:
        return []
    taken = requested_copies(order)
    delivered = _delivered(order)
    offered = []
    for item in _items(order):
        left = delivered[item.key] - taken.get(item.key, 0)
        if left <= 0:
            continue
        offered.append({"book": item.book_id, "quantity": left} if item.part is None else
                       {"book": item.book_id, "quantity": left, "kit_line": item.line.id, "title": item.title})
    return offered


def find(public_id: str) -> ReturnRequest:
    """A return by its `_id`. :raise NotFound:"""
    found = (db.session.scalar(select(ReturnRequest).where(ReturnRequest.public_id == public_id))
             if len(public_id) <= 24 else None)
    if found is None:
        raise NotFound("Return not found.")
    return found


def admin_list(page: int, limit: int, status: str | None = None) -> Page:
    """Every return, oldest open first within a status filter, else newest first."""
    query = select(ReturnRequest)
    if status:
        query = query.where(ReturnRequest.status == status)
        return paginate(query, page, limit, ReturnRequest.created_at.asc(), ReturnRequest.id.asc())
    return paginate(query, page, limit, ReturnRequest.created_at.desc(), ReturnRequest.id.desc())


# ---- the shopper asks ------------------------------------------------------------------------------------

def _order_for_shopper(public_id: str, user: User | None, token: str | None) -> Order:
    """The order its owner (signed in, or with the order link) may return from. :raise NotFound: :raise Forbidden:"""
    order = orders.for_link_or_viewer(public_id, token, user, write=True)
    if not token and order.user_id != user.id:
        raise Forbidden("Only the shopper who placed the order can ask for a return here.")
    return order


def _mask_upi(upi: str) -> str:
    name, _, bank = upi.partition("@")
    return f"{name[:2]}***@{bank}"


def _refund_details(order: Order, refund_to: dict | None) -> dict:
    """Where a cash-on-delivery refund goes, checked; nothing for an online payment (it goes back to what
    paid). :raise ValidationFailed:"""
    if order.payment_method == "online":
        return {"refund_route": "razorpay", "refund_to_masked": "The original payment"}
    if not refund_to:
        raise ValidationFailed({"refundTo": ["Cash on delivery is refunded to a UPI ID or a bank account: please "
                                             "give one."]})
    if refund_to.get("upi"):
        upi = refund_to["upi"].strip()
        if not UPI.match(upi):
            raise ValidationFailed({"refundTo": {"upi": ["Enter a UPI ID like name@okaxis."]}})
        return {"refund_route": "upi", "refund_upi": upi, "refund_to_masked": _mask_upi(upi)}
    problems = {}
    account = (refund_to.get("account_number") or "").replace(" ", "")
    ifsc = (refund_to.get("ifsc") or "").strip().upper()
    holder = " ".join((refund_to.get("holder") or "").split())
    if not ACCOUNT.match(account):
        problems["accountNumber"] = ["The account number must be 9 to 18 digits."]
    if not IFSC.match(ifsc):
        problems["ifsc"] = ["The IFSC must be 11 characters: 4 letters, 0, then 6 letters or digits "
                                     "(e.g. HDFC0001234)."]
    if not 2 <= len(holder) <= 100:
        problems["holder"] = ["Enter the account holder's name as the bank has it."]
    if problems:
        raise ValidationFailed({"refundTo": problems})
    return {"refund_route": "bank", "refund_account": account, "refund_ifsc": ifsc, "refund_holder": holder,
            "refund_to_masked": f"Bank account ****{account[-4:]} ({ifsc})"}


def _item_for(order: Order, wanted: dict) -> Item:
    """The item a request's line names (product §7.10): with `kitLine`, that kit line's book; without it, the
    book's own line, else the one kit line holding the book. :raise ValidationFailed:"""
    book_id = parse_id(wanted["book"])
    kits = [line for line in order.lines if line.kit_id is not None]
    if wanted.get("kit_line"):
        kit_line = next((line for line in kits if line.id == parse_id(wanted["kit_line"])), None)
        if kit_line is None:
            raise ValidationFailed({"lines": [f"Kit line {wanted['kit_line']} is not on this order."]})
        candidates = [Item(kit_line, part) for part in kit_line.kit_books if part.book_id == book_id]
        if not candidates:
            raise ValidationFailed({"lines": [f"Book {wanted['book']} is not in the kit {kit_line.title}."]})
    else:
        own = [Item(line) for line in order.lines if line.kit_id is None and line.book_id == book_id]
        candidates = own or [Item(line, part) for line in kits for part in line.kit_books if part.book_id == book_id]
        if not candidates:
            raise ValidationFailed({"lines": [f"Book {wanted['book']} is not on this order."]})
        if len(candidates) > 1:
            raise ValidationFailed({"lines": [f"{candidates[0].part.title} came in more than one kit of this order: "
                                              "say which kit it is from."]})
    item = candidates[0]
    if item.line.digital or (item.part is not None and item.part.digital):
        raise ValidationFailed({"lines": [
            f"{item.part.title if item.part else item.line.title} is a download and is not returned; if it does "
            "not open, please write to us from the contact page."]})
    return item


def _chosen(order: Order, wanted: list[dict]) -> list[tuple]:
    """(item, quantity, reason) for each wanted line. :raise ValidationFailed: an unknown book, a repeated one
    or more copies than can still be returned."""
    taken = requested_copies(order)
    delivered = _delivered(order)
    chosen, seen = [], set()
    for asked in wanted:
        item = _item_for(order, asked)
        if item.key in seen:
            raise ValidationFailed({"lines": ["Each book may appear only once."]})
        seen.add(item.key)
        left = delivered[item.key] - taken.get(item.key, 0)
        if asked["quantity"] > left:
            if delivered[item.key] == 0:
                message = f"{item.title} was not delivered: its parcel came back to us."
            else:
                message = (f"Only {left} of {item.title} can still be returned." if left else
                           f"{item.title} is already in a return.")
            raise ValidationFailed({"lines": [message]})
        chosen.append((item, asked["quantity"], asked["reason"]))
    return chosen


def kit_shares(line: OrderLine) -> dict[int, int]:
    """Each book's share of one kit's price (paise; they add up to the kit price exactly): in proportion to the
    book's own sale price when the kit was sold times its copies per kit (copies alone if a price is missing
    or all are 0), largest remainder first, ties to the lower book id."""
    parts = line.kit_books
    weights = {part.book_id: part.quantity * (part.unit_price_paise or 0) for part in parts}
    if any(part.unit_price_paise is None for part in parts) or not sum(weights.values()):
        weights = {part.book_id: part.quantity for part in parts}
    total, price = sum(weights.values()), line.unit_price_paise
    shares = {book_id: price * weight // total for book_id, weight in weights.items()}
    by_remainder = sorted(weights, key=lambda book_id: (-(price * weights[book_id] % total), book_id))
    for book_id in by_remainder[:price - sum(shares.values())]:
        shares[book_id] += 1
    return shares


def _value(line: OrderLine, book_id: int | None, before: int, copies: int) -> int:
    """What `copies` more copies of an item are worth before the coupon, `before` being in returns already. A
    kit's book: its share of the line (its kit share times the kits) spread over its copies so that all of them
    together are worth exactly that share."""
    if book_id is None:
        return line.unit_price_paise * copies
    part = next(part for part in line.kit_books if part.book_id == book_id)
    worth, count = kit_shares(line)[book_id] * line.quantity, part.quantity * line.quantity

    def upto(copies_in: int) -> int:
        return (worth * copies_in + count // 2) // count

    return upto(before + copies) - upto(before)


def _refund_paise(order: Order, chosen: list[tuple]) -> int:
    """The refund of these items before any shipping deduction. The discount is shared by value, counted over
    every open return of the order so that everything returned gives back exactly what was paid for it."""
    lines = {line.id: line for line in order.lines}
    taken = requested_copies(order)
    earlier = sum(_value(lines[line_id], book_id, 0, copies) for (line_id, book_id), copies in taken.items())
    now = sum(_value(item.line, item.key[1], taken.get(item.key, 0), quantity) for item, quantity, _ in chosen)
    share = (lambda v: (order.discount_paise * v + order.items_paise // 2) // order.items_paise) \
        if order.items_paise else (lambda v: 0)
    return now - (share(earlier + now) - share(earlier))


# A return of items the shop got wrong (a wrong book sent, one left out) never pays for the shipping.
SHOPS_MISTAKE = ("wrong", "missing")
# Returns whose refund is not made yet: the shipping deduction may still move between them.
UNSETTLED = ("requested", "approved", "received")


def _gross(request: ReturnRequest) -> int:
    return request.refund_paise + request.shipping_deducted_paise


def shipping_to_deduct(order: Order) -> int:
    """The shipping the order's refunds give up, in all: cash on delivery, the fee the order paid; an order
    that had free shipping, the fee it waived once what the shopper keeps (after every return not rejected)
    falls below the free-shipping threshold. Online orders that paid for shipping keep no deduction."""
    if order.shipping_paise:
        return order.shipping_paise if order.payment_method == "cod" else 0
    if not order.has_printed:
        return 0
    rules = delivery.rules()
    threshold = rules.free_shipping_threshold_paise
    if threshold is None or order.items_paise - order.discount_paise < threshold:
        return 0
    returned = sum(_gross(request) for request in order.returns if request.status != "rejected")
    if order.items_paise - order.discount_paise - returned >= threshold:
        return 0
    try:
        place = delivery.lookup(order.zip_code)
    except ValidationFailed:
        place = None
    return rules.zone_shipping_for(place)


def share_out_deduction(order: Order, first: ReturnRequest | None = None) -> None:
    """Take the shipping deduction once per order, from what is actually refunded: what refunds made already
    took counts first; the rest falls on the returns still to be refunded, `first` (the one being refunded now)
    before the others in the order they were asked for. A return rejected gives its part back to the next; a
    return of the shop's mistake (wrong or missing items only) takes none. In the caller's transaction."""
    db.session.flush()
    db.session.refresh(order)
    left = shipping_to_deduct(order) - sum(request.shipping_deducted_paise for request in order.returns
                                           if request.status in ("refund_pending", "refunded"))
    unsettled = [request for request in order.returns if request.status in UNSETTLED]
    if first in unsettled:
        unsettled.remove(first)
        unsettled.insert(0, first)
    for request in unsettled:
        mistake = all(line.reason in SHOPS_MISTAKE for line in request.lines)
        take = 0 if mistake else max(0, min(left, _gross(request)))
        left -= take
        if take != request.shipping_deducted_paise:
            db.session.execute(update(ReturnRequest).where(ReturnRequest.id == request.id)
                               .values(refund_paise=_gross(request) - take, shipping_deducted_paise=take)
                               .execution_options(synchronize_session=False))
    db.session.flush()
    for request in unsettled:
        db.session.refresh(request)


def request_return(public_id: str, data: dict, user: User | None, token: str | None) -> ReturnRequest:
    """The shopper asks for a return of some delivered copies.

    :raise NotFound: :raise Forbidden: :raise Conflict: not delivered, or the window has passed.
    :raise ValidationFailed: unknown book, too many copies, no refund details for cash on delivery.
    """
    order = _order_for_shopper(public_id, user, token)
    _lock(order)
    if order.status != "delivered":
        raise Conflict(NOT_DELIVERED if order.status != "returned" else "Every book of this order has been returned.")
    until = returnable_until(order)
    if until is None or clock.now() > until:
        day = delivered_at(order)
        raise Conflict(WINDOW_PASSED.format(days=window_days(), day=day.strftime("%-d %B %Y") if day else "—"))
    chosen = _chosen(order, data["lines"])
    details = _refund_details(order, data.get("refund_to"))
    request = ReturnRequest(public_id=secrets.token_hex(12), order_id=order.id, status="requested",
                            note=data.get("note") or "", refund_paise=_refund_paise(order, chosen),
                            shipping_deducted_paise=0, **details)
    request.lines = [ReturnLine(order_line_id=item.line.id, book_id=item.key[1], quantity=quantity, reason=reason)
                     for item, quantity, reason in chosen]
    db.session.add(request)
    share_out_deduction(order)
    _history(order, "return_requested", "customer", _lines_text(request))
    _mail(order, request, "We have your return request",
          f"We have received your request to return {_lines_text(request)}. We will look at it within 2 business "
          f"days and tell you how to send the books back.")
    db.session.commit()
    return request


def add_photo(public_id: str, return_id: str, data_url: str, user: User | None, token: str | None) -> ReturnRequest:
    """A photo of the damage, checked as covers are and stored privately, while the return awaits a decision.
    :raise NotFound: :raise Conflict: decided already or MAX_PHOTOS sent. :raise ValidationFailed:"""
    order = _order_for_shopper(public_id, user, token)
    request = _of_order(order, return_id)
    if request.status != "requested":
        raise Conflict("Photos can be added only while the return waits for our decision.")
    if len(request.photos) >= MAX_PHOTOS:
        raise Conflict(f"A return takes at most {MAX_PHOTOS} photos.")
    jpeg = images.process_photo(data_url)
    key = f"returns/{request.public_id}/{secrets.token_hex(8)}.jpg"
    private_files.put(key, jpeg, "image/jpeg")
    db.session.add(ReturnPhoto(return_id=request.id, key=key))
    db.session.commit()
    db.session.refresh(request)
    return request


def photo(public_id: str, return_id: str, photo_id: str, user: User | None, token: str | None) -> ReturnPhoto:
    """A return's photo for the shopper (signed in or with the link) or an administrator. :raise NotFound:"""
    order = orders.for_link_or_viewer(public_id, token, user)
    return _photo_of(_of_order(order, return_id), photo_id)


def admin_photo(return_id: str, photo_id: str) -> ReturnPhoto:
    return _photo_of(find(return_id), photo_id)


def _photo_of(request: ReturnRequest, photo_id: str) -> ReturnPhoto:
    wanted = parse_id(photo_id)
    for item in request.photos:
        if item.id == wanted:
            return item
    raise NotFound("Photo not found.")


def _of_order(order: Order, return_id: str) -> ReturnRequest:
    for request in order.returns:
        if request.public_id == return_id:
            return request
    raise NotFound("Return not found.")


# ---- the administrator decides ---------------------------------------------------------------------------

# status -> the steps an administrator may take from it.
NEXT = {"requested": ("approved", "rejected"), "approved": ("received", "rejected"), "received": ("refunded",)}


def take_step(return_id: str, data: dict, admin: User) -> ReturnRequest:
    """Approve (pickup or self-ship), reject with a reason, receive (resaleable copies back in stock) or
    refund (online: the refund job; cash on delivery: the payout's reference).

    :raise NotFound: :raise Conflict: a step the return cannot take now. :raise ValidationFailed:
    """
    request = find(return_id)
    wanted = data["status"]
    if wanted not in NEXT.get(request.status, ()):
        raise Conflict(_refusal(request.status, wanted))
    order = request.order
    before = {"status": request.status}
    note = data.get("note") or ""
    if wanted == "approved":
        if not data.get("method"):
            raise ValidationFailed({"method": ["Choose how the books come back: pickup or self-ship."]})
        _claim(request, "approved", method=data["method"], admin_note=note)
        how = ("Our courier will collect the parcel from your delivery address; please pack the books as they "
               "came." if data["method"] == "pickup" else
               "Please send the books to the address below and keep the courier's receipt.")
        _history(order, "return_approved", f"admin:{admin.id}", "Pickup" if data["method"] == "pickup" else "Self-ship")
        _mail(order, request, "Your return is approved", f"Your return of {_lines_text(request)} is approved. {how}"
              + (f"\n\n{note}" if note else ""))
    elif wanted == "rejected":
        if not note:
            raise ValidationFailed({"note": ["Give the shopper the reason for the refusal."]})
        _claim(request, "rejected", admin_note=note, **_erased())
        share_out_deduction(order)  # its deduction, if it had it, falls on the next return
        _history(order, "return_rejected", f"admin:{admin.id}", note)
        _mail(order, request, "Your return request was not accepted",
              f"We cannot accept the return of {_lines_text(request)}.\n\nReason: {note}")
    elif wanted == "received":
        _receive(request, order, data.get("lines") or [], note, admin)
    else:
        _refund_step(request, order, data, note, admin)
    after = {"status": request.status}
    if data.get("method"):
        after["method"] = data["method"]
    audit.record(admin, f"return.{wanted}", "return", request.public_id, before, after)
    db.session.commit()
    db.session.refresh(request)
    return request


def _refusal(current: str, wanted: str) -> str:
    steps = {"requested": "approved or rejected", "approved": "received or rejected", "received": "refunded"}
    if current in steps:
        return f"A {current} return can only be {steps[current]}, not {wanted}."
    return f"This return is {current.replace('_', ' ')} and cannot change any more."


def _claim(request: ReturnRequest, status: str, **values) -> None:
    """Move the return with a conditional UPDATE, so two administrators cannot both take a step.
    :raise Conflict:"""
    moved = db.session.execute(
        update(ReturnRequest).where(ReturnRequest.id == request.id, ReturnRequest.status == request.status)
        .values(status=status, updated_at=utcnow(), **values).execution_options(synchronize_session=False)
    ).rowcount == 1
    if not moved:
        raise Conflict("The return changed meanwhile. Please reload it.")
    db.session.refresh(request)


def _erased() -> dict:
    return {"refund_upi": None, "refund_account": None, "refund_ifsc": None, "refund_holder": None}


def _marked_line(request: ReturnRequest, mark: dict) -> ReturnLine:
    """The return's line a received mark names, as a request names its items: with `kitLine` that kit line's
    book, else the book's own line, else the one kit line of the book. :raise ValidationFailed:"""
    book_id = parse_id(mark["book"])
    lines = [line for line in request.lines if line.returned_book_id == book_id]
    if mark.get("kit_line"):
        lines = [line for line in lines if line.book_id is not None and line.order_line_id == parse_id(mark["kit_line"])]
    else:
        lines = [line for line in lines if line.book_id is None] or lines
    if len(lines) != 1:
        raise ValidationFailed({"lines": [f"Book {mark['book']} is not in this return." if not lines else
                                          f"{lines[0].kit_book.title} came in more than one kit: say which kit."]})
    return lines[0]


def _receive(request: ReturnRequest, order: Order, marks: list[dict], note: str, admin: User) -> None:
    """The books are back: resaleable copies return to stock once (a kit's book to that book's stock); the
    order is `returned` when every copy it delivered, of its own lines and inside kits, is back.
    :raise ValidationFailed: a mark for a book not in the return."""
    resaleable = {}
    for mark in marks:
        resaleable[_marked_line(request, mark).id] = mark["resaleable"]
    _claim(request, "received", admin_note=note or request.admin_note)
    back = {}
    for line in request.lines:
        line.resaleable = resaleable.get(line.id, False)
        if line.resaleable:
            book_id = line.returned_book_id
            back[book_id] = back.get(book_id, 0) + line.quantity
    # Back on the shelf (woken alerts included) with one ledger row per book.
    stock.move_many([stock.Move(book_id, copies, "return_restocked") for book_id, copies in back.items()],
                    stock.Cause(actor=f"admin:{admin.id}", actor_id=admin.id, order_id=order.id,
                                return_id=request.id))
    shelf = ", ".join(f"{line.quantity} × {line.title}" for line in request.lines if line.resaleable)
    _history(order, "return_received", f"admin:{admin.id}", f"Back in stock: {shelf}" if shelf else "Not resaleable")
    db.session.flush()
    db.session.refresh(order)
    accepted = {}
    for other in order.returns:
        if other.status in ACCEPTED:
            for line in other.lines:
                accepted[_key(line)] = accepted.get(_key(line), 0) + line.quantity
    if all(accepted.get(key, 0) >= copies for key, copies in _delivered(order).items()):
        if orders.move(order, "returned", f"admin:{admin.id}", "Every book of the order was returned."):
            db.session.execute(update(Order).where(Order.id == order.id).values(stock_released=True)
                               .execution_options(synchronize_session=False))
    _mail(order, request, "We have received your returned books",
          f"We have received {_lines_text(request)}. " + (
              "Your refund is on its way." if order.payment_method == "online" else
              f"We will pay {_rupees(request.refund_paise)} to {request.refund_to_masked} within 3-5 business days."))


def _refund_step(request: ReturnRequest, order: Order, data: dict, note: str, admin: User) -> None:
    """Online: the refund job gives the money back through Razorpay. Cash on delivery: the administrator
    paid it out and records the reference; the shopper's account details are erased. The first return refunded
    takes the shipping deduction (share_out_deduction)."""
    share_out_deduction(order, first=request)
    if request.refund_route == "razorpay":
        if request.refund_paise == 0:
            _claim(request, "refunded", refunded_at=utcnow())
            _refunded(request, order, f"admin:{admin.id}")
            return
        _claim(request, "refund_pending", refund_error="")
        jobs.after_commit(tasks.refund_return, request.id)
        return
    reference = (data.get("payout_reference") or "").strip()
    if not reference:
        raise ValidationFailed({"payoutReference": ["Give the reference of the UPI or bank transfer you made."]})
    _lock(order)  # a part refund recorded meanwhile cannot take the same rupees
    left = refunds.refundable(order, excluding=request)
    if request.refund_paise > left:
        raise Conflict(f"At most {_rupees(left)} of this order can still be refunded, less than this return's "
                       f"{_rupees(request.refund_paise)}." if left else "Nothing of this order is left to refund.")
    _claim(request, "refunded", payout_reference=reference, refunded_at=utcnow(), admin_note=note or request.admin_note,
           **_erased())
    _refunded(request, order, f"admin:{admin.id}")


def _refunded(request: ReturnRequest, order: Order, by: str) -> None:
    where = ("to your original payment; it reaches you in 3-5 business days" if request.refund_route == "razorpay"
             else f"to {request.refund_to_masked} (reference {request.payout_reference})")
    _history(order, "return_refunded", by, f"{_rupees(request.refund_paise)} refunded")
    _mail(order, request, "Your refund has been made",
          f"We have refunded {_rupees(request.refund_paise)} for {_lines_text(request)} {where}.")


# ---- the refund job --------------------------------------------------------------------------------------

def idempotency_key(request: ReturnRequest) -> str:
    return f"return-{request.public_id}"


def refund(return_id: int) -> str:
    """The refund job of a return: 'refunded', or 'nothing to do' when it is not waiting for one.

    :raise PaymentProviderError: Razorpay failed; the job is retried and the attempt recorded.
    """
    request = db.session.get(ReturnRequest, return_id)
    if request is None or request.status != "refund_pending":
        return "nothing to do"
    order = request.order
    if request.refund_stopped:
        return "nothing to do"
    # Never more than the order may still refund (a part refund or an RTO parcel may have given some back).
    amount = min(request.refund_paise, refunds.refundable(order, excluding=request))
    if amount == 0:
        db.session.execute(update(ReturnRequest).where(ReturnRequest.id == request.id)
                           .values(refund_stopped=True, refund_error="Nothing of the payment is left to refund.")
                           .execution_options(synchronize_session=False))
        db.session.commit()
        return "stopped"
    made = refunds.pay_back(request, f"return {request.public_id}", order, amount,
                            idempotency_key(request), notes={"return_id": request.public_id},
                            earlier=lambda made: (made.get("notes") or {}).get("return_id") == request.public_id)
    if made is None:
        return "stopped"
    if refunds.settle(request, "status", made, refunded_at=utcnow(), refund_paise=made["amount"]):
        db.session.refresh(request)
        _refunded(request, order, "system")
    db.session.commit()
    return "refunded"


def pending_ids(limit: int = 200) -> list[int]:
    """Returns whose refund is still to be made (for the sweep)."""
    return list(db.session.scalars(select(ReturnRequest.id).where(ReturnRequest.status == "refund_pending",
                                                                  ReturnRequest.refund_stopped.is_(False))
                                   .order_by(ReturnRequest.id).limit(limit)))


def open_count() -> int:
    """Returns waiting for an administrator (requested, approved or received)."""
    return db.session.scalar(select(func.count()).select_from(ReturnRequest)
                             .where(ReturnRequest.status.in_(("requested", "approved", "received")))) or 0


# ---- helpers ---------------------------------------------------------------------------------------------

def _lock(order: Order) -> None:
    """Serialise returns of one order (two tabs asking at once cannot both take the last copies): a write to
    the order row holds its lock on PostgreSQL until the commit; SQLite has one writer anyway."""
    db.session.execute(update(Order).where(Order.id == order.id).values(updated_at=Order.updated_at)
                       .execution_options(synchronize_session=False))
    db.session.refresh(order)


def _history(order: Order, status: str, by: str, note: str) -> None:
    db.session.add(OrderStatusChange(order_id=order.id, status=status, by=by, note=note[:300]))


def _rupees(paise: int) -> str:
    return money.rupees_text(paise, always_paise=True)


def _lines_text(request: ReturnRequest) -> str:
    return ", ".join(f"{line.quantity} × {line.title} ({REASON_TEXT[line.reason].lower()})"
                     for line in request.lines)


def _mail(order: Order, request: ReturnRequest, headline: str, text: str) -> None:
    """Each step's e-mail, with the order link (no sign-in needed) and the refund it leads to."""
    mail.queue(order.email, f"Order {order.order_number}: {headline.lower()}",
               f"Hello {order.first_name},\n\n{text}\n\nRefund: {_rupees(request.refund_paise)}"
               + (f" (less the {_rupees(request.shipping_deducted_paise)} shipping fee)"
                  if request.shipping_deducted_paise else "")
               + f"\n\nSee your order and return (no sign-in needed): {mail.order_page_link(order)}")
