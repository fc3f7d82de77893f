"""The 18 shelves of the shop (product §3.1), fixed reference data loaded by a migration."""
from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db


class Category(db.Model):
    __tablename__ = "categories"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    description: Mapped[str] = mapped_column(String(300), default="")
    icon: Mapped[str] = mapped_column(String(16), default="")
    color: Mapped[str] = mapped_column(String(16), default="")
    position: Mapped[int] = mapped_column(default=0)
    # Visible books in this category, kept by database triggers (see the first migration).
    book_count: Mapped[int] = mapped_column(default=0, server_default="0")
    # Bumped by the same triggers whenever the category's visible books change (migration 0005).
    listing_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # Bumped by a trigger when a visible book changes a value list filters compare (price, rating,
    # format, language): remembered filtered totals are valid while it and listing_version hold.
    filter_version: Mapped[int] = mapped_column(default=0, server_default="0")
