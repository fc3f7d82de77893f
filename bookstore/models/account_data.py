"""What a signed-in shopper keeps on the server besides the account: the cart and saved addresses."""
from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import AddressMixin, TimestampMixin, utcnow
from bookstore.models.book import Book

MAX_ADDRESSES = 10


class CartLine(db.Model):
    """One line of a signed-in shopper's cart: the whole cart is replaced at once (PUT /api/cart)."""

    __tablename__ = "cart_lines"
    __table_args__ = (Index("ix_cart_lines_book_id", "book_id"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    book_id: Mapped[int] = mapped_column(ForeignKey("books.id", ondelete="CASCADE"), primary_key=True)
    quantity: Mapped[int]
    # The order the shopper added the lines in, kept so every device lists them alike.
    position: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    book: Mapped[Book] = relationship(lazy="joined", innerjoin=True)


class SavedAddress(AddressMixin, TimestampMixin, db.Model):
    """A delivery address in a shopper's address book (at most MAX_ADDRESSES, at most one default)."""

    __tablename__ = "saved_addresses"
    __table_args__ = (
        # At most one default per account, whatever two requests do at once.
        Index("uq_saved_addresses_default", "user_id", unique=True,
              sqlite_where=text("is_default"), postgresql_where=text("is_default")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    is_default: Mapped[bool] = mapped_column(Boolean, default=False)
