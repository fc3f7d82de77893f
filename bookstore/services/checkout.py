"""Placing an order: priced from the database, stock taken in the same transaction, retry-safe."""
import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError

from bookstore import money
from bookstore.errors import ApiError, Conflict, ValidationFailed
from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, Book, Kit, Order, OrderLine, OrderLineBook, OrderStatusChange, User, parse_id, utcnow
from bookstore.observability import metrics
from bookstore.services import coupons, delivery, digital, kits, notifications, orders, stock
from bookstore.services.razorpay_gateway import online_available
from bookstore.services.storage import media_url

TAX_PAISE = 0  # books are nil-rated (HSN 4901)
# Razorpay takes no payment under ₹1: an online order below it could never be paid (product §5.6).
MIN_ONLINE_PAISE = 100
UNDER_A_RUPEE_COUPON = ("With this coupon the order would come to less than ₹1, the least that can be paid "
                        "online. Add another book to use it.")
UNDER_A_RUPEE = "An order paid online must come to at least ₹1, the least Razorpay can take. Please add another book."


def _request_hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _existing_for_key(scoped_key: str, request_hash: str) -> Order | None:
    order = db.session.scalar(select(Order).where(Order.idempotency_key == scoped_key))
    if order is not None and order.request_hash != request_hash:
        raise Conflict("This Idempotency-Key was already used for a different order.")
    return order


@dataclass(frozen=True)
class Origin:
    """Where an order is placed from: the client's IP and the browser's checkout cookie."""

    ip: str
    browser: str | None = None  # the checkout cookie's digest (bookstore/checkout_cookie.py)


def place_order(data: dict, user: User | None, idempotency_key: str | None = None,
                origin: Origin | None = None) -> tuple[Order, bool]:
    """Create an order from a validated payload; returns (order, created). A retried key returns the first.

    :raise ValidationFailed: unknown or archived books, online payment unavailable.
    :raise Conflict: not enough stock, or the shopper's total is not the server's (with current figures).
    """
    scoped_key = f"{user.id if user else 'guest'}:{idempotency_key}" if idempotency_key else None
    request_hash = _request_hash(data)
    if scoped_key and (existing := _existing_for_key(scoped_key, request_hash)):
        return existing, False
    if data["payment_method"] == "online" and not online_available():
        raise ValidationFailed({"paymentMethod": ["Online payment is not available right now. "
                                                  "Please choose cash on delivery."]})
    orders.release_expired_holds()
    # End any read transaction, so the stock updates below start a fresh write transaction.
    db.session.commit()
    try:
        order = _create(data, user, scoped_key, request_hash, origin)
        db.session.commit()
    except ApiError:
        db.session.rollback()
        # A retry with the same key may have lost the stock to its own original, committed meanwhile.
        if scoped_key and (existing := _existing_for_key(scoped_key, request_hash)):
            return existing, False
        raise
    except IntegrityError:
        db.session.rollback()
        # The same Idempotency-Key raced us and won: answer with its order.
        if scoped_key and (existing := _existing_for_key(scoped_key, request_hash)):
            return existing, False
        raise
    metrics.order_placed(order.payment_method)
    return order, True


def _check_copies_per_line(items: list[dict], most: int) -> None:
    """At most `most` copies of a book (the shop setting maxQuantityPerLine): stock is for students,
    not resellers. :raise ValidationFailed:"""
    if any(item["quantity"] > most for item in items):
        raise ValidationFailed({"orderItems": [f"You can order at most {most} copies of a book. For bulk orders, "
                                               "please write to us through the contact page."]})


def _check_open_cash_orders(data: dict, cap: int) -> None:
    """Cash-on-delivery orders cost the shop a courier each way if refused at the door: at most `cap`
    (the shop setting openCodOrdersPerContact) on their way per phone and per e-mail. :raise Conflict:"""
    if data["payment_method"] != "cod":
        return
    reason = open_cash_orders_refusal(data["address"]["email"], data["address"]["phone"], cap)
    if reason:
        raise Conflict(reason)


