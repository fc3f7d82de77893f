"""Column helpers shared by the models."""
from datetime import datetime, timezone

from sqlalchemy import DateTime
from sqlalchemy.orm import Mapped, mapped_column


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
