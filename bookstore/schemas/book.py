"""Book and category shapes, and the catalogue's query parameters."""
from marshmallow import Schema, fields, post_load, validate

from bookstore.schemas.fields import IdString, InputSchema, Rupees, UtcDateTime
from bookstore.services.storage import public_url

SORT_OPTIONS = ("newest", "oldest", "price-low", "price-high", "title", "bestselling", "rating")
FORMATS = ("Paperback", "Hardcover", "E-Book", "Audiobook")
MAX_LIMIT = 100


class CategorySchema(Schema):
    _id = IdString(attribute="id")
    name = fields.String()
    slug = fields.String()
    description = fields.String()
    icon = fields.String()
    color = fields.String()
    bookCount = fields.Integer(attribute="book_count")


class BookSchema(Schema):
    _id = IdString(attribute="id")
    title = fields.String()
    author = fields.String()
    category = fields.Function(lambda book: book.category.name)
    categorySlug = fields.Function(lambda book: book.category.slug)
    price = Rupees(attribute="price_paise")
    discountedPrice = Rupees(attribute="discounted_price_paise")
    stock = fields.Integer()
    inStock = fields.Function(lambda book: book.stock > 0)
    imageUrl = fields.Function(lambda book: public_url(book.cover_key))
    thumbnailUrl = fields.Function(lambda book: public_url(book.thumbnail_key or book.cover_key))
    description = fields.String()
    isbn = fields.String()
    publisher = fields.String()
    publicationDate = fields.Date(attribute="publication_date")
    language = fields.String()
    pages = fields.Integer()
    format = fields.String()
    dimensions = fields.String()
    weight = fields.String()
    tags = fields.List(fields.String())
    rating = fields.Float()
    ratingCount = fields.Integer(attribute="rating_count")
    copiesSold = fields.Integer(attribute="copies_sold")
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


class PageQuerySchema(InputSchema):
    """`page` from 1; `limit` defaults to 12 and is clamped to 100 (decisions §2)."""

    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=100000, error="Page must be 1 or more."))
    limit = fields.Integer(load_default=12, validate=validate.Range(min=1, error="Limit must be 1 or more."))

    @post_load
    def clamp(self, data, **_kwargs):
        data["limit"] = min(data["limit"], MAX_LIMIT)
        return data


class BookListQuerySchema(PageQuerySchema):
    category = fields.String(validate=validate.Length(max=60, error="Category must be at most 60 characters."))
    search = fields.String(validate=validate.Length(max=200, error="Search is limited to 200 characters."))
    minPrice = Rupees(data_key="minPrice", attribute="min_price")
    maxPrice = Rupees(data_key="maxPrice", attribute="max_price")
    rating = fields.Float(validate=validate.Range(min=0, max=5, error="Rating must be between 0 and 5."),
                          error_messages={"special": "Rating must be between 0 and 5."})
    format = fields.String(validate=validate.OneOf(FORMATS, error="Format must be one of: " + ", ".join(FORMATS) + "."))
    language = fields.String(validate=validate.Length(max=40, error="Language must be at most 40 characters."))
    sortBy = fields.String(
        data_key="sortBy", attribute="sort_by",
        validate=validate.OneOf(SORT_OPTIONS, error="Sort must be one of: " + ", ".join(SORT_OPTIONS) + "."),
    )


class ShelfQuerySchema(InputSchema):
    """Featured, best sellers and new releases: a short list, optionally of one category."""

    limit = fields.Integer(load_default=8, validate=validate.Range(min=1, max=48, error="Limit must be between 1 and 48."))
    category = fields.String(validate=validate.Length(max=60, error="Category must be at most 60 characters."))


class SuggestQuerySchema(InputSchema):
    q = fields.String(load_default="", validate=validate.Length(max=100, error="Search is limited to 100 characters."))


class SuggestionSchema(Schema):
    book = fields.Nested(BookSchema)
    matchedOn = fields.String(attribute="matched_on")
    preview = fields.String()
