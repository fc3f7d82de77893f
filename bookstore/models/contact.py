"""Messages sent through the contact form."""
from sqlalchemy import CheckConstraint, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin

CONTACT_SUBJECTS = ("general", "order", "returns", "technical", "partnership", "other")
CONTACT_STATUSES = ("new", "in-progress", "resolved")


class ContactMessage(TimestampMixin, db.Model):
    __tablename__ = "contact_messages"
    __table_args__ = (
        CheckConstraint("status IN ('new', 'in-progress', 'resolved')", name="status"),
        Index("ix_contact_messages_status_created", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(254))
    phone: Mapped[str | None] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(20))
    message: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20), default="new")
