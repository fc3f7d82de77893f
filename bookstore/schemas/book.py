"""Book and category shapes, the catalogue's query parameters and the admin book form."""
import operator
from datetime import date

from marshmallow import (Schema, ValidationError, fields, post_load, pre_dump, validate, validates,
                         validates_schema)
from sqlalchemy import JSON
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.exc import NoInspectionAvailable

from bookstore.models import Book
from bookstore.schemas.common import (PageQuerySchema, PaginationSchema, ReplySchema, SuccessSchema, pagination,
                                      search_param, text_param)
from bookstore.models.book import MEDIA
from bookstore.schemas.fields import (IdInput, IdString, InputSchema, PartialUpdate, Rupees, Trimmed, UtcDateTime,
                                      WholeNumber, required)
from bookstore.schemas.remembered import RememberedDumps
from bookstore.services.images import COVER_REQUIRED
from bookstore.services.storage import media_url

SORT_OPTIONS = ("newest", "oldest", "price-low", "price-high", "title", "bestselling", "rating")
FORMATS = ("Paperback", "Hardcover", "E-Book", "Audiobook")
# The languages the catalogue filter offers (the demo catalogue's; a book's language is free text up to 40).
LANGUAGES = ("English", "Hindi", "English & Hindi")
COVER_MAX_CHARACTERS = 16 * 1024 * 1024
MEDIUM_MESSAGE = "Medium must be one of: " + ", ".join(MEDIA) + "."
MAX_EXAMS = 30


class _Columns:
    """Reads every column of a loaded Book from its instance dict at once, lists (tags) as tuples."""

    def __init__(self):
        self._read = None
        self._lists: list[int] = []

    def read(self, loaded: dict) -> tuple:
        if self._read is None:
            columns = list(sa_inspect(Book).column_attrs)
            self._lists = [n for n, column in enumerate(columns) if isinstance(column.columns[0].type, JSON)]
            self._read = operator.itemgetter(*(column.key for column in columns))
        values = self._read(loaded)
        if not self._lists:
            return values
        values = list(values)
        for n in self._lists:
            if isinstance(values[n], list):
                values[n] = tuple(values[n])
        return tuple(values)


_BOOK_COLUMNS = _Columns()


class MediumField(fields.String):
    """english, hindi or bilingual, in any letter case."""

    default_error_messages = {"medium": MEDIUM_MESSAGE}

    def __init__(self, **kwargs):
        super().__init__(metadata={"enum": list(MEDIA), "description": "in any letter case"}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs).strip().lower()
        if text not in MEDIA:
            raise self.make_error("medium")
        return text


def _edition_year_range(value) -> None:
    if value is not None and not 1900 <= value <= date.today().year + 1:
        raise ValidationError(f"Edition year must be between 1900 and {date.today().year + 1}.")


class ExamRefSchema(Schema):
    _id = IdString(attribute="id")
    slug = fields.String()
    name = fields.String()
    shortName = fields.String(attribute="short_name")


class SubjectRefSchema(Schema):
    _id = IdString(attribute="id")
    slug = fields.String()
    name = fields.String()
    exam = fields.Function(lambda subject: subject.exam.slug)


class EditionRefSchema(Schema):
    _id = IdString(attribute="id")
    title = fields.String()
    editionYear = fields.Integer(attribute="edition_year", allow_none=True)


class CategorySchema(Schema):
    _id = IdString(attribute="id")
    name = fields.String()
    slug = fields.String()
    description = fields.String()
    icon = fields.String()
    color = fields.String()
    bookCount = fields.Integer(attribute="book_count")


DIGITAL_STOCK = 999


