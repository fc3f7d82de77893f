"""Kit shapes: a kit with its books, their sum and the saving for shoppers; the admin's kit in and out."""
import re

from marshmallow import Schema, ValidationError, fields, validate, validates

from bookstore import money
from bookstore.schemas.book import ExamRefSchema
from bookstore.schemas.common import AdminPageQuerySchema, ReplySchema, SuccessSchema, counted_pagination
from bookstore.schemas.fields import (IdInput, IdString, InputSchema, PartialUpdate, Rupees, Trimmed, UtcDateTime,
                                      required, required_text)
from bookstore.services import kits
from bookstore.services.storage import media_url

SLUG = re.compile(r"[\w]+(?:-[\w]+)*")


class KitBookSchema(Schema):
    """One book of a kit as its page shows it, and the copies of it a kit holds."""

    _id = IdString(attribute="book.id")
    title = fields.String(attribute="book.title")
    author = fields.String(attribute="book.author")
    price = Rupees(attribute="book.price_paise")
    discountedPrice = Rupees(attribute="book.discounted_price_paise", allow_none=True)
    salePrice = Rupees(attribute="book.sale_price_paise")
    thumbnailUrl = fields.Function(lambda item: media_url(item.book.thumbnail_key or item.book.cover_key),
                                   allow_none=True)
    stock = fields.Integer(attribute="book.stock")
    archived = fields.Boolean(attribute="book.archived")
    quantity = fields.Integer()


class KitSchema(Schema):
    _id = IdString(attribute="id")
    name = fields.String()
    slug = fields.String()
    description = fields.String()
    price = Rupees(attribute="price_paise")
    # The books bought one by one, and what the kit saves against that (0 when nothing).
    booksPrice = fields.Function(lambda kit: money.to_rupees(kits.books_total_paise(kit)))
    saving = fields.Function(lambda kit: money.to_rupees(kits.saving_paise(kit)))
    stock = fields.Function(kits.stock_of, metadata={"description": "Whole kits in stock: its scarcest book's"})
    inStock = fields.Function(lambda kit: kits.stock_of(kit) > 0)
    archived = fields.Boolean()
    exam = fields.Nested(ExamRefSchema, allow_none=True)
    books = fields.List(fields.Nested(KitBookSchema), attribute="items")
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


class KitListQuerySchema(InputSchema):
    """`exam=<slug>`: only the kits of one exam."""

    exam = Trimmed(max_length=60, load_default=None)


class KitListReplySchema(ReplySchema):
    kits = fields.List(fields.Nested(KitSchema))


class KitReplySchema(SuccessSchema):
    kit = fields.Nested(KitSchema)


class KitBookInput(InputSchema):
    book = IdInput(required=True, error_messages={**required("Each line needs a book."), "invalid": "Unknown book."})
    quantity = fields.Integer(strict=True, load_default=1, error_messages={"invalid": "Quantity must be a whole number."},
                              validate=validate.Range(min=1, max=kits.MAX_COPIES,
                                                      error=f"Quantity must be between 1 and {kits.MAX_COPIES}."))


class KitInputSchema(InputSchema):
    """Create a kit (name, price and books required) or, with partial=True, change it."""

    name = required_text("Name", 200)
    slug = Trimmed(max_length=200, load_default=None, allow_none=True)
    description = Trimmed(max_length=5000, load_default="")
    price = Rupees(attribute="price_paise", required=True, error_messages=required("Price is required."))
    archived = fields.Boolean(load_default=False)
    exam = IdInput(load_default=None, allow_none=True, error_messages={"invalid": "Unknown exam."})
    books = fields.List(fields.Nested(KitBookInput), required=True, error_messages=required("A kit needs books."),
                        validate=[validate.Length(min=1, error="A kit needs at least one book."),
                                  validate.Length(max=kits.MAX_BOOKS,
                                                  error=f"A kit holds at most {kits.MAX_BOOKS} different books.")])

    @validates("price")
    def price_positive(self, value, **_kwargs):
        if value <= 0:
            raise ValidationError("Price must be more than ₹0.")

    @validates("slug")
    def slug_shape(self, value, **_kwargs):
        if value and not SLUG.fullmatch(value.lower()):
            raise ValidationError("Slug must be letters and digits joined by single hyphens.")


class KitUpdateSchema(PartialUpdate, KitInputSchema):
    """PUT: fields left out keep their values."""

    def __init__(self, **kwargs):
        super().__init__(partial=True, **kwargs)


class AdminKitQuerySchema(AdminPageQuerySchema):
    search = Trimmed(max_length=100, load_default=None)
    status = fields.String(load_default=None, validate=validate.OneOf(("active", "archived"),
                                                                      error="Status must be active or archived."))


class AdminKitListReplySchema(ReplySchema):
    kits = fields.List(fields.Nested(KitSchema))
    pagination = counted_pagination("KitPaginationSchema", "totalKits")
