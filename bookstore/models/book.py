"""A book in the catalogue. Money is integer paise; archived books stay for order history."""
from datetime import date

from sqlalchemy import JSON, BigInteger, Boolean, CheckConstraint, Date, Float, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from bookstore.extensions import db
from bookstore.models.base import TimestampMixin
from bookstore.models.category import Category
from bookstore.models.exam import Exam, ExamSubject, book_exams, book_subjects

_PRICE_COLUMNS = ["discounted_price_paise", "price_paise"]

# The medium a book is taught in: a fixed list (decisions §9), shown with these labels.
MEDIA = {"english": "English", "hindi": "Hindi", "bilingual": "Bilingual"}
# Formats delivered as a download instead of a parcel (product §7.11).
DIGITAL_FORMATS = ("E-Book", "Audiobook")


def medium_from_text(text: str | None) -> str | None:
    """The medium a free-text language names ("Hindi Medium" -> hindi, "English & Hindi" -> bilingual), or None."""
    words = (text or "").strip().lower()
    hindi = "hindi" in words or "हिंदी" in words or "हिन्दी" in words
    if "bilingual" in words or "dual" in words or (hindi and "english" in words):
        return "bilingual"
    if hindi:
        return "hindi"
    if "english" in words:
        return "english"
    return None


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
    # English, Hindi or Bilingual; `language` stays the book's own words and sets it when it names one.
    medium: Mapped[str] = mapped_column(String(10), default="english", server_default="english")
    edition_year: Mapped[int | None]
    edition_number: Mapped[int | None]
    # The older edition this book replaces; that one then links to this one.
    replaces_id: Mapped[int | None] = mapped_column(ForeignKey("books.id"), index=True)
    # A digital book's file in private storage (services/private_files.py): its key, the type found in its
    # bytes, its size and the name a download is saved under. Without one the book cannot be bought.
    file_key: Mapped[str | None] = mapped_column(String(255))
    file_type: Mapped[str | None] = mapped_column(String(60))
    file_size: Mapped[int | None] = mapped_column(BigInteger)
    file_name: Mapped[str | None] = mapped_column(String(255))

    category: Mapped[Category] = relationship(lazy="joined", innerjoin=True)
    # Exams, subjects and editions are read only where one book is shown whole (its page, the admin
    # form): lists dump the card shape without them, so a page of books stays one statement.
    exams: Mapped[list[Exam]] = relationship(secondary=book_exams, order_by=Exam.position)
    subjects: Mapped[list[ExamSubject]] = relationship(secondary=book_subjects, order_by=ExamSubject.position)
    # Written by the admin form; replies read the light references below.
    replaces: Mapped["Book | None"] = relationship(remote_side=[id])

    __table_args__ = (
        CheckConstraint("price_paise >= 0", name="price_not_negative"),
        CheckConstraint(
            "discounted_price_paise IS NULL OR (discounted_price_paise >= 0 AND discounted_price_paise < price_paise)",
            name="discount_below_price",
        ),
        CheckConstraint("stock >= 0", name="stock_not_negative"),
        CheckConstraint("medium IN ('english', 'hindi', 'bilingual')", name="medium_known"),
        CheckConstraint("edition_number IS NULL OR edition_number >= 1", name="edition_number_positive"),
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

    @validates("language")
    def _medium_follows_language(self, _key, value):
        """A language naming a medium ("Hindi Medium") sets it; a medium given afterwards wins."""
        medium = medium_from_text(value)
        if medium is not None:
            self.medium = medium
        return value

    @property
    def newer_edition(self) -> "EditionRef | None":
        """The newest visible book that replaces this one, if any."""
        newer = [book for book in self.newer_editions if not book.archived and book.id != self.id]
        return max(newer, key=lambda book: (book.edition_year or 0, book.edition_number or 0, book.id), default=None)

    @property
    def is_digital(self) -> bool:
        """An e-book or audiobook: downloaded, never shipped, no stock counted (product §7.11)."""
        return self.format in DIGITAL_FORMATS

    @property
    def sellable_file(self) -> bool:
        """Not digital, or digital with its file uploaded."""
        return not self.is_digital or bool(self.file_key)

    @property
    def sale_price_paise(self) -> int:
        """What the shopper pays for one copy."""
        return self.discounted_price_paise if self.discounted_price_paise is not None else self.price_paise


class EditionRef(db.Model):
    """A few columns of a book, for naming the edition another book replaces or is replaced by.

    A class of its own over the same table, so loading a book's editions loads no exams, subjects or
    editions of those editions in turn.
    """

    __table__ = Book.__table__
    __mapper_args__ = {"include_properties": ["id", "title", "edition_year", "edition_number", "archived",
                                              "replaces_id"]}


# One table on both sides: remote_side says which way each one points.
Book.replaces_ref = relationship(EditionRef, primaryjoin=Book.replaces_id == EditionRef.id,
                                 foreign_keys=[Book.replaces_id], remote_side=[EditionRef.id], uselist=False,
                                 viewonly=True)
Book.newer_editions = relationship(EditionRef, primaryjoin=EditionRef.replaces_id == Book.id,
                                   foreign_keys=[EditionRef.replaces_id], remote_side=[EditionRef.replaces_id],
                                   uselist=True, viewonly=True)
