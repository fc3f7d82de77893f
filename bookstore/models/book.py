"""A book in the catalogue. Money is integer paise; archived books stay for order history."""
from datetime import date

from sqlalchemy import JSON, Boolean, CheckConstraint, Date, Float, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin
from bookstore.models.category import Category

_PRICE_COLUMNS = ["discounted_price_paise", "price_paise"]


class Book(TimestampMixin, db.Model):
    __tablename__ = "books"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(255))
    author: Mapped[str] = mapped_column(String(200))
    category_id: Mapped[int] = mapped_column(ForeignKey("categories.id"))
    price_paise: Mapped[int]
    discounted_price_paise: Mapped[int | None]
    stock: Mapped[int] = mapped_column(default=0)
    description: Mapped[str] = mapped_column(Text, default="")
    # Digits only (an ISBN-10 may end in X); hyphens are presentation.
    isbn: Mapped[str | None] = mapped_column(String(13), unique=True)
    publisher: Mapped[str] = mapped_column(String(200), default="")
    publication_date: Mapped[date | None] = mapped_column(Date)
    language: Mapped[str] = mapped_column(String(40), default="English")
    pages: Mapped[int | None]
    format: Mapped[str] = mapped_column(String(20), default="Paperback")
    dimensions: Mapped[str] = mapped_column(String(60), default="")
    weight: Mapped[str] = mapped_column(String(20), default="")
    tags: Mapped[list] = mapped_column(JSON, default=list)
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    rating_count: Mapped[int] = mapped_column(default=0)
    copies_sold: Mapped[int] = mapped_column(default=0)
    # Storage keys of the cover and its thumbnail, never image data.
    cover_key: Mapped[str | None] = mapped_column(String(255))
    thumbnail_key: Mapped[str | None] = mapped_column(String(255))
    archived: Mapped[bool] = mapped_column(Boolean, default=False)

    category: Mapped[Category] = relationship(lazy="joined", innerjoin=True)

    __table_args__ = (
        CheckConstraint("price_paise >= 0", name="price_not_negative"),
        CheckConstraint(
            "discounted_price_paise IS NULL OR (discounted_price_paise >= 0 AND discounted_price_paise < price_paise)",
            name="discount_below_price",
        ),
        CheckConstraint("stock >= 0", name="stock_not_negative"),
        # Each listing order the shop offers has an index that starts with the shopper filter.
        Index("ix_books_listing_newest", "archived", "created_at", "id"),
        Index("ix_books_listing_category", "category_id", "archived", "created_at"),
        # PostgreSQL: the price columns ride along so a price-range count is an index-only scan.
        Index("ix_books_listing_category_price", "category_id", "archived",
              text("coalesce(discounted_price_paise, price_paise)"), postgresql_include=_PRICE_COLUMNS),
        Index("ix_books_listing_title", "archived", "title"),
        Index("ix_books_listing_bestselling", "archived", "copies_sold"),
        Index("ix_books_listing_published", "archived", "publication_date"),
        Index("ix_books_listing_rating", "archived", "rating"),
        Index("ix_books_listing_price", "archived", text("coalesce(discounted_price_paise, price_paise)"),
              postgresql_include=_PRICE_COLUMNS),
    )

    @property
    def sale_price_paise(self) -> int:
        """What the shopper pays for one copy."""
        return self.discounted_price_paise if self.discounted_price_paise is not None else self.price_paise
