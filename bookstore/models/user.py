"""Shopper and administrator accounts."""
from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin

ROLES = ("customer", "admin")


class User(TimestampMixin, db.Model):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('customer', 'admin')", name="role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # Stored lower-cased, so the unique index makes e-mails unique case-insensitively.
    email: Mapped[str] = mapped_column(String(254), unique=True)
    # Empty for accounts created through an external sign-in that never set a password.
    password_hash: Mapped[str | None] = mapped_column(String(255))
    first_name: Mapped[str] = mapped_column(String(100))
    last_name: Mapped[str] = mapped_column(String(100))
    phone: Mapped[str | None] = mapped_column(String(20))
    role: Mapped[str] = mapped_column(String(20), default="customer")
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    # A new address asked for in the profile: it replaces `email` once its link is opened; until then the
    # account's address (sign-in, resets, order mails) stays `email`. Not unique: no one owns it yet.
    pending_email: Mapped[str | None] = mapped_column(String(254))
    # Tokens issued before this moment are refused (password change, reset).
    tokens_valid_after: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The OpenID Connect subject of a linked Google account. A unique index, not a constraint,
    # so SQLite adds it without rebuilding the users table.
    google_subject: Mapped[str | None] = mapped_column(String(255), unique=True, index=True)
    # The PIN the shopper last checked or ordered to: the book page and checkout start from it on any device.
    delivery_pin: Mapped[str | None] = mapped_column(String(6))
    # Set when the shopper closed the account: personal data erased, orders kept (services/account_closing.py).
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"
