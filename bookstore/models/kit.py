"""Kits: several books sold together at a kit price. A kit keeps no stock of its own: it has as many as
its scarcest book allows (services/kits.py)."""
from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import KitPartMixin, TimestampMixin


class Kit(TimestampMixin, db.Model):
    __tablename__ = "kits"
    __table_args__ = (
        CheckConstraint("price_paise > 0", name="price_positive"),
        Index("ix_kits_exam_id", "exam_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    slug: Mapped[str] = mapped_column(String(220), unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    price_paise: Mapped[int]
    # Archived kits leave the shop's lists and pages; their orders keep them.
    archived: Mapped[bool] = mapped_column(Boolean, default=False)
    exam_id: Mapped[int | None] = mapped_column(ForeignKey("exams.id", ondelete="SET NULL"))

    items: Mapped[list["KitBook"]] = relationship(
        back_populates="kit", cascade="all, delete-orphan", order_by="KitBook.position", lazy="selectin")
    exam = relationship("Exam", lazy="joined")


class KitBook(KitPartMixin, db.Model):
    """One book of a kit, and how many copies of it the kit holds (book_id, quantity: KitPartMixin)."""

    __tablename__ = "kit_books"

    kit_id: Mapped[int] = mapped_column(ForeignKey("kits.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(default=0)

    kit: Mapped[Kit] = relationship(back_populates="items")
    book = relationship("Book", lazy="joined")
