"""Buyers' ratings and reviews of books: one per buyer per book, published at once, hidden by an admin with a reason."""
from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin
from bookstore.models.book import EditionRef
from bookstore.models.user import User

REVIEW_STATUSES = ("published", "hidden")


class Review(TimestampMixin, db.Model):
    __tablename__ = "reviews"
    __table_args__ = (
        UniqueConstraint("book_id", "user_id"),
        CheckConstraint("stars >= 1 AND stars <= 5", name="stars_range"),
        CheckConstraint("status IN ('published', 'hidden')", name="status"),
        # A book's published reviews, newest first; the admin list by status, newest first.
        Index("ix_reviews_book_status_created", "book_id", "status", "created_at"),
        Index("ix_reviews_status_created", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    book_id: Mapped[int] = mapped_column(ForeignKey("books.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    stars: Mapped[int]
    title: Mapped[str] = mapped_column(String(120), default="")
    text: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(10), default="published")
    # Why an administrator hid it (kept when it is published again, for the record).
    hidden_reason: Mapped[str | None] = mapped_column(String(500))

    user: Mapped[User] = relationship(lazy="joined", innerjoin=True)
    # A few columns of the book (id, title), without its exams and editions.
    book: Mapped[EditionRef] = relationship(EditionRef, lazy="joined", innerjoin=True, viewonly=True)
