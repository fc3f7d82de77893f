"""Newsletter subscribers; an address counts only once its owner confirms it (double opt-in)."""
from datetime import datetime

from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin


class NewsletterSubscriber(TimestampMixin, db.Model):
    __tablename__ = "newsletter_subscribers"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    # Random token for the confirmation link, cleared once used.
    confirm_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the confirmation mail went out: for a week, signing up again sends no other.
    confirmation_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    unsubscribed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
