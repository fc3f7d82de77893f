"""Single-use links sent by e-mail, and access tokens revoked by logout."""
from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db
from bookstore.models.base import utcnow

TOKEN_PURPOSES = ("verify-email", "reset-password")


class AccountToken(db.Model):
    """An e-mailed link's token. Only its SHA-256 is stored, so a database leak reveals no live link."""

    __tablename__ = "account_tokens"
    __table_args__ = (
        CheckConstraint("purpose IN ('verify-email', 'reset-password')", name="purpose"),
        Index("ix_account_tokens_user_purpose", "user_id", "purpose"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    purpose: Mapped[str] = mapped_column(String(20))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The address the link was sent to: verifying proves this address, not a later one.
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RevokedToken(db.Model):
    """The jti of an access token ended by logout, kept until the token would have expired anyway."""

    __tablename__ = "revoked_tokens"

    jti: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
