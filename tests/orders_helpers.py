"""Helpers shared by the order, payment and admin-order tests: a valid payload and a placer."""
from datetime import timedelta

from sqlalchemy import update

from bookstore.extensions import db
from bookstore.models import Book, Order, OutboxMail, utcnow

SHIPPING_PAISE = 4000

ADDRESS = {
    "firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "phone": "9876543210",
    "address": "12, MG Road", "landmark": "Near the temple", "city": "Bengaluru", "state": "Karnataka",
    "zipCode": "560001", "country": "India", "addressType": "home",
}


def rupees(paise: int):
    """Paise as the API shows rupees: a whole number, or at most 2 decimals."""
    return paise // 100 if paise % 100 == 0 else paise / 100


def server_total_paise(books_and_quantities) -> int:
    return sum(book.sale_price_paise * quantity for book, quantity in books_and_quantities) + SHIPPING_PAISE


def body(books_and_quantities, method: str = "cod", **changes) -> dict:
    """A valid POST /api/orders payload whose totalPrice is the server's; `changes` override fields."""
    payload = {
        "orderItems": [{"book": str(book.id), "quantity": quantity, "title": book.title,
                        "price": rupees(book.sale_price_paise)} for book, quantity in books_and_quantities],
        "shippingAddress": dict(ADDRESS),
        "paymentMethod": method,
        "itemsPrice": rupees(server_total_paise(books_and_quantities) - SHIPPING_PAISE),
        "taxPrice": 0,
        "shippingPrice": rupees(SHIPPING_PAISE),
        "totalPrice": rupees(server_total_paise(books_and_quantities)),
    }
    payload.update(changes)
    return payload


def place(client, books_and_quantities, method: str = "cod", headers=None, **changes):
    """Place an order through the API and return the response."""
    return client.post("/api/orders", json=body(books_and_quantities, method, **changes), headers=headers or {})


def placed(client, books_and_quantities, method: str = "cod", headers=None, **changes) -> dict:
    """Place an order that must succeed; returns the order as the API shows it."""
    response = place(client, books_and_quantities, method, headers, **changes)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["order"]


def order_row(public_id: str) -> Order:
    """The order as stored now (not a stale copy from the session)."""
    db.session.expire_all()
    return db.session.scalar(db.select(Order).where(Order.public_id == public_id))


def book_row(book: Book) -> Book:
    db.session.expire_all()
    return db.session.get(Book, book.id)


def stock_of(book: Book) -> tuple[int, int]:
    """(stock, copies_sold) as stored now."""
    row = book_row(book)
    return row.stock, row.copies_sold


def set_order(public_id: str, **values) -> None:
    """Change an order's row directly (move its clock back, and so on)."""
    db.session.execute(update(Order).where(Order.public_id == public_id).values(**values))
    db.session.commit()
    db.session.expire_all()


def expire_payment_window(public_id: str) -> None:
    set_order(public_id, payment_expires_at=utcnow() - timedelta(minutes=1))


def outbox_subjects() -> list[str]:
    db.session.expire_all()
    return [mail.subject for mail in db.session.scalars(db.select(OutboxMail).order_by(OutboxMail.id))]


def subjects(smtp_sink) -> list[str]:
    return [str(message["Subject"]) for message in smtp_sink.messages]


def assert_refused(response, status: int, message: str | None = None, field: str | None = None) -> dict:
    """The error envelope: success false, a human message, and errors for validation."""
    assert response.status_code == status, response.get_json()
    reply = response.get_json()
    assert reply["success"] is False and isinstance(reply["message"], str) and reply["message"]
    if message is not None:
        assert reply["message"] == message, reply
    if field is not None:
        assert field in reply["errors"], reply
    if status != 422:
        assert "errors" not in reply
    return reply