class BookCardSchema(RememberedDumps):
    """A book as lists, suggestions, shelves and carts show it: everything but its exams, subjects and editions."""

    def fingerprint(self, book) -> tuple | None:
        """Every column of the book as loaded, its category's name and slug, and where covers are served
        from (schemas/remembered.py); None when a column is not loaded (reading it would load it)."""
        try:
            loaded = sa_inspect(book).dict
            values = _BOOK_COLUMNS.read(loaded)
        except (NoInspectionAvailable, KeyError):  # not a Book row, or a column not loaded
            return None
        category = loaded.get("category")
        if category is None:
            return None
        return (media_url("-"), category.name, category.slug, *values)

    _id = IdString(attribute="id")
    title = fields.String()
    author = fields.String()
    category = fields.Function(lambda book: book.category.name)
    categorySlug = fields.Function(lambda book: book.category.slug)
    price = Rupees(attribute="price_paise")
    discountedPrice = Rupees(attribute="discounted_price_paise")
    # An e-book or audiobook has no copies to run out of (product §7.11): with its file it reads DIGITAL_STOCK (the
    # shop's copies-per-line limit still applies), without one 0 (it can't be bought), so every screen that
    # reads stock treats it rightly.
    stock = fields.Function(lambda book: (DIGITAL_STOCK if book.file_key else 0) if book.is_digital else book.stock,
                            metadata={"type": "integer"})
    inStock = fields.Function(lambda book: bool(book.file_key) if book.is_digital else book.stock > 0)
    digital = fields.Boolean(attribute="is_digital")
    imageUrl = fields.Function(lambda book: media_url(book.cover_key))
    thumbnailUrl = fields.Function(lambda book: media_url(book.thumbnail_key or book.cover_key))
    description = fields.String()
    isbn = fields.String(allow_none=True)
    publisher = fields.String()
    publicationDate = fields.Date(attribute="publication_date", allow_none=True)
    language = fields.String()
    pages = fields.Integer(allow_none=True)
    format = fields.String()
    dimensions = fields.String()
    weight = fields.String()
    tags = fields.List(fields.String())
    rating = fields.Float()
    ratingCount = fields.Integer(attribute="rating_count")
    copiesSold = fields.Integer(attribute="copies_sold")
    archived = fields.Boolean()
    medium = fields.String()
    editionYear = fields.Integer(attribute="edition_year", allow_none=True)
    editionNumber = fields.Integer(attribute="edition_number", allow_none=True)
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


class BookSchema(BookCardSchema):
    """One book whole (its page, the dialog's second read, the admin form): the card and what it is for."""

    exams = fields.List(fields.Nested(ExamRefSchema))
    subjects = fields.List(fields.Nested(SubjectRefSchema))
    # The edition this one replaces, and the newest visible one that replaces it (null when none).
    replaces = fields.Nested(EditionRefSchema, attribute="replaces_ref", allow_none=True)
    newerEdition = fields.Nested(EditionRefSchema, attribute="newer_edition", allow_none=True)
    # A digital book's file (name, type, size), null until an administrator uploads one; never its key.
    file = fields.Function(lambda book: {"name": book.file_name, "type": book.file_type, "size": book.file_size}
                           if book.file_key else None, allow_none=True)


class BookListReplySchema(ReplySchema):
    """A services Page of books as the list's reply (also embedded in the /books page by seo.py)."""

    books = fields.List(fields.Nested(BookCardSchema))
    totalBooks = fields.Integer()
    totalPages = fields.Integer()
    pagination = fields.Nested(PaginationSchema)
    didYouMean = fields.String(metadata={
        "description": "Searches only: the search found nothing as typed, and these books answer this "
                       "corrected search instead (typos corrected), which the shop offers as \"Did you mean …\"."})

    @pre_dump
    def from_page(self, page, **_kwargs):
        """The product's named totals beside the pagination object, and the corrected search if any."""
        reply = {"books": page.items, "totalBooks": page.total, "totalPages": page.total_pages,
                 "pagination": pagination(page)}
        if page.did_you_mean:
            reply["didYouMean"] = page.did_you_mean
        return reply


class CategoryQuerySchema(InputSchema):
    """`category=<name or slug>`: only one category's books."""

    category = text_param("Category", 60)


class BookListQuerySchema(PageQuerySchema, CategoryQuerySchema):
    search = search_param(200)
    minPrice = Rupees(data_key="minPrice", attribute="min_price")
    maxPrice = Rupees(data_key="maxPrice", attribute="max_price")
    rating = fields.Float(validate=validate.Range(min=0, max=5, error="Rating must be between 0 and 5."),
                          error_messages={"special": "Rating must be between 0 and 5."})
    format = fields.String(validate=validate.OneOf(FORMATS, error="Format must be one of: " + ", ".join(FORMATS) + "."))
    language = text_param("Language", 40)
    exam = text_param("Exam", 60)
    subject = text_param("Subject", 60)
    medium = MediumField()
    edition = fields.Integer(validate=_edition_year_range,
                             error_messages={"invalid": "Edition must be a year like 2026."})
    sortBy = fields.String(
        data_key="sortBy", attribute="sort_by",
        validate=validate.OneOf(SORT_OPTIONS, error="Sort must be one of: " + ", ".join(SORT_OPTIONS) + "."),
    )
    # Administrators only: list archived books too (checked by the view).
    includeArchived = fields.Boolean(attribute="include_archived", load_default=False)

    @validates_schema
    def price_range_in_order(self, data, **_kwargs):
        """A minimum above the maximum matches nothing: say so rather than answer an empty page."""
        low, high = data.get("min_price"), data.get("max_price")
        if low is not None and high is not None and low > high:
            raise ValidationError("The minimum price must not be more than the maximum price.", "minPrice")


