"""A shopper's wishlist: adding and removing are idempotent."""
from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import Book, User, WishlistItem, parse_id
from bookstore.services.catalogue import get_book


def items(user: User) -> list[WishlistItem]:
    """Saved books that shoppers can still see, newest first."""
    return list(db.session.scalars(
        select(WishlistItem).join(Book).where(WishlistItem.user_id == user.id, Book.archived.is_(False))
        .order_by(WishlistItem.created_at.desc(), WishlistItem.book_id.desc())
    ))


def add(user: User, book_id: str) -> bool:
    """Save a book; True when it was not saved before. :raise NotFound: for unknown books."""
    book = get_book(book_id)
    if db.session.get(WishlistItem, (user.id, book.id)) is not None:
        return False
    db.session.add(WishlistItem(user_id=user.id, book_id=book.id))
    try:
        db.session.commit()
    except Exception:
        # The same book saved twice at once: the primary key keeps one, which is what was asked.
        db.session.rollback()
        if db.session.get(WishlistItem, (user.id, book.id)) is None:
            raise
        return False
    return True


def remove(user: User, book_id: str) -> None:
    """Forget a saved book; removing one that is not there is not an error."""
    key = parse_id(book_id)
    if key:
        item = db.session.get(WishlistItem, (user.id, key))
        if item is not None:
            db.session.delete(item)
            db.session.commit()