def open_cash_orders_refusal(email: str | None, phone: str | None, cap: int) -> str | None:
    """Why this phone or e-mail may not have another cash-on-delivery order (`cap` already on their way), or None."""
    open_cod = select(func.count()).select_from(Order).where(
        Order.payment_method == "cod", Order.status.in_(("pending", "processing", "shipped")))
    if ((phone and db.session.scalar(open_cod.where(Order.phone == phone)) >= cap)
            or (email and db.session.scalar(open_cod.where(Order.email == email.lower())) >= cap)):
        return (f"There are already {cap} cash-on-delivery orders on their way to this phone number or "
                "e-mail address. Please pay online, or order again once one has arrived.")
    return None


# Orders that hold copies without being paid for: online ones awaiting payment and cash-on-delivery ones
# the shop has not confirmed yet (moving an order to processing confirms it).
_UNPAID_HOLD = (Order.status == "pending", Order.payment_status != "paid")


def _one_checkout_at_a_time(origin: Origin | None) -> None:
    """On PostgreSQL, checkouts from one IP or one browser wait for each other (transaction advisory locks,
    IP first, then device, always before any stock row), so parallel orders cannot all pass the cap on
    copies held. SQLite has one writer at a time already."""
    if origin is None or db.session.get_bind().dialect.name != "postgresql":
        return
    for key in (f"held-ip:{origin.ip}", f"held-browser:{origin.browser}" if origin.browser else None):
        if key:
            db.session.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))


def _held_copies(lines: list[OrderLine]) -> int:
    """The printed copies order lines hold (a kit line: its printed books times the kits)."""
    own = sum(line.quantity for line in lines if line.book_id is not None and not line.digital)
    in_kits = sum(line.quantity * part.quantity for line in lines if line.kit_id is not None
                  for part in line.kit_books if not part.digital)
    return own + in_kits


def copies_held(origin: Origin) -> int:
    """Printed copies held by unpaid orders placed from this IP or this browser."""
    who = [Order.placed_ip == origin.ip[:45]]
    if origin.browser:
        who.append(Order.checkout_browser == origin.browser)
    unpaid = (or_(*who), *_UNPAID_HOLD)
    own = select(func.coalesce(func.sum(OrderLine.quantity), 0)).select_from(OrderLine) \
        .join(Order, OrderLine.order_id == Order.id).where(
        *unpaid, OrderLine.book_id.is_not(None), OrderLine.digital.is_(False))
    in_kits = select(func.coalesce(func.sum(OrderLine.quantity * OrderLineBook.quantity), 0)).select_from(OrderLineBook) \
        .join(OrderLine, OrderLineBook.order_line_id == OrderLine.id).join(Order, OrderLine.order_id == Order.id) \
        .where(*unpaid, OrderLineBook.digital.is_(False))
    return (db.session.scalar(own) or 0) + (db.session.scalar(in_kits) or 0)


def _check_copies_held(origin: Origin | None, copies: int, cap: int) -> None:
    """At most `cap` (the shop setting unpaidCopiesPerBuyer) printed copies held by unpaid orders per IP and per
    browser, this order's included: stock waiting for a payment that may never come is stock nobody else can
    buy. :raise Conflict:"""
    if origin is None or copies == 0:
        return
    held = copies_held(origin)
    if held + copies > cap:
        raise Conflict(f"Unpaid orders from your network or browser already hold {held} copies, and at most {cap} "
                       "can wait for payment at a time. Please pay for or cancel them first, or write to us through "
                       "the contact page for a bulk order.", data={"held": held, "limit": cap})


def _confirm_by(payment_method: str, copies: int, shop_rules: delivery.Rules, now):
    """A cash order of more than largeCodCopies printed copies costs the shop most if nobody is at the door:
    it waits LARGE_COD_HOLD_HOURS for the shop to confirm it (move it to processing), else it is cancelled."""
    if payment_method != "cod" or copies <= shop_rules.large_cod_copies:
        return None
    return now + timedelta(hours=current_app.config["LARGE_COD_HOLD_HOURS"])