class BookQuerySchema(InputSchema):
    includeArchived = fields.Boolean(attribute="include_archived", load_default=False)


class ShelfQuerySchema(CategoryQuerySchema):
    """Featured, best sellers and new releases: a short list, optionally of one category."""

    limit = fields.Integer(load_default=8, validate=validate.Range(min=1, max=48, error="Limit must be between 1 and 48."))


MAX_BOOKS_BY_ID = 50


class BookIdsQuerySchema(InputSchema):
    """A cart's books: `ids=3,17,42`, read again in one call."""

    ids = fields.String(required=True, error_messages={"required": "Book ids are required."})

    @post_load
    def split(self, data, **_kwargs):
        """The ids as a list without repeats, in the order given."""
        parts = [part.strip() for part in data["ids"].split(",")]
        if len(parts) > MAX_BOOKS_BY_ID or not all(part.isascii() and part.isdigit() for part in parts):
            raise ValidationError(f"Give 1 to {MAX_BOOKS_BY_ID} book ids separated by commas.", "ids")
        return {"ids": list(dict.fromkeys(parts))}


class SuggestQuerySchema(InputSchema):
    q = search_param(100, load_default="")


class SuggestionSchema(Schema):
    book = fields.Nested(BookCardSchema)
    matchedOn = fields.String(attribute="matched_on")
    preview = fields.String(allow_none=True)


# ---------------------------------------------------------------- the admin book form

# Product §10.2: the edit form's checks, in this order; the reply's message is the first that fails.
FORM_ORDER = ("title", "author", "description", "price", "category", "weight", "imageUrl")
PRICE_MESSAGE = "Valid price is required"
MAX_TAGS = 20


def _spec_required(message: str, max_length: int) -> Trimmed:
    """A required trimmed text whose missing, null or blank value reads exactly as product §10.2 words it."""
    return Trimmed(required=True, max_length=max_length, error_messages=required(message), blank_message=message)


def isbn_check_digit_ok(digits: str) -> bool:
    """ISBN-10 (mod 11, X = 10) or ISBN-13 (weights 1 and 3, mod 10)."""
    if len(digits) == 10:
        values = [10 if c == "X" else int(c) for c in digits]
        return sum((10 - i) * v for i, v in enumerate(values)) % 11 == 0
    return sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(digits)) % 10 == 0


class IsbnField(fields.String):
    """An ISBN-10 or -13 written with or without hyphens and spaces; kept as digits (and X)."""

    default_error_messages = {"isbn": "ISBN must have 10 or 13 digits (hyphens allowed).",
                              "checksum": "This ISBN's check digit is wrong; please check the number."}

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        compact = "".join(c for c in text if c not in " -").upper()
        if not compact:
            return None
        if not (len(compact) in (10, 13) and compact[:-1].isdigit() and compact.isascii()
                and (compact[-1].isdigit() or (compact[-1] == "X" and len(compact) == 10))):
            raise self.make_error("isbn")
        if not isbn_check_digit_ok(compact):
            raise self.make_error("checksum")
        return compact


