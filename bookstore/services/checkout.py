"""Placing an order: priced from the database, stock taken in the same transaction, retry-safe."""
import hashlib
import json
import secrets
from datetime import timedelta

from flask import current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from bookstore.errors import ApiError, Conflict, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Book, Order, OrderLine, OrderStatusChange, User, parse_id, utcnow
from bookstore.observability import metrics
from bookstore.services import notifications, orders, stock
from bookstore.services.razorpay_gateway import online_available
from bookstore.services.india import canonical_state
from bookstore.services.storage import public_url

SHIPPING_PAISE = 4000  # flat ₹40 per order (spec §9)
TAX_PAISE = 0


def _request_hash(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _existing_for_key(scoped_key: str, request_hash: str) -> Order | None:
    order = db.session.scalar(select(Order).where(Order.idempotency_key == scoped_key))
    if order is not None and order.request_hash != request_hash:
        raise Conflict("This Idempotency-Key was already used for a different order.")
    return order


def place_order(data: dict, user: User | None, idempotency_key: str | None = None) -> tuple[Order, bool]:
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
        order = _create(data, user, scoped_key, request_hash)
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


def _check_open_cash_orders(data: dict) -> None:
    """Cash-on-delivery orders cost the shop a courier each way if refused at the door: at most
    OPEN_COD_ORDERS_PER_CONTACT on their way per phone and per e-mail. :raise Conflict:"""
    if data["payment_method"] != "cod":
        return
    cap = current_app.config["OPEN_COD_ORDERS_PER_CONTACT"]
    open_cod = select(func.count()).select_from(Order).where(
        Order.payment_method == "cod", Order.status.in_(("pending", "processing", "shipped")))
    address = data["address"]
    if (db.session.scalar(open_cod.where(Order.phone == address["phone"])) >= cap
            or db.session.scalar(open_cod.where(Order.email == address["email"].lower())) >= cap):
        raise Conflict(f"There are already {cap} cash-on-delivery orders on their way to this phone number or "
                       "e-mail address. Please pay online, or order again once one has arrived.")


def _verified_owner(email: str) -> int | None:
    """A guest order with the verified address of an account belongs in that account's My Orders."""
    return db.session.scalar(select(User.id).where(User.email == email.lower(), User.email_verified.is_(True)))


def _create(data: dict, user: User | None, scoped_key: str | None, request_hash: str) -> Order:
    ids = [parse_id(item["book"]) for item in data["items"]]
    if None in ids:
        raise ValidationFailed({"orderItems": ["One of the books in your cart does not exist."]})
    if len(set(ids)) != len(ids):
        raise ValidationFailed({"orderItems": ["Each book may appear only once; change its quantity instead."]})
    items = data["items"]
    _check_open_cash_orders(data)
    orders.replace_abandoned_checkouts(user, data["address"]["email"], ids)
    # Lock rows in id order so two checkouts of the same books cannot deadlock on PostgreSQL.
    for book_id, item in sorted(zip(ids, items), key=lambda pair: pair[0]):
        if not stock.take(book_id, item["quantity"]):
            _explain_refusal(book_id, item["quantity"])
    books = {book.id: book for book in db.session.scalars(select(Book).where(Book.id.in_(ids)))}
    for book in books.values():
        db.session.refresh(book)  # the UPDATEs above bypassed the identity map
    lines = [OrderLine(book_id=book_id, title=books[book_id].title, author=books[book_id].author,
                       image_url=public_url(books[book_id].thumbnail_key or books[book_id].cover_key),
                       unit_price_paise=books[book_id].sale_price_paise, quantity=item["quantity"])
             for book_id, item in zip(ids, items)]
    items_paise = sum(line.line_total_paise for line in lines)
    total_paise = items_paise + SHIPPING_PAISE + TAX_PAISE
    if data["client_total_paise"] != total_paise:
        raise Conflict("Prices have changed since you opened your cart. Please review the new total.",
                       data={"current": _current_figures(lines, items_paise, total_paise)})
    address = dict(data["address"])
    address["state"] = canonical_state(address["state"])
    address["country"] = "India"
    online = data["payment_method"] == "online"
    now = utcnow()
    order = Order(
        public_id=secrets.token_hex(12), user_id=user.id if user else _verified_owner(address["email"]),
        status="pending",
        payment_method=data["payment_method"], payment_status="awaiting" if online else "pending",
        items_paise=items_paise, shipping_paise=SHIPPING_PAISE, tax_paise=TAX_PAISE, total_paise=total_paise,
        payment_expires_at=now + timedelta(minutes=current_app.config["PAYMENT_WINDOW_MINUTES"]) if online else None,
        idempotency_key=scoped_key, request_hash=request_hash, lines=lines,
        history=[OrderStatusChange(status="pending", by="customer", at=now)], **address,
    )
    order.order_number = _new_order_number(now.year)
    db.session.add(order)
    db.session.flush()
    if not online:
        notifications.order_placed(order)
    return order


# No 0/O, 1/I/L or 5/S: a number read out over the phone is not misheard. 29^6 ≈ 595 million a year.
ORDER_NUMBER_ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"


def _new_order_number(year: int) -> str:
    """BK-<year>-<6 random letters and digits>: not guessable from another order's number, so the guest
    look-up (number + e-mail) cannot be walked. The unique index settles the (rare) repeat."""
    while True:
        number = f"BK-{year}-" + "".join(secrets.choice(ORDER_NUMBER_ALPHABET) for _ in range(6))
        if db.session.scalar(select(Order.id).where(Order.order_number == number)) is None:
            return number


def _explain_refusal(book_id: int, quantity: int):
    """Why the stock update found no row. :raise ValidationFailed: :raise Conflict:"""
    book = db.session.get(Book, book_id)
    if book is None or book.archived:
        raise ValidationFailed({"orderItems": ["One of the books in your cart is no longer sold."]},
                               data={"bookId": str(book_id)})
    left = book.stock
    message = (f"Sorry, '{book.title}' is out of stock." if left == 0
               else f"Only {left} {'copy' if left == 1 else 'copies'} of '{book.title}' {'is' if left == 1 else 'are'} left.")
    raise Conflict(message, data={"bookId": str(book_id), "available": left})


def _current_figures(lines: list[OrderLine], items_paise: int, total_paise: int) -> dict:
    rupees = lambda paise: paise // 100 if paise % 100 == 0 else paise / 100  # noqa: E731
    return {
        "orderItems": [{"book": str(line.book_id), "title": line.title, "price": rupees(line.unit_price_paise),
                        "quantity": line.quantity} for line in lines],
        "itemsPrice": rupees(items_paise), "shippingPrice": rupees(SHIPPING_PAISE), "taxPrice": 0,
        "totalPrice": rupees(total_paise),
    }
