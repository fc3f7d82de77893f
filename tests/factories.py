"""Build test data with sensible defaults for every field: users, books and messages straight in the
database; orders through the real API (POST /api/orders), from one payload builder."""
import itertools
from datetime import date, datetime, timedelta, timezone
from typing import NamedTuple

from flask import current_app
from werkzeug.security import generate_password_hash

from bookstore.extensions import db
from bookstore.models import Book, Category, ContactMessage, User

_sequence = itertools.count(1)
# Hashing is deliberately slow; tests reuse one cheap hash per password.
_HASHES: dict[str, str] = {}


def isbn13(serial: int) -> str:
    """A valid ISBN-13 made from a serial number."""
    core = f"97893{serial:07d}"
    total = sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(core))
    return core + str((10 - total % 10) % 10)


SHIPPING_PAISE = 4000

ADDRESS = {
    "firstName": "Asha", "lastName": "Verma", "email": "asha@example.in", "phone": "9876543210",
    "address": "12, MG Road", "landmark": "Near the temple", "city": "Bengaluru", "state": "Karnataka",
    "zipCode": "560001", "country": "India", "addressType": "home",
}


class BookInfo(NamedTuple):
    """What a shopper's cart knows of a book, for order_payload when there is no Book row at hand."""

    id: int
    title: str
    sale_price_paise: int


def rupees(paise: int):
    """Paise as the API shows rupees: a whole number, or at most 2 decimals."""
    return paise // 100 if paise % 100 == 0 else paise / 100


def server_total_paise(books_and_quantities) -> int:
    """What the shop charges for (book, quantity) pairs before any coupon: the books plus shipping."""
    return sum(book.sale_price_paise * quantity for book, quantity in books_and_quantities) + SHIPPING_PAISE


def order_payload(books_and_quantities, method: str = "cod", **changes) -> dict:
    """A valid POST /api/orders payload for (book, quantity) pairs whose totalPrice is the server's;
    `changes` override top-level fields (shippingAddress, couponCode, totalPrice, ...)."""
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
    """Place an order through the API and return the response (for tests of refusals)."""
    return client.post("/api/orders", json=order_payload(books_and_quantities, method, **changes),
                       headers=headers or {})


def placed(client, books_and_quantities, method: str = "cod", headers=None, **changes) -> dict:
    """Place an order that must succeed; returns the order as the API shows it."""
    response = place(client, books_and_quantities, method, headers, **changes)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["order"]


class Factories:
    def order(self, books_and_quantities=None, *, client=None, method: str = "cod", headers=None,
              **changes) -> dict:
        """An order placed through the API (a guest's, unless `headers` sign someone in); without
        books, one copy of a new book. Returns the order as the API shows it."""
        lines = books_and_quantities or [(self.book(), 1)]
        return placed(client or current_app.test_client(), lines, method, headers, **changes)

    def category(self, slug: str = "gate") -> Category:
        return db.session.scalar(db.select(Category).where(Category.slug == slug))

    def user(self, *, email: str | None = None, password: str = "secret-pass", role: str = "customer",
             first_name: str = "Asha", last_name: str = "Verma", phone: str | None = None,
             email_verified: bool = False) -> User:
        if password not in _HASHES:
            _HASHES[password] = generate_password_hash(password, method="pbkdf2:sha256:1000")
        user = User(email=(email or f"user{next(_sequence)}@example.in").lower(), password_hash=_HASHES[password],
                    role=role, first_name=first_name, last_name=last_name, phone=phone,
                    email_verified=email_verified)
        db.session.add(user)
        db.session.commit()
        return user

    def book(self, *, title: str | None = None, category: str = "gate", price_paise: int = 49900,
             discounted_price_paise: int | None = None, stock: int = 10, created_at: datetime | None = None,
             **fields) -> Book:
        n = next(_sequence)
        book = Book(
            title=title or f"Test Book {n}",
            author=fields.pop("author", "Test Author"),
            category=self.category(category),
            price_paise=price_paise,
            discounted_price_paise=discounted_price_paise,
            stock=stock,
            isbn=fields.pop("isbn", isbn13(n)),
            description=fields.pop("description", "A book made by the tests."),
            publisher=fields.pop("publisher", "Test Press"),
            publication_date=fields.pop("publication_date", date(2024, 1, 1)),
            created_at=created_at or datetime.now(timezone.utc) - timedelta(minutes=n),
            tags=fields.pop("tags", []),
            **fields,
        )
        db.session.add(book)
        db.session.commit()
        return book

    def contact(self, **fields) -> ContactMessage:
        message = ContactMessage(**{"name": "Ravi", "email": "ravi@example.in", "subject": "general",
                                    "message": "Where is my order?", **fields})
        db.session.add(message)
        db.session.commit()
        return message


def count(model) -> int:
    """Rows of a model, for "bad input changes nothing" checks."""
    return db.session.scalar(db.select(db.func.count()).select_from(model))
