"""Build test data straight in the database, with sensible defaults for every field."""
import itertools
from datetime import date, datetime, timedelta, timezone

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


class Factories:
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