def _verified_owner(email: str) -> int | None:
    """A guest order with the verified address of an account belongs in that account's My Orders."""
    return db.session.scalar(select(User.id).where(User.email == email.lower(), User.email_verified.is_(True)))


@dataclass
class _Cart:
    """A cart's lines resolved: each line's book or kit, and the kits the shop still sells."""

    items: list[dict]
    keys: list[tuple[str, int]]  # ("book", id) or ("kit", id), one per line
    kits: dict[int, Kit]

    def copies(self) -> dict[int, int]:
        """Copies of each book the cart takes: its own lines plus each kit's books times the kits."""
        needed: dict[int, int] = {}
        for (kind, key), item in zip(self.keys, self.items):
            parts = [(key, 1)] if kind == "book" else [(part.book_id, part.quantity) for part in self.kits[key].items]
            for book_id, per_line in parts:
                needed[book_id] = needed.get(book_id, 0) + per_line * item["quantity"]
        return needed

    def moves(self) -> list[stock.Move]:
        """The stock moves the cart makes: a sale per book line, a kit sale per book of each kit line."""
        moves = []
        for (kind, key), item in zip(self.keys, self.items):
            if kind == "book":
                moves.append(stock.Move(key, -item["quantity"], "sale"))
            else:
                moves.extend(stock.Move(part.book_id, -part.quantity * item["quantity"], "kit_sale")
                             for part in self.kits[key].items)
        return moves

    def kit_holding(self, book_id: int) -> Kit | None:
        """The first of the cart's kits that holds the book, for a refusal's message."""
        return next((kit for kit in self.kits.values() if any(p.book_id == book_id for p in kit.items)), None)


def _resolve(items: list[dict]) -> _Cart:
    """The cart's lines with their kits. :raise ValidationFailed: an id that is no id, a kit no longer sold."""
    keys = [("kit", parse_id(item["kit"])) if item.get("kit") is not None else ("book", parse_id(item["book"]))
            for item in items]
    if any(key is None for kind, key in keys if kind == "book"):
        raise ValidationFailed({"orderItems": ["One of the books in your cart does not exist."]})
    found = kits.in_cart([key for kind, key in keys if kind == "kit" and key])
    missing = next((item["kit"] for (kind, key), item in zip(keys, items) if kind == "kit" and key not in found), None)
    if missing is not None:
        raise ValidationFailed({"orderItems": ["One of the kits in your cart is no longer sold."]},
                               data={"kitId": str(missing)})
    return _Cart(items, keys, found)