class BookInputSchema(InputSchema):
    """POST /api/books: the admin form's fields (product §10.2), declared in its order of checks."""

    title = _spec_required("Book title is required", 255)
    author = _spec_required("Author is required", 200)
    description = _spec_required("Description is required", 10000)
    price = Rupees(attribute="price_paise", required=True, validate=validate.Range(min=1, error=PRICE_MESSAGE),
                   error_messages={**required(PRICE_MESSAGE), "invalid": PRICE_MESSAGE, "range": PRICE_MESSAGE})
    category = _spec_required("Category is required", 60)
    weight = _spec_required("Weight is required", 20)
    # A data URL (checked and re-encoded by services/images.py); book writes' body limit caps its length first.
    imageUrl = Trimmed(attribute="image_url", required=True, max_length=COVER_MAX_CHARACTERS,
                       error_messages=required(COVER_REQUIRED), blank_message=COVER_REQUIRED)
    stock = WholeNumber(load_default=0, validate=validate.Range(
        min=0, max=1_000_000, error="Stock must be a whole number from 0 to 10,00,000."),
        error_messages={"invalid": "Stock must be a whole number from 0 to 10,00,000.", "null": "Stock is required."})
    isbn = IsbnField(load_default=None, allow_none=True)
    publisher = Trimmed(max_length=200, load_default="", allow_none=True)
    publishYear = fields.Integer(attribute="publish_year", allow_none=True,
                                 error_messages={"invalid": "Publish year must be a year like 2024."})
    publicationDate = fields.Date(attribute="publication_date", allow_none=True,
                                  error_messages={"invalid": "Publication date must be a date like 2024-01-01."})
    language = Trimmed(max_length=40, load_default="English")
    pages = fields.Integer(allow_none=True, load_default=None, validate=validate.Range(
        min=1, max=100_000, error="Pages must be at least 1."), error_messages={"invalid": "Pages must be a whole number."})
    format = fields.String(load_default="Paperback", validate=validate.OneOf(
        FORMATS, error="Format must be one of: " + ", ".join(FORMATS) + "."))
    discountedPrice = Rupees(attribute="discounted_price_paise", allow_none=True, load_default=None)
    dimensions = Trimmed(max_length=60, load_default="", allow_none=True)
    tags = fields.List(Trimmed(max_length=40), validate=validate.Length(
        max=MAX_TAGS, error=f"At most {MAX_TAGS} tags."), error_messages={"invalid": "Tags must be a list of words."})
    medium = MediumField()
    editionYear = fields.Integer(attribute="edition_year", allow_none=True, validate=_edition_year_range,
                                 error_messages={"invalid": "Edition year must be a year like 2026."})
    editionNumber = fields.Integer(attribute="edition_number", allow_none=True, validate=validate.Range(
        min=1, max=999, error="Edition number must be from 1 to 999."),
        error_messages={"invalid": "Edition number must be a whole number."})
    examIds = fields.List(IdInput(), attribute="exam_ids", validate=validate.Length(
        max=MAX_EXAMS, error=f"At most {MAX_EXAMS} exams."), error_messages={"invalid": "Exams must be a list of ids."})
    subjectIds = fields.List(IdInput(), attribute="subject_ids", validate=validate.Length(
        max=MAX_EXAMS * 3, error=f"At most {MAX_EXAMS * 3} subjects."),
        error_messages={"invalid": "Subjects must be a list of ids."})
    replacesId = IdInput(attribute="replaces_id", allow_none=True)

    @validates("publishYear")
    def year_in_range(self, value, **_kwargs):
        if value is not None and not 1900 <= value <= date.today().year + 1:
            raise ValidationError(f"Publish year must be between 1900 and {date.today().year + 1}.")

    @validates("publicationDate")
    def date_in_range(self, value, **_kwargs):
        if value is not None and not 1900 <= value.year <= date.today().year + 1:
            raise ValidationError(f"Publication date must be between 1900 and {date.today().year + 1}.")

    @validates_schema
    def discount_below_price(self, data, **_kwargs):
        discounted, price = data.get("discounted_price_paise"), data.get("price_paise")
        if discounted is not None and price is not None and discounted >= price:
            raise ValidationError("Discounted price must be below the price.", "discountedPrice")

    @post_load
    def normalise(self, data, **_kwargs):
        """publishYear becomes Jan 1 of that year; optional text sent as null becomes empty; tags de-duplicated."""
        year = data.pop("publish_year", None)
        if year is not None:
            data["publication_date"] = date(year, 1, 1)
        for name in ("publisher", "dimensions"):
            if name in data and data[name] is None:
                data[name] = ""
        if "tags" in data:
            data["tags"] = list(dict.fromkeys(tag for tag in data["tags"] if tag))
        return data

    def handle_error(self, error: ValidationError, data, **kwargs):
        """Order the field errors as the form checks them (product §10.2), so `message` is the first one."""
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        ordered = {name: messages[name] for name in FORM_ORDER if name in messages}
        ordered.update({name: value for name, value in messages.items() if name not in ordered})
        raise ValidationError(ordered)


class BookUpdateSchema(PartialUpdate, BookInputSchema):
    """PUT /api/books/{id}: fields left out keep their values; `archived: false` puts a book back on sale."""

    imageUrl = fields.String(attribute="image_url", allow_none=True)
    archived = fields.Boolean()

    def __init__(self, **kwargs):
        super().__init__(partial=True, **kwargs)


class ShelfReplySchema(ReplySchema):
    books = fields.List(fields.Nested(BookCardSchema))


class BookReplySchema(SuccessSchema):
    book = fields.Nested(BookSchema)
    # Administrators' reads and writes: the book's ETag, to send back as If-Match.
    version = fields.String()


class BookRemovedSchema(SuccessSchema):
    archived = fields.Boolean()


class SuggestReplySchema(ReplySchema):
    suggestions = fields.List(fields.Nested(SuggestionSchema))


class CategoryListReplySchema(ReplySchema):
    categories = fields.List(fields.Nested(CategorySchema))
