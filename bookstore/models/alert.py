"""Shoppers' "notify me" alerts on a book: back in stock, or a newer edition added; e-mailed once."""
from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin
from bookstore.models.book import EditionRef

ALERT_KINDS = ("back-in-stock", "new-edition")


class BookAlert(TimestampMixin, db.Model):
    __tablename__ = "book_alerts"
    __table_args__ = (
        UniqueConstraint("email", "book_id", "kind"),
        CheckConstraint("kind IN ('back-in-stock', 'new-edition')", name="kind"),
        # The job reads a book's alerts of one kind.
        Index("ix_book_alerts_book_kind", "book_id", "kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # Lower-cased, like every stored address.
    email: Mapped[str] = mapped_column(String(254))
    book_id: Mapped[int] = mapped_column(ForeignKey("books.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    # The signed-in shopper who asked, if any (a guest's alert has none).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    # Set when the address is confirmed (double opt-in) or at once for a verified account: active from then.
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the confirmation mail went out: while its link is valid, asking again sends no other.
    confirmation_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Set, by a conditional UPDATE, in the transaction that queues the alert's mail: it is never sent twice.
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # New-edition alerts: the newer edition the shopper could already see when asking (or was told about),
    # which is not news.
    known_edition_id: Mapped[int | None]

    # A few columns of the book (id, title), for the shopper's list.
    book: Mapped[EditionRef] = relationship(EditionRef, lazy="joined", innerjoin=True, viewonly=True)