def _create(data: dict, user: User | None, scoped_key: str | None, request_hash: str, origin: Origin | None) -> Order:
    items = data["items"]  # one line per book or kit: PlaceOrderSchema refused repeats
    _one_checkout_at_a_time(origin)
    cart = _resolve(items)
    needed = cart.copies()
    shop_rules = delivery.rules()
    _check_copies_per_line(items, shop_rules.max_quantity_per_line)
    ships = _ships(cart)
    if data["payment_method"] == "cod" and ships is not True:
        raise ValidationFailed({"paymentMethod": [digital.ONLINE_ONLY]})
    _check_open_cash_orders(data, shop_rules.open_cod_orders_per_contact)
    if ships is False:
        # Nothing to ship (product §7.11): the bill needs a name, e-mail and phone, not a street.
        data["address"] = {**data["address"], **_NO_ADDRESS}
        place = None
    else:
        _check_address_given(data["address"])
        place = _deliverable_place(data["address"]["zip_code"], shop_rules)
        _check_state_matches_pin(data["address"], place, data.get("confirmed_state_mismatch", False))
    orders.replace_abandoned_checkouts(user, origin and origin.browser, data["address"]["email"], list(needed))
    # One conditional UPDATE per book for all the copies the cart takes of it (its own line and its kits'),
    # in id order so two checkouts of the same books cannot deadlock on PostgreSQL. A kit takes all its books
    # or the refusal rolls the whole order back.
    taken = stock.take(cart.moves())
    if taken.refused is not None:
        _explain_refusal(taken.refused, cart.kit_holding(taken.refused))
    books = {book.id: book for book in db.session.scalars(select(Book).where(Book.id.in_(list(needed))))}
    for book in books.values():
        db.session.refresh(book)  # the UPDATEs above bypassed the identity map
    digital.check_sellable(books.values())
    lines = _lines(cart, books)
    copies = _held_copies(lines)
    _check_copies_held(origin, copies, shop_rules.unpaid_copies_per_buyer)
    figures, basket = _price(lines, books, data, data["address"], user, shop_rules, place)
    if data["payment_method"] == "cod":
        _check_cash_on_delivery(figures, place, shop_rules)
    _check_online_minimum(data, figures)
    if data["client_total_paise"] != figures.total_paise:
        raise Conflict("Prices have changed since you opened your cart. Please review the new total.",
                       data={"current": figures.as_reply()})
    address = data["address"]  # the schema wrote the state's official name and the country as 'India'
    online = data["payment_method"] == "online"
    now = utcnow()
    promise = delivery.estimate(address["zip_code"], now, shop_rules) if ships is not False else None
    order = Order(
        public_id=secrets.token_hex(12), user_id=user.id if user else _verified_owner(address["email"]),
        status="pending",
        payment_method=data["payment_method"], payment_status="awaiting" if online else "pending",
        items_paise=figures.items_paise, shipping_paise=figures.shipping_paise, tax_paise=figures.tax_paise,
        discount_paise=figures.discount_paise, coupon_code=figures.coupon_code, cod_fee_paise=figures.cod_fee_paise,
        total_paise=figures.total_paise,
        payment_expires_at=now + timedelta(minutes=current_app.config["PAYMENT_WINDOW_MINUTES"]) if online else None,
        promised_from=promise and promise.earliest, promised_to=promise and promise.latest, buyer_gstin=data.get("buyer_gstin") or None,
        idempotency_key=scoped_key, request_hash=request_hash, lines=lines,
        checkout_browser=origin and origin.browser,
        placed_ip=origin and origin.ip[:45],
        confirm_by=_confirm_by(data["payment_method"], copies, shop_rules, now),
        history=[OrderStatusChange(status="pending", by="customer", at=now)], **address,
    )
    order.order_number = _new_order_number(now.year)
    if user is not None and ships is not False:
        user.delivery_pin = address["zip_code"]  # the next book page and checkout start from it
    db.session.add(order)
    db.session.flush()
    taken.write(stock.Cause(actor="customer", actor_id=user.id if user else None, order_id=order.id))
    if figures.coupon_code and (refusal := coupons.redeem(figures.verdict, order, basket)):
        # The code's last use, or this customer's, went to another order a moment ago: this total is no longer right.
        refused = coupons.Verdict(figures.coupon_code, reason=refusal)
        raise Conflict("Prices have changed since you opened your cart. Please review the new total.",
                       data={"current": _figures(lines, refused, shop_rules, data["payment_method"], place).as_reply()})
    if not online:
        notifications.order_placed(order)
    return order


# An order of digital lines only stores no street address (the columns stay non-null: empty text).
_NO_ADDRESS = {"address": "", "landmark": "", "city": "", "state": "", "zip_code": "", "address_type": "home",
               "country": "India"}
_ADDRESS_LABELS = {"address": ("address", "Address"), "city": ("city", "City"), "state": ("state", "State"),
                   "zip_code": ("zipCode", "PIN code")}


def _ships(cart: "_Cart") -> bool | None:
    """True: every line is printed; False: every line is an e-book or audiobook (nothing to ship); None: both."""
    book_ids = [key for kind, key in cart.keys if kind == "book"]
    digital_ids = set(db.session.scalars(select(Book.id).where(Book.id.in_(book_ids),
                                                               Book.format.in_(DIGITAL_FORMATS)))) if book_ids else set()
    if not digital_ids and not _kits_hold_digital(cart.kits.values()):
        return True
    return None if any(kind == "kit" or key not in digital_ids for kind, key in cart.keys) else False


