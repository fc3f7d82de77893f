"""A shopper's saved books."""
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import utcnow
from bookstore.models.book import Book


class WishlistItem(db.Model):
    __tablename__ = "wishlist_items"
    __table_args__ = (Index("ix_wishlist_items_book_id", "book_id"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    book_id: Mapped[int] = mapped_column(ForeignKey("books.id", ondelete="CASCADE"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    book: Mapped[Book] = relationship(lazy="joined", innerjoin=True)
