"""Column helpers shared by the models."""
from datetime import datetime, timezone

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, declared_attr, mapped_column


MAX_ID = 2**31 - 1  # INTEGER primary keys on PostgreSQL


def parse_id(text: str) -> int | None:
    """An integer primary key from text, or None: ASCII digits only (not '²' or '१'), within range."""
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if 0 < value <= MAX_ID else None


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class TimestampMixin:
    """created_at and updated_at, both UTC and set by the application."""

    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class AddressMixin:
    """A delivery address as the shopper gives it: a saved address, and the copy an order keeps (which
    narrows `state` and `zip_code` to what checkout accepts)."""

    first_name: Mapped[str] = mapped_column(String(100))
    last_name: Mapped[str] = mapped_column(String(100))
    phone: Mapped[str] = mapped_column(String(20))
    address: Mapped[str] = mapped_column(String(300))
    landmark: Mapped[str] = mapped_column(String(200), default="")
    city: Mapped[str] = mapped_column(String(100))
    state: Mapped[str] = mapped_column(String(100))
    zip_code: Mapped[str] = mapped_column(String(10))
    country: Mapped[str] = mapped_column(String(40), default="India")
    address_type: Mapped[str] = mapped_column(String(10), default="home")


class KitPartMixin:
    """One book of a kit and its copies per kit: the kit's own (KitBook), or as an order line sold the kit
    (OrderLineBook). RESTRICT: a book in a kit is archived, not deleted (services/inventory.py asks first)."""

    @declared_attr.directive
    def __table_args__(cls) -> tuple:
        return (CheckConstraint("quantity > 0", name="quantity_positive"),
                Index(f"ix_{cls.__tablename__}_book_id", "book_id"))

    book_id: Mapped[int] = mapped_column(ForeignKey("books.id"), primary_key=True)
    quantity: Mapped[int] = mapped_column(default=1)