def _kits_hold_digital(cart_kits) -> bool:
    """A kit holds an e-book or audiobook (one made before the kit editor refused them, or whose book became
    one): the order is paid online only, like any order with a digital book (product §7.11)."""
    return any(part.book.is_digital for kit in cart_kits for part in kit.items)


def _check_address_given(address: dict) -> None:
    """A cart with a printed book needs the whole shipping address (the schema lets it out for digital carts).
    :raise ValidationFailed: 422 on each missing shippingAddress field."""
    missing = {name: [f"{label} is required."] for key, (name, label) in _ADDRESS_LABELS.items()
               if not address.get(key)}
    if missing:
        raise ValidationFailed({"shippingAddress": missing})


# No 0/O, 1/I/L or 5/S: a number read out over the phone is not misheard. 29^6 ≈ 595 million a year.
ORDER_NUMBER_ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"


def _new_order_number(year: int) -> str:
    """BK-<year>-<6 random letters and digits>: not guessable from another order's number, so the guest
    look-up (number + e-mail) cannot be walked. The unique index settles the (rare) repeat."""
    while True:
        number = f"BK-{year}-" + "".join(secrets.choice(ORDER_NUMBER_ALPHABET) for _ in range(6))
        if db.session.scalar(select(Order.id).where(Order.order_number == number)) is None:
            return number


def _explain_refusal(book_id: int, kit: Kit | None = None):
    """Why the stock update found no row (`kit`: a kit of the cart that needs the book).
    :raise ValidationFailed: :raise Conflict:"""
    book = db.session.get(Book, book_id)
    if book is None or book.archived:
        raise ValidationFailed({"orderItems": ["One of the books in your cart is no longer sold."]},
                               data={"bookId": str(book_id)})
    left = book.stock
    message = (f"Sorry, '{book.title}' is out of stock." if left == 0
               else f"Only {left} {'copy' if left == 1 else 'copies'} of '{book.title}' {'is' if left == 1 else 'are'} left.")
    reply = {"bookId": str(book_id), "available": left}
    if kit is not None:
        message = f"{message} It is part of the kit '{kit.name}'."
        reply["kitId"] = str(kit.id)
    raise Conflict(message, data=reply)


@dataclass
class Figures:
    """An order's money, as the server computes it: books, coupon discount, shipping, tax, total."""

    lines: list
    items_paise: int
    verdict: coupons.Verdict | None
    shipping_paise: int
    cod_fee_paise: int = 0
    tax_paise: int = TAX_PAISE
    cod: dict | None = None  # the quote's answer on cash on delivery: {available, reason}

    @property
    def discount_paise(self) -> int:
        return self.verdict.discount_paise if self.verdict and self.verdict.applies else 0

    @property
    def coupon_code(self) -> str | None:
        return self.verdict.code if self.verdict and self.verdict.applies else None

    @property
    def total_paise(self) -> int:
        return self.items_paise - self.discount_paise + self.shipping_paise + self.cod_fee_paise + self.tax_paise

    def as_reply(self) -> dict:
        """The figures in the API's words (rupees), as a 409 and the quote show them."""
        reply = {
            "orderItems": [{"book": line.book_id and str(line.book_id), "kit": line.kit_id and str(line.kit_id),
                            "title": line.title, "price": money.to_rupees(line.unit_price_paise),
                            "quantity": line.quantity, "digital": bool(line.digital)} for line in self.lines],
            # Every line digital: checkout asks no address and offers online payment only.
            "digitalOnly": bool(self.lines) and all(line.digital for line in self.lines),
            "itemsPrice": money.to_rupees(self.items_paise), "discount": money.to_rupees(self.discount_paise),
            "shippingPrice": money.to_rupees(self.shipping_paise), "codFee": money.to_rupees(self.cod_fee_paise),
            "taxPrice": money.to_rupees(self.tax_paise),
            "totalPrice": money.to_rupees(self.total_paise),
        }
        if self.cod is not None:
            reply["cashOnDelivery"] = self.cod
        if self.verdict:
            reply["coupon"] = {"code": self.verdict.code, "applied": self.verdict.applies,
                               "discount": money.to_rupees(self.discount_paise), "reason": self.verdict.reason}
        return reply


