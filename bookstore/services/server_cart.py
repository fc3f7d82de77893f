"""A signed-in shopper's cart on the server: read, and replaced whole (the browser merges at sign-in)."""
from sqlalchemy import delete, select

from bookstore.errors import ValidationFailed
from bookstore.extensions import db
from bookstore.models import Book, CartLine, User, parse_id, utcnow
from bookstore.services import delivery


def lines(user: User) -> list[CartLine]:
    """The saved lines of books shoppers can still buy, in the order they were added."""
    return list(db.session.scalars(
        select(CartLine).join(Book).where(CartLine.user_id == user.id, Book.archived.is_(False))
        .order_by(CartLine.position, CartLine.book_id)))


def replace(user: User, items: list[dict]) -> list[CartLine]:
    """Make `items` ([{book, quantity}], validated for shape) the account's cart; nothing changes on a refusal.

    :raise ValidationFailed: an unknown or archived book, or more copies than the shop's copies per line.
    """
    ids = [parse_id(item["book"]) for item in items]
    known = set(db.session.scalars(select(Book.id).where(Book.id.in_([i for i in ids if i]),
                                                             Book.archived.is_(False)))) if any(ids) else set()
    if any(book_id not in known for book_id in ids):
        raise ValidationFailed({"items": ["One of the books in the cart is not sold any more."]})
    most = delivery.rules().max_quantity_per_line
    if any(item["quantity"] > most for item in items):
        raise ValidationFailed({"items": [f"At most {most} copies of a book per order."]})
    db.session.execute(delete(CartLine).where(CartLine.user_id == user.id))
    now = utcnow()
    db.session.add_all(CartLine(user_id=user.id, book_id=book_id, quantity=item["quantity"], position=position,
                                updated_at=now)
                       for position, (book_id, item) in enumerate(zip(ids, items)))
    db.session.commit()
    return lines(user)