def _figures(lines: list[OrderLine], verdict: coupons.Verdict | None, shop_rules: delivery.Rules,
             payment_method: str | None, place) -> Figures:
    """Books, coupon, shipping (free above the shop's threshold, if any, else the fee of the PIN's zone or the
    flat fee) and the COD fee, from the shop's rules."""
    items = sum(line.line_total_paise for line in lines)
    figures = Figures(lines, items, verdict, shipping_paise=0)
    # Downloads cost no courier: an order of digital lines only pays no shipping (product §7.11).
    if not all(line.digital for line in lines):
        figures.shipping_paise = shop_rules.shipping_for(items - figures.discount_paise, place)
    figures.cod_fee_paise = shop_rules.cod_fee_paise if payment_method == "cod" else 0
    return figures


def _deliverable_place(pin: str, shop_rules: delivery.Rules):
    """The directory's place for a PIN. :raise ValidationFailed: the shop has ruled the PIN out."""
    place = delivery.lookup(pin)
    if place is not None and not shop_rules.serviceable(place):
        raise ValidationFailed({"shippingAddress": {"zipCode": [delivery.UNSERVICEABLE_MESSAGE]}})
    return place


def _check_state_matches_pin(address: dict, place, confirmed: bool) -> None:
    """The state must be the PIN's, unless the shopper confirmed theirs (the directory can be wrong, and
    a few PINs straddle two states). The schema has already made the state its official name.
    :raise ValidationFailed: 422 on shippingAddress.state."""
    state = address["state"]
    if place is not None and place.state and state != place.state and not confirmed:
        raise ValidationFailed({"shippingAddress": {"state": [
            f"PIN code {address['zip_code']} is in {place.state}, not {state}. Please correct the state or "
            "the PIN code, or confirm that the address is right."]}})


def cash_on_delivery_refusal(figures: Figures, place, shop_rules: delivery.Rules) -> str | None:
    """Why cash on delivery cannot be offered for this order, or None when it can."""
    if not shop_rules.cod_for(place):
        return ("Cash on delivery is not available for this PIN code. Please pay online."
                if place is not None else "We can't confirm cash on delivery to this PIN code. Please pay online.")
    if figures.total_paise > shop_rules.cod_limit_paise:
        return (f"Cash on delivery is available for orders up to {money.rupees_text(shop_rules.cod_limit_paise)}. "
                "Please pay online.")
    return None


def _check_cash_on_delivery(figures: Figures, place, shop_rules: delivery.Rules) -> None:
    """:raise ValidationFailed: 422 on paymentMethod with the rule the order breaks."""
    reason = cash_on_delivery_refusal(figures, place, shop_rules)
    if reason:
        raise ValidationFailed({"paymentMethod": [reason]})


def _lines(cart: _Cart, books: dict[int, Book]) -> list[OrderLine]:
    """The order's lines as they are sold now: title, author, cover and price copied from each book; a kit's
    name and kit price, with the books it holds."""
    lines = []
    for (kind, key), item in zip(cart.keys, cart.items):
        if kind == "book":
            book = books[key]
            lines.append(OrderLine(book_id=key, title=book.title, author=book.author,
                                   image_url=media_url(book.thumbnail_key or book.cover_key),
                                   unit_price_paise=book.sale_price_paise, quantity=item["quantity"],
                                   digital=book.is_digital))
            continue
        kit = cart.kits[key]
        count = sum(part.quantity for part in kit.items)
        lines.append(OrderLine(
            kit_id=key, title=kit.name, author=f"Kit of {count} {'book' if count == 1 else 'books'}", image_url=None,
            unit_price_paise=kit.price_paise, quantity=item["quantity"],
            kit_books=[OrderLineBook(book_id=part.book_id, title=part.book.title, quantity=part.quantity,
                                     unit_price_paise=part.book.sale_price_paise, digital=part.book.is_digital)
                       for part in kit.items]))
    return lines


def _price(lines: list[OrderLine], books: dict[int, Book], data: dict, contact: dict, user: User | None,
           shop_rules: delivery.Rules, place) -> tuple["Figures", coupons.Basket]:
    """The lines' figures with the coupon's verdict for this buyer, shipped to `place` (None: no or an unknown
    PIN), and the basket the coupon was judged on."""
    # A kit is on no shelf: a coupon for one category does not cover it.
    basket = coupons.Basket([(line.line_total_paise, books[line.book_id].category_id if line.book_id else None)
                             for line in lines],
                            email=contact.get("email"), phone=contact.get("phone"),
                            user_id=user.id if user else None)
    verdict = coupons.evaluate(data.get("coupon_code"), basket)
    figures = _figures(lines, verdict, shop_rules, data.get("payment_method"), place)
    if figures.discount_paise and figures.total_paise < MIN_ONLINE_PAISE and _paid_online(data, lines):
        # The coupon would leave less than Razorpay takes: it does not apply, and the quote says why.
        verdict = coupons.Verdict(verdict.code, verdict.coupon, reason=UNDER_A_RUPEE_COUPON)
        figures = _figures(lines, verdict, shop_rules, data.get("payment_method"), place)
    return figures, basket


def _paid_online(data: dict, lines: list[OrderLine]) -> bool:
    """The order is (or, holding a download, can only be) paid online."""
    return data.get("payment_method") == "online" or _holds_digital(lines)


def _holds_digital(lines: list[OrderLine]) -> bool:
    """A line, or a book inside a kit line, is an e-book or audiobook."""
    return any(line.digital or any(part.digital for part in line.kit_books) for line in lines)


def _check_online_minimum(data: dict, figures: Figures) -> None:
    """:raise ValidationFailed: 422 on orderItems when an online order comes to less than ₹1 (a book sold
    under ₹1), which Razorpay would refuse to take."""
    if figures.total_paise < MIN_ONLINE_PAISE and _paid_online(data, figures.lines):
        raise ValidationFailed({"orderItems": [UNDER_A_RUPEE]})


def quote(data: dict, user: User | None) -> Figures:
    """What an order of these lines would cost now, with the coupon's verdict (the cart and checkout
    show it; placing the order computes the same figures again). Unknown or archived books are refused
    like at checkout; stock is not taken. :raise ValidationFailed:"""
    cart = _resolve(data["items"])
    needed = cart.copies()
    books = {book.id: book for book in db.session.scalars(
        select(Book).where(Book.id.in_(list(needed)), Book.archived.is_(False)))}
    if any(book_id not in books for book_id in needed):
        raise ValidationFailed({"orderItems": ["One of the books in your cart is no longer sold."]})
    digital.check_sellable(books.values())
    shop_rules = delivery.rules()
    place = delivery.lookup(data["zip_code"]) if data.get("zip_code") else None
    lines = _lines(cart, books)
    figures, _ = _price(lines, books, data,
                              {"email": data.get("email"), "phone": data.get("phone")}, user, shop_rules, place)
    _check_online_minimum(data, figures)
    if _holds_digital(lines):
        figures.cod = {"available": False, "reason": digital.ONLINE_ONLY}
    elif data.get("zip_code"):
        reason = (cash_on_delivery_refusal(figures, place, shop_rules)
                  or open_cash_orders_refusal(data.get("email"), data.get("phone"), shop_rules.open_cod_orders_per_contact))
        figures.cod = {"available": reason is None, "reason": reason}
    return figures
